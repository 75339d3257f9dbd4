/* bvh_build.c compiled without its SSE forms, under other names: test_bvh_portable checks
 * that it builds the same bytes as the library (whose x86-64 build uses SSE), as a host
 * without SSE would. */
#undef __SSE2__
#define bvh_build     bvh_build_scalar
#define bvh_blob_free bvh_blob_free_scalar
#include "../../src/bvh/bvh_build.c"
