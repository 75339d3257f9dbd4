/* gen_decoder_agrees — the generated simulator decoder (xdec_decode) against the
 * ISA library's decoder (isa_decode), over every encoding of the spec with random
 * free bits, and over fully random 16- and 32-bit words: same instruction, same
 * length, same slot values.
 *
 * The expected slots are computed from the library's decoded operands by the
 * field-name rules of src/sim/xdec.h, written here again, independently of the
 * generator (tools/gen/gen_dec.c).
 *
 * Built twice: against the project's spec (gen_decoder_agrees) and, with
 * GEN_GENERIC, against the non-RISC-V toy ISA of tests/isa/fixtures
 * (gen_decoder_agrees_toy), which shows the generator holds no RISC-V opcode
 * knowledge. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "xdec.h"
#include "xphmg/isa.h"

#ifndef GEN_SPECS
#error "GEN_SPECS (':'-separated spec paths) must be defined"
#endif

#define MAXS 8
static isa_spec *specs[MAXS];
static unsigned nspecs;

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd32(void)
{
    /* xorshift64*: fixed seed, so a failure reproduces */
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)((rng * 0x2545F4914F6CDD1Dull) >> 32);
}

static int setup(void **state)
{
    (void)state;
    char *list = strdup(GEN_SPECS);
    char *p = list, *tok;
    while ((tok = strsep(&p, ":")) && nspecs < MAXS) {
        if (!*tok) continue;
        char err[512];
        specs[nspecs] = isa_load(tok, err, sizeof err);
        if (!specs[nspecs]) {
            fprintf(stderr, "cannot load %s: %s\n", tok, err);
            free(list);
            return -1;
        }
        nspecs++;
    }
    free(list);
    return nspecs ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    for (unsigned i = 0; i < nspecs; i++)
        isa_free(specs[i]);
    return 0;
}

/* The reference: the specs in order, each decoding the 4 little-endian bytes. */
static const isa_instruction *ref_decode(uint32_t w, isa_decoded *d)
{
    uint8_t b[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)};
    for (unsigned i = 0; i < nspecs; i++)
        if (isa_decode(specs[i], b, 4, 0, d) == ISA_OK) return d->insn;
    return NULL;
}

/* xdec.h's slot rules, from the library's operand list. */
static void expected_slots(const isa_decoded *d, xdec *x)
{
    memset(x, 0, sizeof *x);
    bool have_rd = false, have_rs1 = false, have_rs2 = false, have_imm = false;
    for (unsigned i = 0; i < d->operand_count; i++) {
        const isa_operand_value *v = &d->operands[i];
        const isa_field *f = v->operand->field;
        if (!f) continue;
        const char *n = f->name;
        uint8_t r = (uint8_t)v->raw;
        if (!strcasecmp(n, "RD") || !strcasecmp(n, "RDP")) {
            x->rd = (uint8_t)(r + (strcasecmp(n, "RDP") ? 0 : 8));
            have_rd = true;
        } else if (!strcasecmp(n, "RS1") || !strcasecmp(n, "RS1P")) {
            x->rs1 = (uint8_t)(r + (strcasecmp(n, "RS1P") ? 0 : 8));
            have_rs1 = true;
        } else if (!strcasecmp(n, "RS2") || !strcasecmp(n, "RS2P")) {
            x->rs2 = (uint8_t)(r + (strcasecmp(n, "RS2P") ? 0 : 8));
            have_rs2 = true;
        } else if (!strcasecmp(n, "RS3")) {
            x->rs3 = r;
        } else if (!strcasecmp(n, "RD_RS1") || !strcasecmp(n, "RD_RS1P")) {
            x->rd = x->rs1 = (uint8_t)(r + (strcasecmp(n, "RD_RS1P") ? 0 : 8));
            have_rd = have_rs1 = true;
        } else if (!strcasecmp(n, "RM")) {
            x->rm = r;
        } else if (!strcasecmp(n, "CSR")) {
            x->csr = (uint16_t)v->raw;
        } else if (!strcasecmp(n, "PRED") || !strcasecmp(n, "SUCC") || !strcasecmp(n, "FM")) {
        } else if (!have_imm) {
            x->imm = v->value;
            have_imm = true;
        }
    }
    for (unsigned i = 0; i < d->operand_count; i++) {
        const isa_operand_value *v = &d->operands[i];
        const isa_operand *op = v->operand;
        if (op->field || !op->type || op->type->predef_count != 1) continue;
        uint8_t r = (uint8_t)op->type->predefs[0].value;
        if (op->output) {
            if (!have_rd) x->rd = r, have_rd = true;
            if (op->input && !have_rs1) x->rs1 = r, have_rs1 = true;
        } else if (!have_rs1) {
            x->rs1 = r, have_rs1 = true;
        } else if (!have_rs2) {
            x->rs2 = r, have_rs2 = true;
        }
    }
}

static unsigned compared, legal;

