/* commitlog.c — one line per retired instruction in Spike's --log-commits format, so
 * traces can be diffed against Spike's:
 *   core   0: 3 0x0000000080000000 (0x00000297) x5  0x0000000080000000
 *   core   0: 3 0x0000000080000010 (0x00b52023) mem 0x0000000080001000 0x00000005
 * privilege, pc, instruction bits (4 hex digits for a compressed one), then the
 * architectural writes ordered as Spike orders them (x registers by number, f registers
 * after the x register of the same number, CSRs by address, all by key reg*16+type), then
 * the memory reads (" mem ADDR") and writes (" mem ADDR VALUE", VALUE as wide as the
 * access). Writes to x0 are not shown, as in Spike. A trap retires nothing; it prints
 * Spike's exception line (and the tval line for the causes that have one). */
#include <inttypes.h>
#include <string.h>

#include "hart_int.h"

void hart_trace_mem(hart *h, uint64_t a, unsigned n, uint64_t v, bool store)
{
    if (h->trace_nmem >= 4) return;
    h->trace_mem[h->trace_nmem].addr = a;
    h->trace_mem[h->trace_nmem].val = n < 8 ? v & ((UINT64_C(1) << (8 * n)) - 1) : v;
    h->trace_mem[h->trace_nmem].size = (uint8_t)n;
    h->trace_mem[h->trace_nmem].store = store;
    h->trace_nmem++;
}

typedef struct {
    uint32_t key;
    uint64_t val;
} wentry;

/* A line of the log, built here and written with one call: a formatted write per field
 * was most of the commit-log loop's time (a line per instruction). Each field checks for
 * room once; a line is at most about 2,300 characters (a memory value is as wide as its
 * access, at most 255 bytes). */
typedef struct {
    char c[4096];
    size_t n;
} line;

static bool room(const line *l, size_t n)
{
    return sizeof l->c - l->n >= n;
}

static void put_c(line *l, char ch)
{
    if (room(l, 1)) l->c[l->n++] = ch;
}

static void put_s(line *l, const char *s)
{
    size_t n = strlen(s);
    if (!room(l, n)) return;
    memcpy(l->c + l->n, s, n);
    l->n += n;
}

/* v in decimal, at least `width` characters: spaces before it (pad_left) or after. */
static void put_dec(line *l, uint64_t v, unsigned width, bool pad_left)
{
    char d[20];
    unsigned k = 0;
    do
        d[k++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    unsigned pad = width > k ? width - k : 0;
    if (!room(l, k + pad)) return;
    char *p = l->c + l->n;
    l->n += k + pad;
    if (pad_left)
        for (; pad; pad--)
            *p++ = ' ';
    while (k)
        *p++ = d[--k];
    for (; pad; pad--)
        *p++ = ' ';
}

/* "0x", then v in lower-case hex, zero-padded to at least `digits` digits. */
static void put_hex(line *l, uint64_t v, unsigned digits)
{
    unsigned k = 1;
    while (k < 16 && v >> 4 * k)
        k++;
    unsigned w = digits > k ? digits : k;
    if (!room(l, 2 + w)) return;
    char *p = l->c + l->n;
    l->n += 2 + w;
    *p++ = '0';
    *p++ = 'x';
    for (unsigned i = w; i > 0; i--)
        *p++ = i > k ? '0' : "0123456789abcdef"[(v >> 4 * (i - 1)) & 15];
}

void hart_commit_log(hart *h, const hart_insn *d, uint64_t pc, unsigned priv)
{
    line l;
    l.n = 0;
    put_s(&l, "core   0: ");
    put_dec(&l, priv, 0, true);
    put_c(&l, ' ');
    put_hex(&l, pc, 16);
    put_s(&l, " (");
    if (d->len == 2)
        put_hex(&l, d->bits & 0xffff, 4);
    else
        put_hex(&l, d->bits, 8);
    put_c(&l, ')');

    wentry w[8];
    unsigned n = 0;
    if (d->wr == HART_WR_X && d->rd != 0)
        w[n++] = (wentry){(uint32_t)d->rd << 4, h->x[d->rd]};
    else if (d->wr == HART_WR_F)
        w[n++] = (wentry){(uint32_t)d->rd << 4 | 1, h->f[d->rd]};
    for (unsigned i = 0; i < h->trace_ncsr; i++)
        w[n++] = (wentry){(uint32_t)h->trace_csr[i].addr << 4 | 4, h->trace_csr[i].val};
    for (unsigned i = 1; i < n; i++) /* insertion sort: at most five entries */
        for (unsigned j = i; j > 0 && w[j - 1].key > w[j].key; j--) {
            wentry t = w[j];
            w[j] = w[j - 1];
            w[j - 1] = t;
        }
    for (unsigned i = 0; i < n; i++) {
        unsigned type = w[i].key & 15, num = w[i].key >> 4;
        if (type == 4) {
            const char *name = hart_csr_name(num);
            put_s(&l, " c");
            put_dec(&l, num, 0, true);
            put_c(&l, '_');
            put_s(&l, name ? name : "unknown");
        } else {
            put_c(&l, ' ');
            put_c(&l, type ? 'f' : 'x');
            put_dec(&l, num, 2, false);
        }
        put_c(&l, ' ');
        put_hex(&l, w[i].val, 16);
    }
    for (int pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < h->trace_nmem; i++) {
            if (h->trace_mem[i].store != (pass == 1)) continue;
            put_s(&l, " mem ");
            put_hex(&l, h->trace_mem[i].addr, 16);
            if (pass) {
                put_c(&l, ' ');
                put_hex(&l, h->trace_mem[i].val, h->trace_mem[i].size * 2u);
            }
        }
    put_c(&l, '\n');
    fwrite(l.c, 1, l.n, h->log);
}

void hart_log_trap(hart *h, uint64_t cause, uint64_t epc, uint64_t tval)
{
    static const char *const names[16] = {
        "trap_instruction_address_misaligned",
        "trap_instruction_access_fault",
        "trap_illegal_instruction",
        "trap_breakpoint",
        "trap_load_address_misaligned",
        "trap_load_access_fault",
        "trap_store_address_misaligned",
        "trap_store_access_fault",
        "trap_user_ecall",
        "trap_supervisor_ecall",
        NULL,
        "trap_machine_ecall",
        "trap_instruction_page_fault",
        "trap_load_page_fault",
        NULL,
        "trap_store_page_fault",
    };
    FILE *f = h->log;
    uint64_t n = cause & ~(UINT64_C(1) << 63);
    if (cause >> 63)
        fprintf(f, "core %3d: exception interrupt #%" PRIu64, 0, n);
    else if (n < 16 && names[n])
        fprintf(f, "core %3d: exception %s", 0, names[n]);
    else
        fprintf(f, "core %3d: exception trap #%" PRIu64, 0, n);
    fprintf(f, ", epc 0x%016" PRIx64 "\n", epc);
    /* Spike shows tval for every synchronous cause except the environment calls. */
    if (!(cause >> 63) && n != CAUSE_ECALL_U && n != CAUSE_ECALL_S && n != CAUSE_ECALL_M)
        fprintf(f, "core %3d:           tval 0x%016" PRIx64 "\n", 0, tval);
}
