/* cap_profile.c — YAML implementation profiles (libyaml document API, after a linear
 * pre-pass over the event stream that bounds nesting and refuses aliases: libyaml's
 * scanner and loader are quadratic in the nesting depth, errata P-306). */
#include "cap_profile.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "read_file.h"
#include "xcsr.h"
#include "xphmg_csr.h"

#define PROFILE_MAX_BYTES (1u << 20) /* a profile is a few lines; refuse anything huge */
#define PROFILE_MAX_DEPTH 8u         /* deepest legal profile: 4 (runtime-profiles fields) */
#define GET(v, F)         ((unsigned)(((v)&F##_MASK) >> F##_SHIFT))

typedef struct {
    unsigned n;
    struct {
        uint32_t addr;
        uint64_t val;
    } e[64];
} csr_set;

struct cap_profile {
    char name[64];
    csr_set base;                 /* `csrs`: values over the XML reset values */
    uint32_t var_mask;            /* bit i: `runtime-profiles` names index i */
    csr_set var[CAP_PROFILE_MAX]; /* advisory values of runtime profile i over `base` */
};

/* Read-only descriptors only: policy state, STAT and the reserved CSR are not
 * implementation facts (CAP 5.2.7), rtcap is RT's discovery CSR. */
/* REQ: CAP-009 CAP-163 */
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

/* Advisory CSRs: what a runtime profile may vary (CAP 4.3.2: tiers, hints, FEAT). */
/* REQ: CAP-009 CAP-067 */
bool cap_profile_is_advisory(uint32_t addr)
{
    switch (addr) {
    case XPHMG_CSR_CAP_FEAT0:
    case XPHMG_CSR_CAP_FEAT1:
    case XPHMG_CSR_CAP_TIER_REG:
    case XPHMG_CSR_CAP_TIER_WAVE:
    case XPHMG_CSR_CAP_TIER_LDS:
    case XPHMG_CSR_CAP_TIER_SAMP:
    case XPHMG_CSR_CAP_TIER_RT:
    case XPHMG_CSR_CAP_HINT_ALIGN:
    case XPHMG_CSR_CAP_HINT_BVHGR:
    case XPHMG_CSR_CAP_HINT_LDSBK:
        return true;
    default:
        return false;
    }
}

/* REQ: CAP-065 CAP-163 */
static bool set_lookup(const csr_set *s, uint32_t addr, uint64_t *val)
{
    for (unsigned i = 0; i < s->n; i++)
        if (s->e[i].addr == addr) {
            *val = s->e[i].val;
            return true;
        }
    return false;
}

/* REQ: CAP-065 CAP-163 */
static bool base_value(const cap_profile *p, uint32_t addr, uint64_t *val)
{
    if (!p || !cap_profile_is_discovery(addr)) return false;
    if (!set_lookup(&p->base, addr, val)) *val = xcsr_find(addr)->reset;
    return true;
}

/* REQ: CAP-065 CAP-067 */
bool cap_profile_value_at(const cap_profile *p, unsigned idx, uint32_t addr, uint64_t *val)
{
    if (!base_value(p, addr, val)) return false;
    if (idx < CAP_PROFILE_MAX && ((p->var_mask >> idx) & 1)) set_lookup(&p->var[idx], addr, val);
    return true;
}

/* REQ: CAP-065 CAP-069 */
unsigned cap_profile_reset_index(const cap_profile *p)
{
    uint64_t flags = 0, cur = 0;
    if (!base_value(p, XPHMG_CSR_CAP_FLAGS, &flags) || !GET(flags, CAP_FLAGS_HAS_PROFILES))
        return 0;
    base_value(p, XPHMG_CSR_CAP_PROF_CUR, &cur);
    return (unsigned)cur;
}

