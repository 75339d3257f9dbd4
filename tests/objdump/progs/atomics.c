/* Atomics for the objdump differential test: every __atomic builtin on 32- and
 * 64-bit objects with relaxed, acquire, release and seq_cst orders, which gcc
 * turns into A-extension AMOs, LR/SC loops and fences. */
#include <stdbool.h>
#include <stdint.h>

int32_t a32;
int64_t a64;

int64_t amo64(int64_t v)
{
    int64_t r = __atomic_fetch_add(&a64, v, __ATOMIC_RELAXED);
    r += __atomic_fetch_and(&a64, v, __ATOMIC_ACQUIRE);
    r += __atomic_fetch_or(&a64, v, __ATOMIC_RELEASE);
    r += __atomic_fetch_xor(&a64, v, __ATOMIC_SEQ_CST);
    r += __atomic_exchange_n(&a64, v, __ATOMIC_ACQ_REL);
    r += __atomic_load_n(&a64, __ATOMIC_SEQ_CST);
    __atomic_store_n(&a64, r, __ATOMIC_RELEASE);
    return r;
}

int32_t amo32(int32_t v)
{
    int32_t r = __atomic_fetch_add(&a32, v, __ATOMIC_SEQ_CST);
    r += __atomic_fetch_sub(&a32, v, __ATOMIC_RELAXED);
    r += __atomic_fetch_and(&a32, v, __ATOMIC_RELEASE);
    r += __atomic_fetch_or(&a32, v, __ATOMIC_ACQUIRE);
    r += __atomic_exchange_n(&a32, v, __ATOMIC_SEQ_CST);
    return r;
}

bool cas(int64_t expect, int64_t desired, int32_t e32)
{
    bool ok = __atomic_compare_exchange_n(&a64, &expect, desired, false, __ATOMIC_SEQ_CST,
                                          __ATOMIC_RELAXED);
    ok ^=
        __atomic_compare_exchange_n(&a32, &e32, e32 + 1, true, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE);
    return ok;
}

int small(int v)
{
    /* sub-word atomics would need libatomic (gcc 12 does not inline them) */
    int r = __atomic_fetch_add(&a32, v, __ATOMIC_ACQ_REL);
    r += (int)__atomic_fetch_or(&a64, v, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return r;
}

int main(void)
{
    int64_t s = 0;
    for (int i = 0; i < 10; i++)
        s += amo64(i) + amo32(i) + cas(i, s, i) + small(i);
    return (int)(s & 1);
}
