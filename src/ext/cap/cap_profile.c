/* cap_profile.c — YAML implementation profiles (libyaml document API). */
#include "cap_profile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "xcsr.h"
#include "xphmg_csr.h"

#define PROFILE_MAX_BYTES (1u << 20) /* a profile is a few lines; refuse anything huge */
#define GET(v, F)         ((unsigned)(((v)&F##_MASK) >> F##_SHIFT))

struct cap_profile {
    char name[64];
    unsigned n;
    struct {
        uint32_t addr;
        uint64_t val;
    } e[64];
};

/* Read-only descriptors only: policy state, STAT and the reserved CSR are not
 * implementation facts (CAP 5.2.7), rtcap is RT's discovery CSR. */
bool cap_profile_is_discovery(uint32_t addr)
{
    const xcsr_reg *r = xcsr_find(addr);
    if (!r || r->access != XCSR_RO || !r->defined) return false;
    if (addr == XPHMG_CSR_RTCAP) return true;
    return addr >= 0x7C0 && addr <= 0x7F7 && addr != XPHMG_CSR_CAP_PREC_STAT &&
           addr != XPHMG_CSR_CAP_PREC_RSV0;
}

const char *cap_profile_name(const cap_profile *p)
{
    return p ? p->name : "default";
}

bool cap_profile_value(const cap_profile *p, uint32_t addr, uint64_t *val)
{
    if (!p || !cap_profile_is_discovery(addr)) return false;
    for (unsigned i = 0; i < p->n; i++)
        if (p->e[i].addr == addr) {
            *val = p->e[i].val;
            return true;
        }
    *val = xcsr_find(addr)->reset;
    return true;
}

void cap_profile_free(cap_profile *p)
{
    free(p);
}

/* ---- parsing ---- */

typedef struct {
    yaml_document_t *doc;
    const char *origin;
    char *err;
    size_t errlen;
} ctx;

static bool fail(ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
    int k = snprintf(c->err, c->errlen, "%s:%lu: ", c->origin,
                     n ? (unsigned long)n->start_mark.line + 1 : 1ul);
    if (k < 0 || (size_t)k >= c->errlen) return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err + k, c->errlen - (size_t)k, fmt, ap);
    va_end(ap);
    return false;
}

static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* Decimal, 0x hex, 0b binary (underscores allowed as separators), true/false. */
static bool parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s) return false;
    if (!strcmp(s, "true") || !strcmp(s, "false")) {
        *out = s[0] == 't';
        return true;
    }
    unsigned base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, s += 2;
    else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        base = 2, s += 2;
    uint64_t v = 0;
    bool any = false;
    for (; *s; s++) {
        if (*s == '_' && any) continue;
        unsigned d;
        if (*s >= '0' && *s <= '9')
            d = (unsigned)(*s - '0');
        else if (*s >= 'a' && *s <= 'f')
            d = (unsigned)(*s - 'a' + 10);
        else if (*s >= 'A' && *s <= 'F')
            d = (unsigned)(*s - 'A' + 10);
        else
            return false;
        if (d >= base || v > (UINT64_MAX - d) / base) return false;
        v = v * base + d;
        any = true;
    }
    *out = v;
    return any;
}

static bool set_csr(ctx *c, cap_profile *p, const yaml_node_t *key, const yaml_node_t *val)
{
    const char *name = scalar(key);
    const xcsr_reg *r = name ? xcsr_find_name(name) : NULL;
    if (!r)
        return fail(c, key, "unknown CSR '%s' (names as in spec/xphmg.xml, e.g. cap_feat0)",
                    name ? name : "?");
    if (!cap_profile_is_discovery(r->addr))
        return fail(c, key,
                    "'%s' is not a discovery CSR: a profile may only set read-only "
                    "capability descriptors",
                    name);
    for (unsigned i = 0; i < p->n; i++)
        if (p->e[i].addr == r->addr) return fail(c, key, "'%s' given twice", name);
    if (p->n >= sizeof p->e / sizeof p->e[0]) return fail(c, key, "too many CSRs");
    uint64_t v = r->reset;
    if (val->type == YAML_SCALAR_NODE) {
        if (!parse_u64(scalar(val), &v))
            return fail(c, val, "'%s': '%s' is not a number", name, scalar(val));
        if (v & ~r->defined)
            return fail(c, val, "'%s': value 0x%llx sets bits outside its fields (0x%llx)", name,
                        (unsigned long long)v, (unsigned long long)r->defined);
    } else if (val->type == YAML_MAPPING_NODE) {
        uint64_t seen = 0;
        for (yaml_node_pair_t *q = val->data.mapping.pairs.start; q < val->data.mapping.pairs.top;
             q++) {
            const yaml_node_t *fk = yaml_document_get_node(c->doc, q->key);
            const yaml_node_t *fv = yaml_document_get_node(c->doc, q->value);
            const char *fname = scalar(fk);
            const xcsr_field *f = fname ? xcsr_find_field(r, fname) : NULL;
            if (!f) return fail(c, fk, "'%s' has no field '%s'", name, fname ? fname : "?");
            uint64_t fmask = (f->width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << f->width) - 1);
            if (seen & (fmask << f->lo))
                return fail(c, fk, "field '%s.%s' given twice", name, fname);
            seen |= fmask << f->lo;
            uint64_t x;
            if (!parse_u64(scalar(fv), &x))
                return fail(c, fv ? fv : fk, "'%s.%s': not a number", name, fname);
            if (x & ~fmask)
                return fail(c, fv, "'%s.%s': %llu does not fit in %u bits", name, fname,
                            (unsigned long long)x, f->width);
            v = (v & ~(fmask << f->lo)) | (x << f->lo);
        }
    } else {
        return fail(c, val, "'%s': expected a number or a mapping of fields", name);
    }
    p->e[p->n].addr = r->addr;
    p->e[p->n].val = v;
    p->n++;
    return true;
}

