/* htif.c — the tohost/fromhost mailboxes (protocol in target/include/xphmg_htif.h).
 * The host reads tohost, clears it, performs the command and writes the answer to
 * fromhost, like Spike's front-end server; file syscalls are delegated to syscall.c. */
#include "htif.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../target/include/xphmg_htif.h" /* the ABI shared with the guest */
#include "sim_err.h"

struct htif {
    sim_mem *mem;
    uint64_t tohost, fromhost;
    xsys *sys;
    int in_fd, out_fd;
    char msg[160];
};

static int word_ok(sim_mem *m, uint64_t addr)
{
    return addr == 0 || ((addr & 7) == 0 && mem_ptr(m, addr, 8) != NULL);
}

static uint64_t rd64(sim_mem *m, uint64_t addr)
{
    uint64_t v;
    memcpy(&v, mem_ptr(m, addr, 8), 8); /* host and guest are both little-endian */
    return v;
}

static void wr64(sim_mem *m, uint64_t addr, uint64_t v)
{
    memcpy(mem_ptr(m, addr, 8), &v, 8);
    mem_note_write(m, addr, 8);
}

htif *htif_new(sim_mem *mem, uint64_t tohost, uint64_t fromhost, const char *dir, char *err,
               size_t errlen)
{
    if (!word_ok(mem, tohost) || !word_ok(mem, fromhost)) {
        sim_errf(err, errlen,
                 "htif: tohost (0x%llx) or fromhost (0x%llx) is not an aligned word "
                 "in RAM",
                 (unsigned long long)tohost, (unsigned long long)fromhost);
        return NULL;
    }
    htif *h = calloc(1, sizeof *h);
    if (!h) {
        sim_errf(err, errlen, "htif: out of memory");
        return NULL;
    }
    h->sys = xsys_new(mem, dir, err, errlen);
    if (!h->sys) {
        free(h);
        return NULL;
    }
    h->mem = mem;
    h->tohost = tohost;
    h->fromhost = fromhost;
    h->in_fd = 0;
    h->out_fd = 1;
    return h;
}

void htif_free(htif *h)
{
    if (!h) return;
    xsys_free(h->sys);
    free(h);
}

void htif_set_host_stat(htif *h, int host_stat)
{
    xsys_set_host_stat(h->sys, host_stat);
}

void htif_set_stdio(htif *h, int in_fd, int out_fd, int err_fd)
{
    h->in_fd = in_fd;
    h->out_fd = out_fd;
    xsys_set_stdio(h->sys, in_fd, out_fd, err_fd);
}

const char *htif_error(const htif *h)
{
    return h->msg;
}

static void answer(htif *h, uint64_t v)
{
    if (h->fromhost) wr64(h->mem, h->fromhost, v);
}

static int protocol_error(htif *h, int *exit_code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h->msg, sizeof h->msg, fmt, ap);
    va_end(ap);
    *exit_code = 1;
    return -1;
}

int htif_poll(htif *h, int *exit_code)
{
    if (!h || h->tohost == 0) return 0;
    uint64_t cmd = rd64(h->mem, h->tohost);
    if (cmd == 0) return 0;
    wr64(h->mem, h->tohost, 0);

    unsigned dev = (unsigned)(cmd >> 56), op = (unsigned)(cmd >> 48) & 0xff;
    uint64_t payload = cmd & 0xffffffffffffULL;

    if (dev == XHTIF_DEV_SYSCALL && op == 0) {
        if (payload & 1) {
            /* riscv-tests: exit status = payload >> 1. Statuses wider than int (never
             * produced by C programs) are clipped; the process status keeps the low 8 bits. */
            uint64_t code = payload >> 1;
            *exit_code = code > 0x7fffffff ? 0x7fffffff : (int)code;
            return 1;
        }
        uint8_t *blk = mem_ptr(h->mem, payload, 64);
        if (!blk)
            return protocol_error(h, exit_code, "htif: syscall block at 0x%llx is outside RAM",
                                  (unsigned long long)payload);
        uint64_t a[8];
        memcpy(a, blk, sizeof a);
        int exit_req = 0, code = 0;
        int64_t r = xsys_call(h->sys, a, &exit_req, &code);
        if (exit_req) {
            *exit_code = code;
            return 1;
        }
        /* The block may have been the target of a read(); re-check before writing. */
        blk = mem_ptr(h->mem, payload, 8);
        memcpy(blk, &r, 8);
        mem_note_write(h->mem, payload, 8);
        answer(h, 1);
        return 0;
    }
    if (dev == XHTIF_DEV_CONSOLE && op == 1) {
        unsigned char c = (unsigned char)payload;
        ssize_t w;
        do
            w = write(h->out_fd, &c, 1);
        while (w < 0 && errno == EINTR);
        answer(h, ((uint64_t)XHTIF_DEV_CONSOLE << 56) | (1ULL << 48));
        return 0;
    }
    if (dev == XHTIF_DEV_CONSOLE && op == 0) {
        unsigned char c;
        ssize_t r;
        do
            r = read(h->in_fd, &c, 1);
        while (r < 0 && errno == EINTR);
        uint64_t v = r == 1 ? c : 0xffffffffffffULL; /* end of input: all-ones payload */
        answer(h, ((uint64_t)XHTIF_DEV_CONSOLE << 56) | v);
        return 0;
    }
    return protocol_error(h, exit_code, "htif: unsupported command 0x%016llx (device %u, cmd %u)",
                          (unsigned long long)cmd, dev, op);
}
