/* cap_profile.h — implementation profiles: the discovery values of an XPHMG
 * implementation (FEAT bits, tiers, hints, PMASK banks, supported formats, XMEM
 * capabilities and parameters, HAS_PROFILES/RUNTIME_MUTABLE) read from a YAML file.
 *
 * Format (docs/cap.md, profiles/default.yaml):
 *   xphmg-profile: 1                 # format version, required
 *   name: minimal                    # required
 *   description: free text           # optional
 *   csrs:                            # optional; names and fields from ISA/Registers
 *     cap_feat0: 0x8                 #   a whole value (bits outside fields: error)
 *     cap_prec_cap: {ALT_SUP: 0x0c}  #   or fields; unnamed fields keep the XML reset
 *   runtime-profiles:                # optional (errata P-177): needs HAS_PROFILES=1;
 *     1: {cap_hint_align: 0x8}       #   index in cap_prof_sup -> advisory CSRs over
 *                                    #   `csrs` (needs RUNTIME_MUTABLE=1)
 * Only discovery CSRs (read-only CAP/XMEM descriptors and rtcap) may be given; values
 * start from the XML reset values, so an empty `csrs` is the default profile. Numbers
 * are decimal, 0x hex or 0b binary; `true`/`false` for one-bit fields. Every error
 * (syntax, unknown CSR or field, value too wide, inconsistent values) is reported with
 * file:line and the load fails. */
#ifndef XPHMG_EXT_CAP_PROFILE_H
#define XPHMG_EXT_CAP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cap_profile cap_profile;

/* NULL on error, with a message in err. */
cap_profile *cap_profile_load(const char *path, char *err, size_t errlen);
cap_profile *cap_profile_parse(const char *text, size_t len, const char *origin, char *err,
                               size_t errlen);
void cap_profile_free(cap_profile *p);
const char *cap_profile_name(const cap_profile *p); /* "default" for NULL */

/* Runtime profile indices 0..31 (CAP.PROF.SUP is a 32-bit mask). */
#define CAP_PROFILE_MAX 32

/* The value of discovery CSR addr at reset: under runtime profile
 * cap_profile_reset_index(p) (the XML reset value where nothing names it). False for
 * NULL p or a CSR that is not a discovery CSR. */
bool cap_profile_value(const cap_profile *p, uint32_t addr, uint64_t *val);
/* The same under runtime profile idx: `csrs` overlaid with `runtime-profiles: idx`. */
bool cap_profile_value_at(const cap_profile *p, unsigned idx, uint32_t addr, uint64_t *val);
/* The profile selected at reset: cap_prof_cur when HAS_PROFILES=1, else 0. */
unsigned cap_profile_reset_index(const cap_profile *p);
/* True for the CSRs a profile may set. */
bool cap_profile_is_discovery(uint32_t addr);
/* True for the advisory CSRs a runtime profile may vary (FEAT, TIER, HINT). */
bool cap_profile_is_advisory(uint32_t addr);

#endif