/* Cross-CSR rules: what the unit and the numeric engine can honour (docs/cap.md). */
static bool check(ctx *c, const cap_profile *p)
{
    uint64_t flags = 0, cur = 0, sup = 0, pm = 0, alu = 0, pcap = 0, fp8 = 0;
    cap_profile_value(p, XPHMG_CSR_CAP_FLAGS, &flags);
    cap_profile_value(p, XPHMG_CSR_CAP_PROF_CUR, &cur);
    cap_profile_value(p, XPHMG_CSR_CAP_PROF_SUP, &sup);
    cap_profile_value(p, XPHMG_CSR_CAP_PMASK_CAP, &pm);
    cap_profile_value(p, XPHMG_CSR_CAP_PREC_ALU, &alu);
    cap_profile_value(p, XPHMG_CSR_CAP_PREC_CAP, &pcap);
    cap_profile_value(p, XPHMG_CSR_CAP_PREC_FP8, &fp8);
    if (!GET(flags, CAP_FLAGS_HAS_PROFILES) && (cur || sup))
        return fail(c, NULL,
                    "cap_prof_cur/cap_prof_sup must be 0 when HAS_PROFILES=0 "
                    "(CAP 4.1.1 #4)");
    if (GET(flags, CAP_FLAGS_HAS_PROFILES) && (cur >= 32 || !((sup >> cur) & 1)))
        return fail(c, NULL, "cap_prof_cur (%llu) is not in cap_prof_sup (CAP 4.3.4)",
                    (unsigned long long)cur);
    if (GET(pm, CAP_PMASK_CAP_PMASK_PRESENT) && !GET(pm, CAP_PMASK_CAP_BANK0_ALLONES))
        return fail(c, NULL,
                    "cap_pmask_cap: BANK0_ALLONES must be 1 when PMASK_PRESENT=1 "
                    "(CAP 4.2.1.1 #2)");
    if (!GET(pm, CAP_PMASK_CAP_PMASK_PRESENT) && (pm & ~CAP_PMASK_CAP_PMASK_PRESENT_MASK))
        return fail(c, NULL,
                    "cap_pmask_cap: PMASK_BANKS_M1 and BANK0_ALLONES must be 0 "
                    "when PMASK_PRESENT=0");
    if (GET(alu, CAP_PREC_ALU_HAS_BF16_LITE) || GET(fp8, CAP_PREC_FP8_BF16_LITE) ||
        ((GET(pcap, CAP_PREC_CAP_ALT_SUP) >> 1) & 1))
        return fail(c, NULL,
                    "BF16_LITE cannot be supported: the numeric engine has no such "
                    "format (errata Q-17)");
    unsigned pet = GET(pcap, CAP_PREC_CAP_PET_SUP), ew = GET(pcap, CAP_PREC_CAP_EW_SUP);
    unsigned accw = GET(pcap, CAP_PREC_CAP_ACCW_SUP), alt = GET(pcap, CAP_PREC_CAP_ALT_SUP);
    if (pet & ~0x3fu) return fail(c, NULL, "cap_prec_cap.PET_SUP: codes 6 and 7 are reserved");
    if (ew & 8u) return fail(c, NULL, "cap_prec_cap.EW_SUP: EW=64 has no element format");
    if (alt & ~0x3cu)
        return fail(c, NULL, "cap_prec_cap.ALT_SUP: only ALT_FMT codes 2-5 can be supported");
    if (!(pet & 1) || !(ew & 2) || !(accw & 1))
        return fail(c, NULL,
                    "cap_prec_cap must support the reset state PET=FP16, EW=16, "
                    "ACCW=FP32 (CAP 4.4.2.4)");
    return true;
}

