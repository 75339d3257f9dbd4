/* fuzz_asm.c — arbitrary text as a line of assembly for the project spec. Property:
 * text that assembles gives bits that decode to the same instruction, and printing
 * and assembling that again gives the same bits. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "xphmg/isa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const isa_spec *s = (const isa_spec *)fuzz_spec();
    char line[600];
    if (size >= sizeof line) size = sizeof line - 1;
    memcpy(line, data, size);
    line[size] = 0;
    isa_decoded d;
    char err[256];
    isa_status st = isa_assemble(s, line, 0x2000, &d, err, sizeof err);
    if (st != ISA_OK) {
        if (!err[0]) abort(); /* every failure explains itself */
        return 0;
    }
    isa_decoded back;
    if (isa_decode_word(s, d.word, d.length * 8, 0x2000, &back) != ISA_OK || back.insn != d.insn)
        abort();
    char text[160];
    isa_format(s, &back, text, sizeof text);
    isa_decoded again;
    if (isa_assemble(s, text, 0x2000, &again, err, sizeof err) != ISA_OK || again.word != d.word)
        abort();
    return 0;
}
