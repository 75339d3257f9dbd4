/* rt_job.h — the XPHMG_RT offload job (XPHMG_RT 9, errata,
 * Q-79..Q-81): one `xsubmit.rt` descriptor run to completion over a memory callback
 * interface.
 *
 * Pure module: no hart, no CAP state. The hart adapter (rt_offload.c) backs the memory
 * with hart_mem_ok + hart_load/hart_store and applies the result (flags into STAT/EXC.ST
 * with cap_accrue, UNSUP_FMT, XMEM events, RTSTAT.LAST_EC); host tests back it with a
 * fake memory.
 *
 * What a job does (docs/rt.md "Offload"):
 *   - memory policy: memctl (FMT_MEMCTL) fields that are non-zero override the
 *     snapshot's CAP.XMEM defaults (Q-52, RT 8.7): dom 0 = CAP.XMEM.DOM; mclass 0 (or
 *     CLASS_PART = 0) = DESCPOL.DEF_CLASS. With DESCPOL.STRICT_DOM = 1 a job whose
 *     effective dom is neither RT (2) nor ALL (15) is rejected (job fault, nothing read).
 *     hyb = 1 with HYB_ENABLE = 0, or with WAY_PART = 1 and no CL2 ways, sets HYB_FALLBK
 *     (Q-58, the rule of xmem_hyb_fallback). Other fields are hints without a functional
 *     effect.
 *   - opts bits other than CULL_BACK 0, PACK_HINT 2, EPS_CTL 3, NODE8 8, ANY_HIT 9: job
 *     fault before anything is read.
 *   - reads the three queue descriptors (FMT_QUEUE); CAP = 0 or HEAD/TAIL >= CAP is a
 *     job fault; then for each ray slot i from HEAD to TAIL (mod CAP) of the ray queue:
 *     loads the ray (FMT_RAY / FMT_RAY16 in the element format of the snapshot), runs a
 *     stack traversal from the root node at bvh_base (Node4, or Node8 with NODE8),
 *     children visited near to far; leaves test the triangles of their TriRange (base
 *     replaced by tri_buf when non-zero); closest hit (ties: the lower triangle index),
 *     or the first hit found with ANY_HIT; appends FMT_RT_HIT {i, prim, t, u, v} or
 *     FMT_RT_MISS {i} and stores the advanced TAIL, then stores ray HEAD = i + 1.
 *   - results t, u, v are rounded once to the element format under the snapshot's
 *     policy (rt_result_encode); their flags are the job's flags.
 *   - a ray whose result flags include an exception enabled in the snapshot's EXC.EN
 *     (EFF_SAE = 0) ends the job (errata Q-29: LAST_EC = 3, never a trap): that ray's
 *     entry is not written and HEAD stays at it, its flags still accrue (as a trapping
 *     instruction sets its stickies, Q-28); earlier rays keep their results.
 *   - a fault (inaccessible or misaligned address, full hit/miss queue) ends the job the
 *     same way at the ray being processed (INV_MISS is reported for memory faults).
 *   - predication, SVMEM and FOF (errata P-320..P-322, RT 8.2, 8.3, 8.6, 9): ray k of the
 *     job (k = 0 at HEAD) is lane k mod 64 of the bank (lanes_off = its complement); a masked-off
 * ray is consumed (HEAD passes it) without any access, traversal, entry or flag. Rays, nodes,
 * TriRanges and triangles are fetched by rt_fetch_* with the snapshot's SVMMODE OOB-zero; with
 *     SVMSCL.FOF = 1 a memory fault of ray k > 0 stops the job at k without a job fault
 *     (RT_JOB_FOF_STOP). SVFAULTI = k for a job that ended at ray k, all ones otherwise.
 * Alignment: queue descriptors 8 bytes, TriRanges 16, nodes 64 (Node8: 128),
 * rays and triangles their element size, hit/miss queue bases 4. */
#ifndef XPHMG_EXT_RT_JOB_H
#define XPHMG_EXT_RT_JOB_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cap.h"
#include "rt_fetch.h"
#include "rt_kernels.h"

/* Memory as the job sees it: the RT fetch memory (rt_fetch.h). Rays, node tiles,
 * TriRanges and triangles are read through rt_fetch_* (SVMEM rules); queue descriptors
 * and entries are ordinary accesses. */
typedef rt_mem rt_job_mem;