cap_profile *cap_profile_parse(const char *text, size_t len, const char *origin, char *err,
                               size_t errlen)
{
    ctx c = {NULL, origin ? origin : "<profile>", err, errlen};
    if (errlen) err[0] = 0;
    yaml_parser_t parser;
    yaml_document_t doc;
    if (!yaml_parser_initialize(&parser)) {
        fail(&c, NULL, "out of memory");
        return NULL;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &doc)) {
        snprintf(err, errlen, "%s:%lu: YAML error: %s", c.origin,
                 (unsigned long)parser.problem_mark.line + 1,
                 parser.problem ? parser.problem : "malformed input");
        yaml_parser_delete(&parser);
        return NULL;
    }
    /* A second document would be silently ignored: refuse it. */
    yaml_document_t more;
    if (!yaml_parser_load(&parser, &more) || yaml_document_get_root_node(&more)) {
        snprintf(err, errlen, "%s:%lu: %s", c.origin, (unsigned long)parser.mark.line + 1,
                 parser.problem ? parser.problem : "only one YAML document is allowed");
        if (!parser.problem) yaml_document_delete(&more);
        yaml_document_delete(&doc);
        yaml_parser_delete(&parser);
        return NULL;
    }
    yaml_document_delete(&more);
    yaml_parser_delete(&parser);
    c.doc = &doc;
    cap_profile *p = calloc(1, sizeof *p);
    bool ok = p != NULL, have_ver = false, have_name = false;
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!p)
        fail(&c, NULL, "out of memory");
    else if (!root || root->type != YAML_MAPPING_NODE)
        ok = fail(&c, root, "a profile is a mapping with 'xphmg-profile', 'name' and 'csrs'");
    for (yaml_node_pair_t *q = ok ? root->data.mapping.pairs.start : NULL;
         ok && q < root->data.mapping.pairs.top; q++) {
        yaml_node_t *k = yaml_document_get_node(&doc, q->key);
        yaml_node_t *v = yaml_document_get_node(&doc, q->value);
        const char *key = scalar(k);
        if (!key) {
            ok = fail(&c, k, "keys must be plain names");
        } else if (!strcmp(key, "xphmg-profile")) {
            uint64_t ver;
            if (have_ver || !parse_u64(scalar(v), &ver) || ver != 1)
                ok = fail(&c, v, "'xphmg-profile' must be given once and be 1");
            have_ver = true;
        } else if (!strcmp(key, "name")) {
            const char *s = scalar(v);
            if (have_name || !s || !*s || strlen(s) >= sizeof p->name)
                ok = fail(&c, v, "'name' must be given once, 1-63 characters");
            else
                strcpy(p->name, s);
            have_name = true;
        } else if (!strcmp(key, "description")) {
            if (!scalar(v)) ok = fail(&c, v, "'description' must be text");
        } else if (!strcmp(key, "csrs")) {
            if (v->type != YAML_MAPPING_NODE) {
                ok = fail(&c, v, "'csrs' must be a mapping of CSR names");
                break;
            }
            for (yaml_node_pair_t *r = v->data.mapping.pairs.start;
                 ok && r < v->data.mapping.pairs.top; r++)
                ok = set_csr(&c, p, yaml_document_get_node(&doc, r->key),
                             yaml_document_get_node(&doc, r->value));
        } else {
            ok = fail(&c, k,
                      "unknown key '%s' (expected xphmg-profile, name, description, "
                      "csrs)",
                      key);
        }
    }
    if (ok && (!have_ver || !have_name))
        ok = fail(&c, root, "'xphmg-profile: 1' and 'name' are required");
    if (ok) ok = check(&c, p);
    yaml_document_delete(&doc);
    if (!ok) {
        free(p);
        return NULL;
    }
    return p;
}

cap_profile *cap_profile_load(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    char *buf = malloc(PROFILE_MAX_BYTES + 1);
    size_t n = buf ? fread(buf, 1, PROFILE_MAX_BYTES + 1, f) : 0;
    bool bad = !buf || ferror(f) || n > PROFILE_MAX_BYTES;
    fclose(f);
    if (bad) {
        snprintf(err, errlen, "%s: %s", path,
                 !buf                    ? "out of memory"
                 : n > PROFILE_MAX_BYTES ? "larger than 1 MiB"
                                         : "read error");
        free(buf);
        return NULL;
    }
    cap_profile *p = cap_profile_parse(buf, n, path, err, errlen);
    free(buf);
    return p;
}