/* REQ: CAP-163 */
bool cap_profile_value(const cap_profile *p, uint32_t addr, uint64_t *val)
{
    return cap_profile_value_at(p, cap_profile_reset_index(p), addr, val);
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

/* FILE:LINE: message; whole-profile rules (no node) have no line: FILE: message. */
static bool fail(ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
    int k = n ? snprintf(c->err, c->errlen, "%s:%lu: ", c->origin,
                         (unsigned long)n->start_mark.line + 1)
              : snprintf(c->err, c->errlen, "%s: ", c->origin);
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
/* REQ: CAP-163 */
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

/* One `CSR: value` of `csrs` (into p->base, variant < 0) or of runtime profile variant
 * (advisory CSRs only; unnamed fields keep the base value). */
/* REQ: CAP-009 CAP-066 CAP-074 CAP-163 */
static bool set_csr(ctx *c, cap_profile *p, int variant, const yaml_node_t *key,
                    const yaml_node_t *val)
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
    if (variant >= 0 && !cap_profile_is_advisory(r->addr))
        return fail(c, key,
                    "'%s' is not advisory: a runtime profile may only vary cap_feat*, "
                    "cap_tier_* and cap_hint_* (CAP 4.3.2)",
                    name);
    csr_set *set = variant >= 0 ? &p->var[variant] : &p->base;
    uint64_t v;
    if (set_lookup(set, r->addr, &v)) return fail(c, key, "'%s' given twice", name);
    if (set->n >= sizeof set->e / sizeof set->e[0]) return fail(c, key, "too many CSRs");
    base_value(p, r->addr, &v);
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
    set->e[set->n].addr = r->addr;
    set->e[set->n].val = v;
    set->n++;
    return true;
}

/* `runtime-profiles: {INDEX: {CSR: value, ...}, ...}` (errata P-177); parsed after
 * `csrs` so that variants start from the base values. */
/* REQ: CAP-065 CAP-067 CAP-074 */
static bool set_variants(ctx *c, cap_profile *p, const yaml_node_t *v)
{
    if (v->type != YAML_MAPPING_NODE)
        return fail(c, v, "'runtime-profiles' must map profile indices to CSR mappings");
    uint64_t flags = 0, sup = 0;
    base_value(p, XPHMG_CSR_CAP_FLAGS, &flags);
    base_value(p, XPHMG_CSR_CAP_PROF_SUP, &sup);
    if (!GET(flags, CAP_FLAGS_HAS_PROFILES))
        return fail(c, v, "'runtime-profiles' needs cap_flags.HAS_PROFILES=1 (CAP 4.3.1)");
    for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
        yaml_node_t *k = yaml_document_get_node(c->doc, q->key);
        yaml_node_t *m = yaml_document_get_node(c->doc, q->value);
        uint64_t idx;
        if (!parse_u64(scalar(k), &idx) || idx >= CAP_PROFILE_MAX)
            return fail(c, k, "runtime profile index must be a number 0-%d", CAP_PROFILE_MAX - 1);
        if (!((sup >> idx) & 1))
            return fail(c, k, "runtime profile %llu is not in cap_prof_sup (CAP 4.3.4)",
                        (unsigned long long)idx);
        if ((p->var_mask >> idx) & 1)
            return fail(c, k, "runtime profile %llu given twice", (unsigned long long)idx);
        p->var_mask |= UINT32_C(1) << idx;
        if (m->type != YAML_MAPPING_NODE)
            return fail(c, m, "runtime profile %llu must be a mapping of CSR names",
                        (unsigned long long)idx);
        if (m->data.mapping.pairs.top > m->data.mapping.pairs.start &&
            !GET(flags, CAP_FLAGS_RUNTIME_MUTABLE))
            return fail(c, m,
                        "runtime profile %llu changes advisory CSRs, which needs "
                        "cap_flags.RUNTIME_MUTABLE=1 (CAP 4.3.2)",
                        (unsigned long long)idx);
        for (yaml_node_pair_t *r = m->data.mapping.pairs.start; r < m->data.mapping.pairs.top; r++)
            if (!set_csr(c, p, (int)idx, yaml_document_get_node(c->doc, r->key),
                         yaml_document_get_node(c->doc, r->value)))
                return false;
    }
    return true;
}

