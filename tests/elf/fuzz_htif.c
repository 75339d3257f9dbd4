/* fuzz_htif.c — libFuzzer target for the HTIF mailbox and syscall proxy: the input is
 * the guest's RAM (repeated to fill 64 KiB) and its first word the tohost command. The
 * host may answer or refuse, never read or write outside RAM or outside its scratch
 * directory. Built only with -DXPHMG_FUZZ=ON; test_htif's test_random is the
 * deterministic counterpart in the normal build. */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "htif.h"
#include "mem.h"

#define BASE 0x80000000ULL
#define SIZE 0x10000ULL

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static sim_mem *m;
    static htif *h;
    if (!m) {
        static char dir[] = "/tmp/xphmg-fuzz-htif-XXXXXX";
        if (!mkdtemp(dir)) abort();
        m = mem_new(BASE, SIZE);
        char err[200];
        h = htif_new(m, BASE + 0x1000, BASE + 0x1040, dir, err, sizeof err);
        if (!m || !h) abort();
        int in = open("/dev/null", O_RDONLY), out = open("/dev/null", O_WRONLY);
        htif_set_stdio(h, in, out, out);
    }
    if (size < 8) return 0;
    uint8_t *ram = mem_ptr(m, BASE, SIZE);
    for (uint64_t off = 0; off < SIZE; off += size)
        memcpy(ram + off, data, SIZE - off < size ? SIZE - off : size);
    uint64_t cmd;
    memcpy(&cmd, data, 8);
    /* Syscall blocks point into RAM most of the time, so the proxy does real work. */
    if ((cmd >> 56) == 0 && !(cmd & 1)) cmd = BASE + (cmd % (SIZE - 64) & ~7ULL);
    memcpy(ram + 0x1000, &cmd, 8);
    int code;
    (void)htif_poll(h, &code);
    return 0;
}
