/* isa_decode.c — fields, encoding selection and operand values.
 *
 * Speed matters here (the disassembler is benchmarked against GNU objdump), so the
 * hot path does no allocation and no string work: at load time every encoding is
 * placed into buckets keyed by up to 11 bits of the low 16 bits of the word (the bits
 * most encodings' masks test); a bucket is a contiguous array of (mask, identifier)
 * pairs in Order. Each encoding maps its OP field value to an instruction through a
 * sorted table. Decoding is then: two table lookups for the bucket, a short scan of
 * the bucket, a binary search on the opcode.
 */
#include <stdlib.h>
#include <string.h>

#include "isa_impl.h"

static inline uint64_t lowmask(unsigned bits)
{
    return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

uint64_t isa_field_extract(const isa_field *f, uint64_t word)
{
    uint64_t v = 0;
    unsigned sh = 0;
    for (unsigned i = 0; i < f->range_count; i++) {
        const isa_range *r = &f->ranges[i];
        if (r->pad_count) {
            v |= r->pad_value << sh;
            sh += r->pad_count;
        }
        if (sh >= 64) break;
        v |= ((word >> r->bit_offset) & lowmask(r->bit_count)) << sh;
        sh += r->bit_count;
        if (sh >= 64) break;
    }
    return v;
}

isa_status isa_field_insert(const isa_field *f, uint64_t value, uint64_t *word)
{
    if (!f || !word) return ISA_ERR_ARG;
    if (f->width < 64 && (value >> f->width)) return ISA_ERR_RANGE;
    uint64_t w = *word;
    unsigned sh = 0;
    for (unsigned i = 0; i < f->range_count; i++) {
        const isa_range *r = &f->ranges[i];
        if (r->pad_count) {
            if (((value >> sh) & lowmask(r->pad_count)) != r->pad_value) return ISA_ERR_RANGE;
            sh += r->pad_count;
        }
        uint64_t m = lowmask(r->bit_count);
        uint64_t bits = sh < 64 ? (value >> sh) & m : 0;
        w = (w & ~(m << r->bit_offset)) | (bits << r->bit_offset);
        sh += r->bit_count;
    }
    *word = w;
    return ISA_OK;
}

int64_t isa_operand_extend(const isa_operand *op, uint64_t raw)
{
    /* only immediates (types without predefined values) are sign-extended; a
     * register's data format describes its content, not the field */
    if (op->field && op->format && op->format->is_signed && op->type->predef_count == 0) {
        unsigned w = op->field->width;
        if (w > 0 && w < 64 && ((raw >> (w - 1)) & 1)) raw |= ~lowmask(w);
    }
    return (int64_t)raw;
}

const isa_predef *isa_type_lookup(const isa_operand_type *t, uint64_t v)
{
    const isa_type_impl *ti = (const isa_type_impl *)t;
    if (ti->direct_n) {
        if (v >= ti->direct_n) return NULL;
        unsigned k = ti->direct[v];
        return k ? &t->predefs[k - 1] : NULL;
    }
    for (unsigned i = 0; i < t->predef_count; i++)
        if (t->predefs[i].value == v) return &t->predefs[i];
    return NULL;
}

const isa_predef *isa_predef_by_value(const isa_operand_type *t, uint64_t value)
{
    return t ? isa_type_lookup(t, value) : NULL;
}

const isa_predef *isa_type_find_name(const isa_operand_type *t, const char *name, size_t len)
{
    for (unsigned i = 0; i < t->predef_count; i++)
        if (strlen(t->predefs[i].name) == len && !memcmp(t->predefs[i].name, name, len))
            return &t->predefs[i];
    return NULL;
}

/* ---- building the buckets --------------------------------------------- */

/* Bits of x at positions pos[0..k), packed into bits 0..k-1. */
static uint32_t gather(uint64_t x, const unsigned *pos, unsigned k)
{
    uint32_t r = 0;
    for (unsigned j = 0; j < k; j++)
        r |= (uint32_t)((x >> pos[j]) & 1) << j;
    return r;
}

/* Calls out() for every bucket an identifier of encoding e belongs to: the key bits its
 * mask tests must equal the identifier's, the others are free (enumerated as subsets).
 * Two identifiers reaching one bucket give two entries; either may match. */
static void for_buckets(const isa_enc_impl *e, const unsigned *pos, unsigned k,
                        void (*out)(void *, uint32_t, unsigned, unsigned), void *ctx, unsigned idx)
{
    uint32_t all = (1u << k) - 1, km = gather(e->pub.mask, pos, k);
    uint32_t fr = all & ~km;
    for (unsigned i = 0; i < e->pub.identifier_count; i++) {
        uint32_t kv = gather(e->ids_masked[i], pos, k);
        bool dup = false; /* an identical identifier listed twice adds nothing */
        for (unsigned j = 0; j < i && !dup; j++)
            dup = e->ids_masked[j] == e->ids_masked[i];
        if (dup) continue;
        uint32_t sub = 0;
        do {
            out(ctx, kv | sub, idx, i);
            sub = (sub - fr) & fr;
        } while (sub);
    }
}

typedef struct {
    const isa_spec *s;
    uint32_t *cnt;
    isa_bucket_ent *ent;
} bucket_fill;

static void count_cb(void *ctx, uint32_t b, unsigned idx, unsigned id)
{
    (void)idx;
    (void)id;
    ((bucket_fill *)ctx)->cnt[b]++;
}

static void fill_cb(void *ctx, uint32_t b, unsigned idx, unsigned id)
{
    bucket_fill *f = ctx;
    const isa_enc_impl *e = &f->s->encs[idx];
    f->ent[f->cnt[b]++] =
        (isa_bucket_ent){e->pub.mask, e->ids_masked[id], (uint16_t)idx, (uint8_t)e->pub.bit_count};
}

bool isa_build_decoder(isa_spec *s)
{
    s->min_bits = 64;
    s->max_bits = 0;
    for (unsigned i = 0; i < s->nenc; i++) {
        unsigned b = s->encs[i].pub.bit_count;
        if (b < s->min_bits) s->min_bits = b;
        if (b > s->max_bits) s->max_bits = b;
    }
    unsigned span = s->min_bits < 16 ? s->min_bits : 16;
    /* Rank the candidate bits by how many masks test them. */
    unsigned cnt[16] = {0}, pos[16];
    for (unsigned i = 0; i < s->nenc; i++)
        for (unsigned b = 0; b < span; b++)
            if ((s->encs[i].pub.mask >> b) & 1) cnt[b]++;
    unsigned k = 0;
    bool used[16] = {false};
    /* Keep the table small: 2^k buckets times the encodings must stay modest. */
    unsigned maxk = 11;
    while (maxk > 0 && ((uint64_t)s->nenc << maxk) > (UINT64_C(1) << 22))
        maxk--;
    while (k < maxk) {
        int best = -1;
        for (unsigned b = 0; b < span; b++)
            if (!used[b] && cnt[b] && (best < 0 || cnt[b] > cnt[best])) best = (int)b;
        if (best < 0) break;
        used[best] = true;
        pos[k++] = (unsigned)best;
    }
    memset(s->key_lo, 0, sizeof s->key_lo);
    memset(s->key_hi, 0, sizeof s->key_hi);
    for (unsigned v = 0; v < 256; v++)
        for (unsigned j = 0; j < k; j++) {
            if (pos[j] < 8 && ((v >> pos[j]) & 1)) s->key_lo[v] |= 1u << j;
            if (pos[j] >= 8 && ((v >> (pos[j] - 8)) & 1)) s->key_hi[v] |= 1u << j;
        }
    uint32_t nb = 1u << k;
    s->bucket_off = isa_arena_alloc(&s->arena, sizeof(uint32_t) * (nb + 1));
    uint32_t *cur = isa_arena_alloc(&s->arena, sizeof(uint32_t) * (nb + 1));
    if (!s->bucket_off || !cur) return false;
    bucket_fill f = {s, cur, NULL};
    for (unsigned i = 0; i < s->nenc; i++)
        for_buckets(&s->encs[i], pos, k, count_cb, &f, i);
    uint32_t total = 0;
    for (uint32_t b = 0; b < nb; b++) {
        s->bucket_off[b] = total;
        total += cur[b];
        cur[b] = s->bucket_off[b];
    }
    s->bucket_off[nb] = total;
    s->bucket_ent = isa_arena_alloc(&s->arena, sizeof(isa_bucket_ent) * (total ? total : 1));
    if (!s->bucket_ent) return false;
    f.ent = s->bucket_ent;
    /* encodings in ascending Order, so every bucket lists them in Order */
    for (unsigned i = 0; i < s->nenc; i++)
        for_buckets(&s->encs[i], pos, k, fill_cb, &f, i);
    return true;
}

/* ---- decoding -------------------------------------------------------------- */

static bool constraints_ok(const isa_insn_encoding *ie, uint64_t w)
{
    for (unsigned i = 0; i < ie->constraint_count; i++) {
        const isa_constraint *c = &ie->constraints[i];
        /* c->field points at the encoding's own field name string (set by the loader), so
         * a pointer compare finds the field without string work. */
        const isa_encoding *e = ie->encoding;
        for (unsigned f = 0; f < e->field_count; f++)
            if (e->fields[f].name == c->field) {
                if (isa_field_extract(&e->fields[f], w) == c->not_value) return false;
                break;
            }
    }
    return true;
}

static void fill(const isa_instruction *I, const isa_insn_encoding *ie, uint64_t w,
                 uint64_t address, isa_decoded *out)
{
    out->insn = I;
    out->ienc = ie;
    out->word = w;
    out->length = ie->encoding->bit_count / 8;
    out->address = address;
    out->operand_count = ie->operand_count;
    out->has_target = false;
    out->target = 0;
    for (unsigned i = 0; i < ie->operand_count; i++) {
        const isa_operand *op = &ie->operands[i];
        isa_operand_value *v = &out->operands[i];
        v->operand = op;
        if (op->field)
            v->raw = isa_field_extract(op->field, w);
        else
            v->raw = op->type->predef_count ? op->type->predefs[0].value : 0; /* */
        v->value = isa_operand_extend(op, v->raw);
        const isa_predef *p = op->type->predef_count ? isa_type_lookup(op->type, v->raw) : NULL;
        v->name = p ? p->name : NULL;
        if (op->type->display == ISA_DISP_PCREL && !out->has_target && !I->is_indirect_branch) {
            out->has_target = true; /* */
            out->target = address + (uint64_t)v->value;
        }
    }
}

/* Opcode lookup and constraints for a matched encoding; true when an instruction fits. */
static bool match_insn(const isa_enc_impl *e, uint64_t wn, uint64_t address, isa_decoded *out)
{
    uint64_t opc =
        e->pub.op_field >= 0 ? isa_field_extract(&e->pub.fields[e->pub.op_field], wn) : 0;
    unsigned lo = 0, hi = e->nmap;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (e->map[mid].opcode < opc)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < e->nmap && e->map[lo].opcode == opc; lo++)
        if (constraints_ok(e->map[lo].ienc, wn)) {
            fill(e->map[lo].insn, e->map[lo].ienc, wn, address, out);
            return true;
        }
    return false; /* a rejected match continues with the next encoding in Order */
}

