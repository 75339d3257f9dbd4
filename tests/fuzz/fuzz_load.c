/* fuzz_load.c — arbitrary bytes as a spec file: the loader must either build a model
 * or return an error with a "NAME:LINE: " message, never crash or leak. A model that
 * loads is exercised a little (decode of its own identifiers) so that malformed but
 * accepted specs reach the decoder too. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "xphmg/isa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    isa_spec *s = NULL;
    isa_status st = isa_open_memory((const char *)data, size, "fuzz.xml", &s, err, sizeof err);
    if (st != ISA_OK) {
        if (s || strncmp(err, "fuzz.xml:", 9) != 0) abort(); /* contract of isa_open_memory */
        return 0;
    }
    for (unsigned i = 0; i < isa_encoding_count(s); i++) {
        const isa_encoding *e = isa_encoding_at(s, i);
        isa_decoded d;
        if (isa_decode_word(s, e->identifiers[0], e->bit_count, 0, &d) == ISA_OK) {
            char buf[128];
            isa_format(s, &d, buf, sizeof buf);
            isa_decoded back;
            isa_assemble(s, buf, 0, &back, err, sizeof err);
        }
    }
    isa_free(s);
    return 0;
}
