/* test_isa_roundtrip.c — for EVERY instruction encoding of a spec file (argv[1]):
 * random operand values (fixed seed, 50 per encoding) -> isa_encode -> isa_decode_word
 * (must find the same instruction and the same operand values) -> isa_format ->
 * isa_assemble -> the same bits. Nothing is skipped: a failure means a bug in the XML
 * or in the library, and every failing instruction is listed with one example.
 *
 * Values are drawn by filling the encoding's free bits at random on top of its
 * identifier and opcode, then reading the operand fields back; draws that hit a
 * constraint's reserved value are redrawn, since the spec itself says they
 * are another instruction.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "xphmg/isa.h"

static const char *spec_path;
static isa_spec *spec;

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint64_t next_rand(void)
{
    /* xorshift64*: fixed seed, so failures reproduce */
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1Du;
}

static int setup(void **st)
{
    (void)st;
    char err[512];
    spec = isa_load(spec_path, err, sizeof err);
    if (!spec) fprintf(stderr, "%s\n", err);
    return spec ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    isa_free(spec);
    return 0;
}

static bool violates(const isa_insn_encoding *ie, uint64_t w)
{
    for (unsigned c = 0; c < ie->constraint_count; c++)
        for (unsigned f = 0; f < ie->encoding->field_count; f++)
            if (!strcmp(ie->encoding->fields[f].name, ie->constraints[c].field) &&
                isa_field_extract(&ie->encoding->fields[f], w) == ie->constraints[c].not_value)
                return true;
    return false;
}

/* One trial; returns NULL on success or a description of the failure in buf. */
static const char *trial(const isa_instruction *I, const isa_insn_encoding *ie, char *buf,
                         size_t len)
{
    const isa_encoding *e = ie->encoding;
    uint64_t lim = e->bit_count >= 64 ? UINT64_MAX : (UINT64_C(1) << e->bit_count) - 1;
    uint64_t w = 0;
    int tries = 0;
    do {
        w = ((next_rand() & ~e->mask) | (e->identifiers[0] & e->mask)) & lim;
        if (e->op_field >= 0 &&
            isa_field_insert(&e->fields[e->op_field], ie->opcode, &w) != ISA_OK) {
            snprintf(buf, len, "opcode %" PRIu64 " does not fit OP", ie->opcode);
            return buf;
        }
        /* padding constants inside fields are not bits of the word, nothing to fix */
    } while (violates(ie, w) && ++tries < 1000);
    if (tries >= 1000) {
        snprintf(buf, len, "constraints exclude every value");
        return buf;
    }
    uint64_t raw[ISA_MAX_OPERANDS];
    for (unsigned i = 0; i < ie->operand_count; i++) {
        const isa_operand *o = &ie->operands[i];
        raw[i] = o->field ? isa_field_extract(o->field, w)
                          : (o->type->predef_count ? o->type->predefs[0].value : 0);
    }
    uint64_t word;
    isa_status s = isa_encode(spec, I, ie, raw, ie->operand_count, &word);
    if (s != ISA_OK) {
        snprintf(buf, len, "isa_encode of %0*" PRIx64 ": %s", (int)(e->bit_count / 4), w,
                 isa_status_str(s));
        return buf;
    }
    uint64_t addr = 0x80000000u + (next_rand() & 0xfffffe);
    isa_decoded d;
    s = isa_decode_word(spec, word, e->bit_count, addr, &d);
    if (s != ISA_OK) {
        snprintf(buf, len, "word %0*" PRIx64 " does not decode: %s", (int)(e->bit_count / 4), word,
                 isa_status_str(s));
        return buf;
    }
    if (d.insn != I || d.ienc != ie) {
        snprintf(buf, len, "word %0*" PRIx64 " decodes as %s (encoding %s)",
                 (int)(e->bit_count / 4), word, d.insn->name, d.ienc->encoding->name);
        return buf;
    }
    for (unsigned i = 0; i < ie->operand_count; i++)
        if (d.operands[i].raw != raw[i]) {
            snprintf(buf, len, "word %0*" PRIx64 ": operand %u decodes as %" PRIu64 " not %" PRIu64,
                     (int)(e->bit_count / 4), word, i + 1, d.operands[i].raw, raw[i]);
            return buf;
        }
    char text[128];
    isa_format(spec, &d, text, sizeof text);
    isa_decoded back;
    char err[160];
    s = isa_assemble(spec, text, addr, &back, err, sizeof err);
    if (s != ISA_OK) {
        snprintf(buf, len, "word %0*" PRIx64 " -> \"%s\" does not assemble: %s",
                 (int)(e->bit_count / 4), word, text, err);
        return buf;
    }
    if (back.word != word || back.insn != I) {
        snprintf(buf, len, "word %0*" PRIx64 " -> \"%s\" -> %0*" PRIx64 " (%s)",
                 (int)(e->bit_count / 4), word, text, (int)(e->bit_count / 4), back.word,
                 back.insn->name);
        return buf;
    }
    return NULL;
}

static void test_roundtrip(void **st)
{
    (void)st;
    unsigned failures = 0, total = 0;
    for (unsigned i = 0; i < isa_instruction_count(spec); i++) {
        const isa_instruction *I = isa_instruction_at(spec, i);
        for (unsigned k = 0; k < I->encoding_count; k++) {
            char buf[640];
            for (int t = 0; t < 50; t++) {
                total++;
                const char *why = trial(I, &I->encodings[k], buf, sizeof buf);
                if (why) {
                    fprintf(stderr, "ROUNDTRIP FAIL %s [%s]: %s\n", I->name,
                            I->encodings[k].encoding->name, why);
                    failures++;
                    break; /* one example per encoding */
                }
            }
        }
    }
    fprintf(stderr, "%s: %u trials, %u failing instruction encodings\n", spec_path, total,
            failures);
    assert_int_equal(failures, 0);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_isa_roundtrip SPEC.xml\n");
        return 2;
    }
    spec_path = argv[1];
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_roundtrip)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