static void check_word(uint32_t w)
{
    isa_decoded d;
    const isa_instruction *in = ref_decode(w, &d);
    xdec x;
    unsigned len = xdec_decode(w, &x);
    compared++;
    if (!in) {
        if (len != 0)
            fail_msg("0x%08x: library: no instruction; xdec: %s (len %u)", w, xop_names[x.op], len);
        assert_int_equal(x.op, XOP_ILLEGAL);
        return;
    }
    legal++;
    if (len == 0 || strcmp(xop_names[x.op], in->name) != 0)
        fail_msg("0x%08x: library: %s; xdec: %s", w, in->name, len ? xop_names[x.op] : "illegal");
    assert_int_equal(len, d.length);
    assert_int_equal(x.len, d.length);
    xdec e;
    expected_slots(&d, &e);
    if (x.rd != e.rd || x.rs1 != e.rs1 || x.rs2 != e.rs2 || x.rs3 != e.rs3 || x.rm != e.rm ||
        x.csr != e.csr || x.imm != e.imm)
        fail_msg("0x%08x %s: xdec rd=%u rs1=%u rs2=%u rs3=%u rm=%u csr=0x%x imm=%lld; "
                 "expected rd=%u rs1=%u rs2=%u rs3=%u rm=%u csr=0x%x imm=%lld",
                 w, in->name, x.rd, x.rs1, x.rs2, x.rs3, x.rm, x.csr, (long long)x.imm, e.rd, e.rs1,
                 e.rs2, e.rs3, e.rm, e.csr, (long long)e.imm);
}

/* Every identifier of every encoding, with its free bits 0, 1 and random. */
static void test_every_encoding(void **state)
{
    (void)state;
    unsigned encs = 0;
    for (unsigned s = 0; s < nspecs; s++)
        for (unsigned i = 0; i < isa_encoding_count(specs[s]); i++) {
            const isa_encoding *e = isa_encoding_at(specs[s], i);
            if (e->bit_count > 32) continue;
            uint32_t mask = (uint32_t)e->mask;
            uint32_t width = e->bit_count == 32 ? 0xffffffffu : (1u << e->bit_count) - 1;
            encs++;
            for (unsigned k = 0; k < e->identifier_count; k++) {
                uint32_t id = (uint32_t)e->identifiers[k] & mask;
                check_word(id);
                check_word(id | (~mask & width));
                for (int r = 0; r < 300; r++)
                    check_word(id | (rnd32() & ~mask));
            }
        }
    assert_true(encs > 0);
    printf("every encoding: %u encodings, %u words, %u legal\n", encs, compared, legal);
}

static void test_random_words(void **state)
{
    (void)state;
    unsigned before = compared;
    for (int i = 0; i < 200000; i++) {
        uint32_t w = rnd32();
        check_word(w);              /* 32-bit and RVC alike */
        check_word((w & ~3u) | 3u); /* a 32-bit instruction */
        check_word(w & 0xffffu);    /* RVC with zero upper half */
    }
    printf("random: %u words\n", compared - before);
}

/* RT-049 / RT-058: hand-encoded from the RT spec (MATCH/MASK in the requirement
 * text), independent of the XML. rd = a0 (10), rs1 = a1 (11), flags = 5. */
static void test_rt_encodings(void **state)
{
    (void)state;
#ifdef GEN_GENERIC
    skip(); /* a non-RISC-V spec: no RT instructions */
#endif
    xdec x;
    /* REQ: RT-047 */
    /* REQ: RT-049 */
    uint32_t bbox = (5u << 20) | (11u << 15) | (6u << 12) | (10u << 7) | 0x0Bu;
    assert_int_equal(bbox, 0x0055E50Bu);
    assert_int_equal(xdec_decode(bbox, &x), 4);
    assert_true(strcasecmp(xop_names[x.op], "rt.bbox") == 0);
    assert_int_equal(x.rd, 10);
    assert_int_equal(x.rs1, 11);
    assert_int_equal(x.imm, 5);
    /* REQ: RT-058 */
    uint32_t tri = bbox | (7u << 12);
    assert_int_equal(xdec_decode(tri, &x), 4);
    assert_true(strcasecmp(xop_names[x.op], "rt.tri") == 0);
    assert_int_equal(x.rd, 10);
    assert_int_equal(x.rs1, 11);
    assert_int_equal(x.imm, 5);
    /* custom-0 with funct3 = 110 but a different major opcode is not RT.BBOX */
    assert_true(xdec_decode(bbox ^ 0x20u, &x) == 0 || strcasecmp(xop_names[x.op], "rt.bbox"));
}

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(xop_names[XOP_ILLEGAL], "illegal");
    for (unsigned i = 1; i < XOP__COUNT; i++) {
        const isa_instruction *in = NULL;
        for (unsigned s = 0; s < nspecs && !in; s++)
            in = isa_find_instruction(specs[s], xop_names[i]);
        if (!in) fail_msg("xop_names[%u] = %s is not an instruction of the spec", i, xop_names[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_rt_encodings),
        cmocka_unit_test(test_every_encoding),
        cmocka_unit_test(test_random_words),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