/* Tries encodings for word w of which avail bits are valid. */
static isa_status decode_bits(const isa_spec *s, uint64_t w, unsigned avail, uint64_t address,
                              isa_decoded *out)
{
    unsigned span = s->min_bits < 16 ? s->min_bits : 16;
    uint64_t am = lowmask(avail);
    bool partial = false;
    if (avail >= span) {
        uint32_t key = s->key_lo[w & 0xff] | s->key_hi[(w >> 8) & 0xff];
        const isa_bucket_ent *b = s->bucket_ent + s->bucket_off[key];
        const isa_bucket_ent *end = s->bucket_ent + s->bucket_off[key + 1];
        for (; b < end; b++) {
            if (b->bits > avail) {
                partial |= ((w ^ b->id) & b->mask & am) == 0;
                continue;
            }
            uint64_t wn = w & lowmask(b->bits);
            if ((wn & b->mask) == b->id && match_insn(&s->encs[b->enc], wn, address, out))
                return ISA_OK;
        }
    } else { /* too few bits for the key: scan everything (rare) */
        for (unsigned i = 0; i < s->nenc; i++) {
            const isa_enc_impl *e = &s->encs[i];
            for (unsigned j = 0; j < e->pub.identifier_count; j++) {
                if (e->pub.bit_count > avail) {
                    partial |= ((w ^ e->ids_masked[j]) & e->pub.mask & am) == 0;
                    continue;
                }
                uint64_t wn = w & lowmask(e->pub.bit_count);
                if ((wn & e->pub.mask) == e->ids_masked[j] && match_insn(e, wn, address, out))
                    return ISA_OK;
            }
        }
    }
    out->insn = NULL;
    out->ienc = NULL;
    out->length = 0;
    out->operand_count = 0;
    out->has_target = false;
    out->word = w;
    out->address = address;
    return partial ? ISA_ERR_TRUNCATED : ISA_ERR_UNKNOWN;
}

isa_status isa_decode(const isa_spec *spec, const uint8_t *buf, size_t len, uint64_t address,
                      isa_decoded *out)
{
    if (!spec || !out || (!buf && len)) return ISA_ERR_ARG;
    if (len == 0) return decode_bits(spec, 0, 0, address, out);
    unsigned n = len < 8 ? (unsigned)len : 8;
    uint64_t w = 0;
    for (unsigned i = 0; i < n; i++)
        w |= (uint64_t)buf[i] << (8 * i); /* little-endian parcels */
    return decode_bits(spec, w, n * 8, address, out);
}

isa_status isa_decode_word(const isa_spec *spec, uint64_t word, unsigned bits, uint64_t address,
                           isa_decoded *out)
{
    if (!spec || !out || bits > 64) return ISA_ERR_ARG;
    if (bits == 0) bits = 64;
    return decode_bits(spec, word & lowmask(bits), bits, address, out);
}