/* RT's dependencies (RT 3, errata, P-325): a profile that advertises any RTCAP
 * bit has the CAP version RT 0.1.1 was published with (CAP.VERS >= 0.1.1) and PMASK, whose
 * banks RT's predicate fields name (RT 2, 8.2). XMEM is always attached here and its LDS
 * is optional for RT (RT-004). A profile without them must say `rtcap: 0`, so that RT is
 * unsupported and its instructions trap (RT-002). */
/* REQ: RT-001 RT-002 */
static bool check_rt_dependencies(ctx *c, const cap_profile *p)
{
    uint64_t rtcap = 0, vers = 0, pm = 0;
    base_value(p, XPHMG_CSR_RTCAP, &rtcap);
    if (!rtcap) return true;
    base_value(p, XPHMG_CSR_CAP_VERS, &vers);
    base_value(p, XPHMG_CSR_CAP_PMASK_CAP, &pm);
    const char *missing = (vers & 0xFFFFFF00u) < 0x00010100u      ? "CAP.VERS >= 0.1.1"
                          : !GET(pm, CAP_PMASK_CAP_PMASK_PRESENT) ? "PMASK (PMASK_PRESENT=1)"
                                                                  : NULL;
    if (missing)
        return fail(c, NULL, "rtcap is not 0 but XPHMG_RT requires %s (RT 3); set rtcap: 0",
                    missing);
    return true;
}

/* Cross-CSR rules: what the unit and the numeric engine can honour (docs/cap.md). */
/* REQ: CAP-016 CAP-049 CAP-054 CAP-061 CAP-066 CAP-074 */
static bool check(ctx *c, const cap_profile *p)
{
    uint64_t flags = 0, cur = 0, sup = 0, pm = 0, pcap = 0;
    base_value(p, XPHMG_CSR_CAP_FLAGS, &flags);
    base_value(p, XPHMG_CSR_CAP_PROF_CUR, &cur);
    base_value(p, XPHMG_CSR_CAP_PROF_SUP, &sup);
    base_value(p, XPHMG_CSR_CAP_PMASK_CAP, &pm);
    base_value(p, XPHMG_CSR_CAP_PREC_CAP, &pcap);
    /* Every selectable profile exposes at least the tiers T0-T3 (CAP 2.2.1). */
    for (unsigned i = 0; i < CAP_PROFILE_MAX; i++) {
        uint64_t lds = 0;
        if (i > 0 && !((sup >> i) & 1)) continue;
        cap_profile_value_at(p, i, XPHMG_CSR_CAP_TIER_LDS, &lds);
        if (GET(lds, CAP_TIER_LDS_TIER_COUNT_M1) < 3) {
            if (i == 0)
                return fail(c, NULL,
                            "cap_tier_lds.TIER_COUNT_M1 must be 3: implementations expose "
                            "the tiers T0-T3 (CAP 2.2.1)");
            return fail(c, NULL,
                        "runtime profile %u: cap_tier_lds.TIER_COUNT_M1 must be 3 (CAP 2.2.1)", i);
        }
    }
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
    if (GET(pm, CAP_PMASK_CAP_PMASK_BANKS_M1) > 3)
        return fail(c, NULL,
                    "cap_pmask_cap: PMASK_BANKS_M1 must be 0-3: a 2-bit pbank selects banks "
                    "0..3 (XPHMG_PMASK 3.3.1, errata Q-36)");
    unsigned pet = GET(pcap, CAP_PREC_CAP_PET_SUP), ew = GET(pcap, CAP_PREC_CAP_EW_SUP);
    unsigned accw = GET(pcap, CAP_PREC_CAP_ACCW_SUP), alt = GET(pcap, CAP_PREC_CAP_ALT_SUP);
    if (pet & ~0x3fu) return fail(c, NULL, "cap_prec_cap.PET_SUP: codes 6 and 7 are reserved");
    if (ew & 8u) return fail(c, NULL, "cap_prec_cap.EW_SUP: EW=64 has no element format");
    if (alt & ~0x3eu)
        return fail(c, NULL, "cap_prec_cap.ALT_SUP: only ALT_FMT codes 1-5 exist (0 is 'none')");
    if (!(pet & 1) || !(ew & 2) || !(accw & 1))
        return fail(c, NULL,
                    "cap_prec_cap must support the reset state PET=FP16, EW=16, "
                    "ACCW=FP32 (CAP 4.4.2.4)");
    return check_rt_dependencies(c, p);
}

