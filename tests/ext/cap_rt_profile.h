/* cap_rt_profile.h — the design's runtime-profiles example (P-177) that the CAP tests run
 * under: PROF.SUP {0, 1, 2}; index 1 sets TIER.WAVE WAVES 3 and HINT.ALIGN A128, index 2
 * FEAT0 0x108, HINT.LDSBK GRAN_LOG2 3 and TIER.REG (VGPR 2, SGPR 1). */
#ifndef XPHMG_TEST_CAP_RT_PROFILE_H
#define XPHMG_TEST_CAP_RT_PROFILE_H

static const char rt_yaml[] =
    "xphmg-profile: 1\nname: rt\ncsrs:\n"
    "  cap_flags: {RUNTIME_MUTABLE: 1, HAS_PROFILES: 1}\n"
    "  cap_prof_sup: 0x7\n  cap_prof_cur: 0\n"
    "runtime-profiles:\n"
    "  1: {cap_tier_wave: {WAVES: 3}, cap_hint_align: {A16: 0, A32: 0, A64: 0, A128: 1}}\n"
    "  2: {cap_feat0: 0x108, cap_hint_ldsbk: {GRAN_LOG2: 3},\n"
    "      cap_tier_reg: {VGPR_TIER: 2, SGPR_TIER: 1}}\n";

#endif
