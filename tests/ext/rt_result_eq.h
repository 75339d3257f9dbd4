/* rt_result_eq.h — the one comparison of two offload job results for the engine's tests
 * (one thread against two, direct writes against stores, ...): every field of
 * rt_job_result, named in the failure message. Include after <cmocka.h> and "rt_job.h". */
#ifndef XPHMG_TESTS_RT_RESULT_EQ_H
#define XPHMG_TESTS_RT_RESULT_EQ_H

#include <stdint.h>

#define RT_RESULT_FIELD_EQ(got, want, field)                                                       \
    do {                                                                                           \
        if ((uint64_t)(got)->field != (uint64_t)(want)->field)                                     \
            fail_msg("rt_job_result." #field " is 0x%llx, expected 0x%llx",                        \
                     (unsigned long long)(got)->field, (unsigned long long)(want)->field);         \
    } while (0)

static inline void assert_rt_result_equal(const rt_job_result *got, const rt_job_result *want)
{
    RT_RESULT_FIELD_EQ(got, want, status);
    RT_RESULT_FIELD_EQ(got, want, fault_addr);
    RT_RESULT_FIELD_EQ(got, want, flags);
    RT_RESULT_FIELD_EQ(got, want, unsup_fmt);
    RT_RESULT_FIELD_EQ(got, want, events);
    RT_RESULT_FIELD_EQ(got, want, svfaulti);
    RT_RESULT_FIELD_EQ(got, want, rays);
    RT_RESULT_FIELD_EQ(got, want, hits);
    RT_RESULT_FIELD_EQ(got, want, misses);
    RT_RESULT_FIELD_EQ(got, want, dom);
    RT_RESULT_FIELD_EQ(got, want, mclass);
}

#endif