/* The pre-pass: events only, stopped at the first collection deeper than
 * PROFILE_MAX_DEPTH or the first alias, so its cost is linear in the input whatever the
 * input is. YAML errors are left to the loader, which reports them the same way. */
static bool shape_ok(ctx *c, const char *text, size_t len)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) return fail(c, NULL, "out of memory");
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    unsigned depth = 0;
    bool ok = true;
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) break;
        yaml_event_type_t t = ev.type;
        unsigned long line = (unsigned long)ev.start_mark.line + 1;
        yaml_event_delete(&ev);
        if (t == YAML_STREAM_END_EVENT) break;
        if (t == YAML_SEQUENCE_START_EVENT || t == YAML_MAPPING_START_EVENT) {
            if (++depth > PROFILE_MAX_DEPTH) {
                snprintf(c->err, c->errlen, "%s:%lu: nested deeper than %u levels", c->origin, line,
                         PROFILE_MAX_DEPTH);
                ok = false;
                break;
            }
        } else if (t == YAML_SEQUENCE_END_EVENT || t == YAML_MAPPING_END_EVENT) {
            depth--;
        } else if (t == YAML_ALIAS_EVENT) {
            snprintf(c->err, c->errlen, "%s:%lu: aliases are not allowed in a profile", c->origin,
                     line);
            ok = false;
            break;
        }
    }
    yaml_parser_delete(&parser);
    return ok;
}

/* REQ: CAP-163 CAP-065 */
cap_profile *cap_profile_parse(const char *text, size_t len, const char *origin, char *err,
                               size_t errlen)
{
    ctx c = {NULL, origin ? origin : "<profile>", err, errlen};
    if (errlen) err[0] = 0;
    if (!shape_ok(&c, text, len)) return NULL;
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
    bool ok = p != NULL, have_ver = false, have_name = false, have_desc = false, have_csrs = false;
    yaml_node_t *variants = NULL;
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
            if (have_desc)
                ok = fail(&c, k, "'description' given twice");
            else if (!scalar(v))
                ok = fail(&c, v, "'description' must be text");
            have_desc = true;
        } else if (!strcmp(key, "runtime-profiles")) {
            if (variants) ok = fail(&c, k, "'runtime-profiles' given twice");
            variants = v;
        } else if (!strcmp(key, "csrs")) {
            if (have_csrs) {
                ok = fail(&c, k, "'csrs' given twice");
                break;
            }
            have_csrs = true;
            if (v->type != YAML_MAPPING_NODE) {
                ok = fail(&c, v, "'csrs' must be a mapping of CSR names");
                break;
            }
            for (yaml_node_pair_t *r = v->data.mapping.pairs.start;
                 ok && r < v->data.mapping.pairs.top; r++)
                ok = set_csr(&c, p, -1, yaml_document_get_node(&doc, r->key),
                             yaml_document_get_node(&doc, r->value));
        } else {
            ok = fail(&c, k,
                      "unknown key '%s' (expected xphmg-profile, name, description, "
                      "csrs, runtime-profiles)",
                      key);
        }
    }
    if (ok && (!have_ver || !have_name))
        ok = fail(&c, root, "'xphmg-profile: 1' and 'name' are required");
    if (ok && variants) ok = set_variants(&c, p, variants);
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
    char *buf;
    size_t n;
    read_file_status rd = read_file_bounded(path, PROFILE_MAX_BYTES, &buf, &n);
    if (rd == READ_FILE_OPEN) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (rd != READ_FILE_OK) {
        snprintf(err, errlen, "%s: %s", path,
                 rd == READ_FILE_NOMEM     ? "out of memory"
                 : rd == READ_FILE_TOO_BIG ? "larger than 1 MiB"
                                           : "read error");
        return NULL;
    }
    cap_profile *p = cap_profile_parse(buf, n, path, err, errlen);
    free(buf);
    return p;
}
