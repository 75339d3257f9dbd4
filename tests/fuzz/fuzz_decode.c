/* fuzz_decode.c — arbitrary bytes as an instruction stream for the project spec.
 * Property: whatever decodes prints as text that assembles to an instruction which
 * prints as the same text (decode -> format -> assemble -> format is stable). */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "xphmg/isa.h"

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
        char text[160], again[160], err[256];
        isa_format(s, &d, text, sizeof text);
        isa_decoded back;
        if (isa_assemble(s, text, d.address, &back, err, sizeof err) != ISA_OK) abort();
        isa_format(s, &back, again, sizeof again);
        if (strcmp(text, again) != 0 || back.insn != d.insn) abort();
        off += d.length;
    }
    return 0;
}
