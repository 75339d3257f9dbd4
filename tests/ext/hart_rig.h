/* hart_rig.h — a hart with the XPHMG units attached, on 1 MiB of RAM at RAM, for the tests
 * that run hand-encoded instructions (test_cap_hart, test_rt_unit). Traps land at
 * RAM + 0x1000 (an all-zero word there is illegal and stops the run). A cmocka test: the
 * includer has included cmocka.h. */
#ifndef XPHMG_TEST_HART_RIG_H
#define XPHMG_TEST_HART_RIG_H

#include <stdint.h>
#include <string.h>

#include "cap_profile.h"
#include "hart.h"
#include "mem.h"
#include "xphmg_ext.h"

#define RAM      0x80000000u
#define RAM_SIZE 0x100000u

typedef struct {
    sim_mem *m;
    hart *h;
    xphmg_ext *e;
    cap_profile *p;
    unsigned next; /* next free instruction slot, for tests that place one at a time */
} rig;

/* The rig under the profile profile_yaml (a YAML text), or NULL: the default profile. */
static inline void up(rig *r, const char *profile_yaml)
{
    char err[256];
    memset(r, 0, sizeof *r);
    r->m = mem_new(RAM, RAM_SIZE);
    assert_non_null(r->m);
    r->h = hart_new(r->m, RAM);
    assert_non_null(r->h);
    if (profile_yaml) {
        r->p = cap_profile_parse(profile_yaml, strlen(profile_yaml), "t", err, sizeof err);
        assert_non_null(r->p);
    }
    r->e = xphmg_ext_attach(r->h, r->p, err, sizeof err);
    assert_non_null(r->e);
    r->h->mtvec = RAM + 0x1000;
}

static inline void down(rig *r)
{
    hart_free(r->h);
    xphmg_ext_free(r->e);
    cap_profile_free(r->p);
    mem_free(r->m);
}

#endif
