/* arch.xmem.cache_sprof_temporal's accesses under the default profile, which has
 * non-temporal fills (CAP.XMEM.CAP.NONTEMP = 1): SPROF2.NT_POLICY is honoured, and the
 * STREAM-hinted access's fill and both stream fills are non-temporal (the profile's
 * NONTEMP bit, not another CAP.XMEM.CAP bit, lets the stream profile ask for them).
 * REQ: XMEM-059 XMEM-087 */
#define WITH_NONTEMP
#include "cache_sprof_temporal.S"
