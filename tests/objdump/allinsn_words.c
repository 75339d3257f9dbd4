/* allinsn_words — writes a GNU as source holding every 16/32-bit encoding of the
 * spec(s) as raw `.insn` words, for objdump_diff.sh (ALLINSN) to assemble and
 * disassemble with both objdumps.
 *
 *   allinsn_words -x SPEC [-x SPEC...] > all.s
 *   allinsn_words --vendor-csrs -x SPEC [-x SPEC...] > csrs.tsv
 *   allinsn_words --vendor-insns -x SPEC [-x SPEC...] > insns.txt
 *
 * The second form lists "name<TAB>0xnum" for every OPR_CSR name of a register
 * whose Unit is not base: GNU objdump, which does not know vendor CSRs, prints those
 * by number, and objdump_diff.sh maps the names back before comparing. The third lists
 * the mnemonic of every XPHMG instruction (custom-0..3 opcode or XPHMG_ group), which
 * GNU objdump prints as .4byte: objdump_diff.sh counts those lines apart.
 *
 * Per identifier of every encoding: the free bits all 0, all 1 and 12 random
 * patterns (fixed seed), then, so that every alias condition (X-20: a field equal to a
 * value or to another field) is met and missed, random words with one field set to
 * 0, 1, 2, 3, 255 or all ones, or equal to another field of the same width, and (once)
 * to every value of a field of at most 3 bits (every rounding mode of every F/D
 * instruction). A word is kept when the
 * library decodes it back to the same encoding. Left out: XPHMG instructions (custom-0..3 opcode or
 * XPHMG_ group: GNU objdump does not know them). Kept on purpose: operands with named values
 * holding a value without a name (reserved rounding modes, empty fence sets, which GNU prints
 * as "unknown") and the words GNU decodes only for a narrower mask (printed as .4byte): the
 * spec's ISA/ReferenceDisassembly must reproduce both. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xphmg/isa.h"

#define MAXS 8

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint32_t rnd32(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static bool is_xphmg_enc(const isa_instruction *insn, const isa_insn_encoding *ie)
{
    uint64_t op = ie->opcode;
    bool custom =
        ie->encoding->op_field >= 0 && (op == 0x0B || op == 0x2B || op == 0x5B || op == 0x7B);
    return custom || (insn->group && !strncmp(insn->group, "XPHMG_", 6));
}

static bool is_xphmg(const isa_decoded *d)
{
    return is_xphmg_enc(d->insn, d->ienc);
}

/* A word goes into the test when it decodes to encoding en (so its fixed bits and
 * constraints hold) as a non-XPHMG instruction GNU objdump can name. */
static bool keep(isa_spec *const *specs, unsigned n, const isa_encoding *en, uint32_t w)
{
    uint8_t b[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)};
    isa_decoded d;
    bool ok = false;
    for (unsigned t = 0; t < n && !ok; t++)
        ok = isa_decode(specs[t], b, en->bit_count / 8, 0, &d) == ISA_OK;
    return ok && d.ienc->encoding == en && !is_xphmg(&d);
}

