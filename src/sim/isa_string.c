/* isa_string.c — Spike-syntax ISA strings (see isa_string.h). */
#include "isa_string.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <stdbool.h>
#include <strings.h>

#define BIT(c) (UINT64_C(1) << ((c) - 'a'))

int isa_string_parse(const char *s, uint64_t *misa, char *err, size_t errlen)
{
    if (strncasecmp(s, "rv64", 4)) {
        snprintf(err, errlen, "ISA string '%s' does not start with rv64", s);
        return -1;
    }
    uint64_t m = (UINT64_C(2) << 62) | BIT('u');
    const char *p = s + 4;
    for (; *p && *p != '_'; p++) {
        int c = tolower((unsigned char)*p);
        if (c == 'g')
            m |= BIT('i') | BIT('m') | BIT('a') | BIT('f') | BIT('d');
        else if (strchr("imafdcsu", c))
            m |= BIT(c);
        else {
            snprintf(err, errlen, "ISA string '%s': extension '%c' is not supported", s, *p);
            return -1;
        }
    }
    if (!(m & BIT('i'))) {
        snprintf(err, errlen, "ISA string '%s' has no I", s);
        return -1;
    }
    if ((m & BIT('d')) && !(m & BIT('f'))) {
        snprintf(err, errlen, "ISA string '%s': D needs F", s);
        return -1;
    }
    static const char *const always[] = {"zicsr", "zifencei", "zicntr",
                                         "zihpm", "zicclsm",  "zihintpause"};
    while (*p == '_') {
        const char *q = ++p;
        while (*p && *p != '_')
            p++;
        size_t n = (size_t)(p - q);
        bool known = false;
        for (unsigned i = 0; i < sizeof always / sizeof always[0]; i++)
            if (strlen(always[i]) == n && !strncasecmp(q, always[i], n)) known = true;
        if (n == 5 && !strncasecmp(q, "xphmg", 5)) {
            m |= BIT('x');
            known = true;
        }
        if (!known) {
            snprintf(err, errlen, "ISA string '%s': extension '%.*s' is not supported", s, (int)n,
                     q);
            return -1;
        }
    }
    *misa = m;
    return 0;
}
