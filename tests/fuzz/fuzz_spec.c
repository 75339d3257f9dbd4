/* fuzz_spec.c — loads the spec once for the decode/assemble fuzz targets. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "xphmg/isa.h"

#ifndef XPHMG_FUZZ_DEFAULT_SPEC
#define XPHMG_FUZZ_DEFAULT_SPEC "spec/xphmg.xml"
#endif

static isa_spec *spec;

static void drop(void)
{
    isa_free(spec);
}

const struct isa_spec *fuzz_spec(void)
{
    if (spec) return spec;
    const char *p = getenv("XPHMG_FUZZ_SPEC");
    if (!p || !*p) p = XPHMG_FUZZ_DEFAULT_SPEC;
    char err[512];
    spec = isa_load(p, err, sizeof err);
    if (!spec) {
        fprintf(stderr, "fuzz: cannot load %s: %s\n", p, err);
        abort();
    }
    atexit(drop);
    return spec;
}