int main(int argc, char **argv)
{
    isa_spec *specs[MAXS];
    unsigned n = 0;
    bool csrs = false, vinsns = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--vendor-csrs")) {
            csrs = true;
            continue;
        }
        if (!strcmp(argv[i], "--vendor-insns")) {
            vinsns = true;
            continue;
        }
        if (strcmp(argv[i], "-x") != 0 || i + 1 >= argc || n == MAXS) {
            fprintf(stderr, "usage: allinsn_words -x SPEC [-x SPEC...]\n");
            return 2;
        }
        char err[512];
        if (!(specs[n] = isa_load(argv[++i], err, sizeof err))) {
            fprintf(stderr, "allinsn_words: %s\n", err);
            return 3;
        }
        n++;
    }
    if (n == 0) {
        fprintf(stderr, "usage: allinsn_words -x SPEC [-x SPEC...]\n");
        return 2;
    }
    if (csrs) {
        for (unsigned s = 0; s < n; s++) {
            const isa_operand_type *t = isa_find_operand_type(specs[s], "OPR_CSR");
            for (unsigned i = 0; t && i < t->predef_count; i++) {
                const isa_register *r =
                    isa_find_register_addr(specs[s], (uint32_t)t->predefs[i].value);
                if (r && r->unit && strcmp(r->unit, "base") != 0)
                    printf("%s\t0x%llx\n", t->predefs[i].name,
                           (unsigned long long)t->predefs[i].value);
            }
        }
        for (unsigned s = 0; s < n; s++)
            isa_free(specs[s]);
        return 0;
    }
    if (vinsns) {
        for (unsigned s = 0; s < n; s++)
            for (unsigned i = 0; i < isa_instruction_count(specs[s]); i++) {
                const isa_instruction *I = isa_instruction_at(specs[s], i);
                bool x = false;
                for (unsigned k = 0; k < I->encoding_count && !x; k++)
                    x = is_xphmg_enc(I, &I->encodings[k]);
                if (x) printf("%s\n", I->name);
            }
        for (unsigned s = 0; s < n; s++)
            isa_free(specs[s]);
        return 0;
    }
    unsigned words = 0;
    printf("\t.text\n\t.globl\tallinsn\nallinsn:\n");
#define EMIT(word)                                                                                 \
    do {                                                                                           \
        if (keep(specs, n, en, (word))) {                                                          \
            printf("\t.insn\t0x%0*x\n", en->bit_count / 4, (word));                                \
            words++;                                                                               \
        }                                                                                          \
    } while (0)
    for (unsigned s = 0; s < n; s++)
        for (unsigned e = 0; e < isa_encoding_count(specs[s]); e++) {
            const isa_encoding *en = isa_encoding_at(specs[s], e);
            if (en->bit_count != 16 && en->bit_count != 32) continue;
            uint32_t width = en->bit_count == 32 ? 0xffffffffu : 0xffffu;
            uint32_t mask = (uint32_t)en->mask & width;
            for (unsigned k = 0; k < en->identifier_count; k++)
                for (int v = 0; v < 14; v++) {
                    uint32_t free = v == 0 ? 0 : v == 1 ? width : rnd32();
                    uint32_t w = (((uint32_t)en->identifiers[k] & mask) | (free & ~mask)) & width;
                    EMIT(w);
                    if (v < 2) continue;
                    for (unsigned f = 0; f < en->field_count; f++) {
                        static const uint64_t special[] = {0, 1, 2, 3, 255, UINT64_MAX};
                        const isa_field *fl = &en->fields[f];
                        /* once per encoding, every value of a small field (rounding
                         * mode, fence sets' halves...): GNU prints each differently */
                        for (uint64_t val = 0; v == 2 && fl->width <= 3 && val < (1u << fl->width);
                             val++) {
                            uint64_t sw = w;
                            if (isa_field_insert(fl, val, &sw) == ISA_OK) EMIT((uint32_t)sw);
                        }
                        for (unsigned x = 0; x < sizeof special / sizeof special[0]; x++) {
                            uint64_t sw = w, val = special[x];
                            if (fl->width < 64) val &= (UINT64_C(1) << fl->width) - 1;
                            if (isa_field_insert(fl, val, &sw) == ISA_OK) EMIT((uint32_t)sw);
                        }
                        for (unsigned g = 0; g < en->field_count; g++) {
                            uint64_t sw = w;
                            if (g == f || en->fields[g].width != fl->width) continue;
                            if (isa_field_insert(fl, isa_field_extract(&en->fields[g], w), &sw) ==
                                ISA_OK)
                                EMIT((uint32_t)sw);
                        }
                    }
                }
        }
    for (unsigned s = 0; s < n; s++)
        isa_free(specs[s]);
    fprintf(stderr, "allinsn_words: %u words\n", words);
    return 0;
}
