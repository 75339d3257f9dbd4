/* fuzz.h — the libFuzzer entry point shared by the fuzz targets and the plain-C corpus
 * replay driver (replay.c), which feeds committed seeds to the same function in
 * ordinary builds. */
#ifndef XPHMG_FUZZ_H
#define XPHMG_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The spec the decode and assemble targets work on: $XPHMG_FUZZ_SPEC, else the
 * project's spec/xphmg.xml (compiled in). Aborts when it cannot be loaded, so a
 * broken spec never turns the targets into no-ops. */
struct isa_spec;
const struct isa_spec *fuzz_spec(void);

#endif