/* Little-endian fields of n bytes (n <= 8) in the RT records (a plain load or store of 4
 * or 8 bytes on a little-endian host). */
static inline uint64_t rt_le_get(const uint8_t *p, unsigned n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n == 8 || n == 4) {
        uint64_t v = 0;
        memcpy(&v, p, n);
        return v;
    }
#endif
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}
static inline void rt_le_put(uint8_t *p, unsigned n, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n == 8 || n == 4) {
        memcpy(p, &v, n);
        return;
    }
#endif
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* FMT_RT_DESC byte offsets and opts bits (errata Q-81). */
enum {
    RT_DESC_BVH_BASE = 0,
    RT_DESC_RAYQ = 8,
    RT_DESC_HITQ = 16,
    RT_DESC_MISSQ = 24,
    RT_DESC_TRI_BUF = 32,
    RT_DESC_OPTS = 40,
    RT_DESC_RSV = 44,
    RT_DESC_MEMCTL = 48,
    RT_DESC_BYTES = 72,
};
#define RT_OPT_CULL_BACK (1u << 0)
#define RT_OPT_PACK_HINT (1u << 2)
#define RT_OPT_EPS_CTL   (1u << 3)
#define RT_OPT_NODE8     (1u << 8)
#define RT_OPT_ANY_HIT   (1u << 9)
/* PB 6:4: the predicate bank of the job's rays (errata P-321; the PB_IN position of
 * rt.bbox/rt.tri), resolved into rt_job_desc.pred at xsubmit.rt. */
#define RT_OPT_PB_SHIFT 4
#define RT_OPT_PB_MASK  (7u << RT_OPT_PB_SHIFT)
#define RT_OPT_DEFINED                                                                             \
    (RT_OPT_CULL_BACK | RT_OPT_PACK_HINT | RT_OPT_EPS_CTL | RT_OPT_PB_MASK | RT_OPT_NODE8 |        \
     RT_OPT_ANY_HIT)

/* FMT_QUEUE, FMT_RT_HIT, FMT_RT_MISS sizes (errata Q-70). */
#define RT_QUEUE_BYTES 24u
#define RT_HIT_BYTES   24u
#define RT_MISS_BYTES  4u

/* Domain codes (errata Q-40). */
enum { RT_DOM_DEFAULT = 0, RT_DOM_CPU = 1, RT_DOM_RT = 2, RT_DOM_ALL = 15 };

/* A job's inputs, resolved at `xsubmit.rt` (rt_offload.c): queue pointers 0 already
 * replaced by RTQ_RAY/HIT/MISS and the tolerance code chosen (RTCONF2.EPS_SCALE with
 * EPS_CTL, else RTCFG.EPS_DFLT). A job has no pack hint: hit entries have 32-bit t, u
 * and v whatever it says (errata P-324). */
typedef struct {
    uint64_t bvh_base, rayq, hitq, missq, tri_buf;
    uint32_t opts;      /* as written in the descriptor */
    unsigned eps_code;  /* Q-74 tolerance code, 0 = none */
    uint64_t lanes_off; /* the complement of bank opts.PB as read at xsubmit.rt (0 for bank
                           0, so a zeroed descriptor has every lane on); ray k of the job
                           (k-th slot from HEAD) is lane k mod 64 (errata P-321) */
    uint8_t memctl[24]; /* FMT_MEMCTL */
} rt_job_desc;

/* Decodes the 72 descriptor bytes as written (no CSR defaults applied: eps_code 0,
 * lanes_off 0). */
void rt_job_decode(const uint8_t desc[RT_DESC_BYTES], rt_job_desc *jd);

typedef enum {
    RT_JOB_OK = 0,
    RT_JOB_BAD_OPTS,   /* reserved opts bits set */
    RT_JOB_DOM_REJECT, /* STRICT_DOM and an effective dom other than RT/ALL */
    RT_JOB_BAD_QUEUE,  /* CAP = 0, HEAD or TAIL >= CAP */
    RT_JOB_MEM_FAULT,  /* inaccessible address */
    RT_JOB_MISALIGNED, /* misaligned record */
    RT_JOB_QUEUE_FULL, /* the hit or miss queue had no free slot */
    RT_JOB_FP_EXC,     /* an exception enabled in the snapshot's EXC.EN */
    RT_JOB_STACK,      /* traversal stack overflow (a BVH deeper than RT_JOB_STACK_DEPTH) */
    RT_JOB_BUDGET,     /* the simulator's --max-insns budget ran out (mem.charge) */
    RT_JOB_FOF_STOP,   /* fault-only-first: a memory fault of ray k > 0 under SVMSCL.FOF
                          stopped the job at ray k; not a job fault (errata P-320) */
} rt_job_status;

