/* isa_model.c — read-only accessors of a loaded spec and the multi-architecture
 * manager. */
#include <stdlib.h>
#include <string.h>

#include "isa_impl.h"

const char *isa_status_str(isa_status s)
{
    switch (s) {
    case ISA_OK:
        return "ok";
    case ISA_ERR_IO:
        return "cannot read file";
    case ISA_ERR_XML:
        return "not well-formed XML";
    case ISA_ERR_SCHEMA:
        return "schema violation";
    case ISA_ERR_REF:
        return "dangling reference";
    case ISA_ERR_TRUNCATED:
        return "truncated instruction";
    case ISA_ERR_UNKNOWN:
        return "unknown instruction";
    case ISA_ERR_SYNTAX:
        return "syntax error";
    case ISA_ERR_RANGE:
        return "value out of range";
    case ISA_ERR_ARG:
        return "bad argument";
    case ISA_ERR_NOMEM:
        return "out of memory";
    }
    return "unknown status";
}

const char *isa_spec_file(const isa_spec *s)
{
    return s ? s->file : NULL;
}
const char *isa_arch_name(const isa_spec *s)
{
    return s ? s->arch_name : NULL;
}
unsigned isa_arch_id(const isa_spec *s)
{
    return s ? s->arch_id : 0;
}
const char *isa_schema_version(const isa_spec *s)
{
    return s ? s->schema_version : NULL;
}

unsigned isa_instruction_count(const isa_spec *s)
{
    return s ? s->ninsn : 0;
}
const isa_instruction *isa_instruction_at(const isa_spec *s, unsigned i)
{
    return s && i < s->ninsn ? &s->insns[i] : NULL;
}

const isa_instruction *isa_find_instruction(const isa_spec *s, const char *name)
{
    if (!s || !name) return NULL;
    unsigned lo = 0, hi = s->ninsn;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (strcmp(s->insn_by_name[mid]->name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->ninsn && !strcmp(s->insn_by_name[lo]->name, name) ? s->insn_by_name[lo] : NULL;
}

unsigned isa_encoding_count(const isa_spec *s)
{
    return s ? s->nenc : 0;
}
const isa_encoding *isa_encoding_at(const isa_spec *s, unsigned i)
{
    return s && i < s->nenc ? &s->encs[i].pub : NULL;
}

/* Linear lookups: not on any hot path, and the counts are small. */
const isa_encoding *isa_find_encoding(const isa_spec *s, const char *name)
{
    for (unsigned i = 0; s && name && i < s->nenc; i++)
        if (!strcmp(s->encs[i].pub.name, name)) return &s->encs[i].pub;
    return NULL;
}

const isa_operand_type *isa_find_operand_type(const isa_spec *s, const char *name)
{
    for (unsigned i = 0; s && name && i < s->ntype; i++)
        if (!strcmp(s->types[i].pub.name, name)) return &s->types[i].pub;
    return NULL;
}

const isa_data_format *isa_find_data_format(const isa_spec *s, const char *name)
{
    for (unsigned i = 0; s && name && i < s->nfmt; i++)
        if (!strcmp(s->fmts[i].name, name)) return &s->fmts[i];
    return NULL;
}

unsigned isa_data_format_count(const isa_spec *s)
{
    return s ? s->nfmt : 0;
}
const isa_data_format *isa_data_format_at(const isa_spec *s, unsigned i)
{
    return s && i < s->nfmt ? &s->fmts[i] : NULL;
}

unsigned isa_register_count(const isa_spec *s)
{
    return s ? s->nreg : 0;
}
const isa_register *isa_register_at(const isa_spec *s, unsigned i)
{
    return s && i < s->nreg ? &s->regs[i] : NULL;
}

const isa_register *isa_find_register(const isa_spec *s, const char *name)
{
    for (unsigned i = 0; s && name && i < s->nreg; i++)
        if (!strcmp(s->regs[i].name, name)) return &s->regs[i];
    return NULL;
}

const isa_register *isa_find_register_addr(const isa_spec *s, uint32_t address)
{
    for (unsigned i = 0; s && i < s->nreg; i++)
        if (s->regs[i].address == address) return &s->regs[i];
    return NULL;
}

unsigned isa_group_count(const isa_spec *s)
{
    return s ? s->ngroup : 0;
}
const char *isa_group_name(const isa_spec *s, unsigned i)
{
    return s && i < s->ngroup ? s->groups[i].name : NULL;
}
const char *isa_group_description(const isa_spec *s, unsigned i)
{
    return s && i < s->ngroup ? s->groups[i].description : NULL;
}

/* ---- manager --------------------------------------------------------------- */

struct isa_manager {
    unsigned n, cap;
    isa_spec **specs;
};

isa_manager *isa_manager_new(void)
{
    return calloc(1, sizeof(isa_manager));
}

void isa_manager_free(isa_manager *m)
{
    if (!m) return;
    for (unsigned i = 0; i < m->n; i++)
        isa_free(m->specs[i]);
    free(m->specs);
    free(m);
}

const isa_spec *isa_manager_load(isa_manager *m, const char *path, char *err, size_t errlen)
{
    if (!m || !path) return NULL;
    isa_spec *s = isa_load(path, err, errlen);
    if (!s) return NULL;
    /* A later file for the same architecture replaces the earlier one. */
    for (unsigned i = 0; i < m->n; i++)
        if (!strcmp(m->specs[i]->arch_name, s->arch_name)) {
            isa_free(m->specs[i]);
            m->specs[i] = s;
            return s;
        }
    if (m->n == m->cap) {
        unsigned nc = m->cap ? m->cap * 2 : 4;
        isa_spec **ns = realloc(m->specs, sizeof(*ns) * nc);
        if (!ns) {
            isa_free(s);
            return NULL;
        }
        m->specs = ns;
        m->cap = nc;
    }
    m->specs[m->n++] = s;
    return s;
}

const isa_spec *isa_manager_get(const isa_manager *m, const char *arch_name)
{
    for (unsigned i = 0; m && arch_name && i < m->n; i++)
        if (!strcmp(m->specs[i]->arch_name, arch_name)) return m->specs[i];
    return NULL;
}

unsigned isa_manager_count(const isa_manager *m)
{
    return m ? m->n : 0;
}
