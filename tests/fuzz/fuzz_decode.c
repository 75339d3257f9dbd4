/* fuzz_decode.c — arbitrary bytes as an instruction stream for the project spec.
 * Property: whatever decodes prints as text that assembles to an instruction which
 * prints as the same text (decode -> format -> assemble -> format is stable).
 *
 * Assembling is by far the slowest step (text parsing and a search over the spec), and
 * a campaign meets the same words again and again: each distinct (word, length,
 * address) is round-tripped once per process and remembered in a direct-mapped table,
 * so the target runs at thousands of executions per second instead of ~100. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "xphmg/isa.h"

#define SEEN_BITS 16

static struct {
    uint64_t word, address;
    unsigned length; /* 0 = empty slot */
} seen[1u << SEEN_BITS];

static int seen_before(const isa_decoded *d)
{
    uint64_t h = (d->word * UINT64_C(0x9e3779b97f4a7c15)) ^ (d->address * 0xff51afd7ed558ccdULL);
    size_t i = (size_t)(h >> (64 - SEEN_BITS));
    if (seen[i].length == d->length && seen[i].word == d->word && seen[i].address == d->address)
        return 1;
    seen[i].word = d->word;
    seen[i].address = d->address;
    seen[i].length = d->length;
    return 0;
}

/* The bits of the word the decoder looked at: the encoding's mask and the fields its
 * operands are encoded in. */
static uint64_t meaningful_bits(const isa_decoded *d)
{
    uint64_t m = d->ienc->encoding->mask;
    for (unsigned i = 0; i < d->ienc->operand_count; i++) {
        const isa_field *f = d->ienc->operands[i].field;
        if (!f) continue;
        for (unsigned r = 0; r < f->range_count; r++) {
            const isa_range *g = &f->ranges[r];
            uint64_t ones = g->bit_count >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << g->bit_count) - 1;
            m |= ones << g->bit_offset;
        }
    }
    return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const isa_spec *s = (const isa_spec *)fuzz_spec();
    size_t off = 0;
    while (off < size) {
        isa_decoded d;
        isa_status st = isa_decode(s, data + off, size - off, 0x1000 + off, &d);
        if (st != ISA_OK) {
            if (st != ISA_ERR_UNKNOWN && st != ISA_ERR_TRUNCATED) abort();
            off += 2;
            continue;
        }
        off += d.length;
        if (seen_before(&d)) continue;
        /* A word whose ignored bits are not zero (FENCE's rd, rs1 and reserved fm, errata
         * P-90) prints as its instruction but cannot be assembled back bit for bit: its
         * canonical word, which may even be another instruction (fence w,0 with rd = rs1
         * = 0 is pause), is round-tripped when that word itself is decoded. */
        if (d.word & ~meaningful_bits(&d)) continue;
        char text[160], again[160], err[256];
        isa_format(s, &d, text, sizeof text);
        isa_decoded back;
        if (isa_assemble(s, text, d.address, &back, err, sizeof err) != ISA_OK) abort();
        isa_format(s, &back, again, sizeof again);
        if (strcmp(text, again) != 0 || back.insn != d.insn) abort();
    }
    return 0;
}