/* Traversal stack entries (a cyclic or very deep BVH faults instead of looping). */
#define RT_JOB_STACK_DEPTH 256u
/* Node visits per ray before the job faults with RT_JOB_STACK (a cyclic BVH). */
#define RT_JOB_MAX_VISITS 65536u

typedef struct {
    rt_job_status status;  /* RT_JOB_OK or the reason the job ended (LAST_EC = 3) */
    uint64_t fault_addr;   /* MEM_FAULT / MISALIGNED: the address */
    num_flags flags;       /* to accrue into STAT/EXC.ST (cap_accrue), also on a fault */
    bool unsup_fmt;        /* the snapshot's element format is not a float */
    uint64_t events;       /* CAP.XMEM.EVENTS bits (INV_MISS, HYB_FALLBK) */
    uint64_t svfaulti;     /* the new SVFAULTI (errata P-322): all ones when every ray
                              completed, else k, the ray (job-relative) the job ended at */
    uint32_t rays;         /* rays completed (entries written or masked off) */
    uint32_t hits, misses; /* entries appended */
    unsigned dom;          /* effective domain (Q-40: 0 resolved to CPU) */
    unsigned mclass;       /* effective class */
} rt_job_result;

/* Runs one job under snapshot s. */
void rt_job_run(const rt_job_desc *jd, const cap_snap *s, const rt_job_mem *m, rt_job_result *r);

/* The engine's state kept between jobs: a cache of decoded node tiles (one, shared by the
 * threads of a split job) and the number of host threads a job is split over
 * (--rt-threads). Results never depend on either:
 *   - the cache holds what a job would read now: a job starts with it empty (a new
 *     generation: a counter, no clearing) unless the memory offers rt_job_mem.epoch and
 *     watch and the job before it on this engine left it valid: same memory, an epoch
 *     unchanged since that job watched every record it cached, the same element format,
 *     Node8 option and tri_buf, and no range this job writes overlapping the cached
 *     records; a store of the job itself (queue entries, TAIL, HEAD) that overlaps the
 *     cached address range empties it as well;
 *   - with threads > 1 the rays are traced in parallel (reads only, through
 *     rt_job_mem.map), then the results are appended in ray order, leaving the
 *     memory and result a single thread would (over plain memory, the thread that traced
 *     a block may write its entries: rt_job.c "split jobs"); if a traced ray read memory
 *     the job writes, or touched memory without a map, the parallel results are dropped
 *     and the job runs on one thread. */
typedef struct rt_job_engine rt_job_engine;
/* NULL when the host is out of memory. */
rt_job_engine *rt_job_engine_new(unsigned threads);
void rt_job_engine_free(rt_job_engine *e);
unsigned rt_job_engine_threads(const rt_job_engine *e);
/* How the last job on an engine was split across its threads (rt_job.c "split jobs"), for
 * benchmarks: rays traced by the calling thread and by the workers, blocks (of 32 to 128
 * rays, all appended in ray order), those appended ray by ray from the ring (a fault, an
 * exception, a queue filling, memory not written directly) and those kept in their ring
 * slot (a tracer ahead of the append by more than it buffers), and the nanoseconds the
 * calling thread waited for a block traced elsewhere, and for the workers at the end. All
 * zero after a job that was not split. */
typedef struct {
    uint64_t rays_caller, rays_workers;
    uint64_t block_rays; /* rays per block */
    uint64_t blocks, ring_blocks, kept_in_ring;
    uint64_t wait_ns, end_ns;
} rt_job_split_stats;
void rt_job_engine_split_stats(const rt_job_engine *e, rt_job_split_stats *st);
/* rt_job_run on engine e; without an engine (e NULL: the host was out of memory) the job
 * ends at once with RT_JOB_MEM_FAULT, as a job fault. */
void rt_job_run_ex(const rt_job_desc *jd, const cap_snap *s, const rt_job_mem *m, rt_job_engine *e,
                   rt_job_result *r);

#endif
