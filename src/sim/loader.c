/* loader.c — ELF executables into guest RAM (see loader.h). All checks happen before
 * the first byte is copied, so a refused file leaves RAM untouched. */
#include "loader.h"
#include "sim_err.h"

#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint64_t lo, end; /* [lo, end) in guest memory, end computed without overflow */
    unsigned idx;
} span;

static int cmp_span(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return x->lo < y->lo ? -1 : (x->lo > y->lo ? 1 : 0);
}

int sim_load_elf(const char *path, sim_mem *mem, sim_image *img, char *err, size_t errlen)
{
    memset(img, 0, sizeof *img);
    xelf *e = xelf_open(path, err, errlen);
    if (!e) return -1;
    if (xelf_type(e) != ET_EXEC) {
        sim_errf(err, errlen, "%s: not an executable (ELF type %u; ET_EXEC needed)", path,
                 xelf_type(e));
        goto bad;
    }

    unsigned n = xelf_segment_count(e), nload = 0;
    span *spans = calloc(n ? n : 1, sizeof *spans);
    if (!spans) {
        sim_errf(err, errlen, "%s: out of memory", path);
        goto bad;
    }
    for (unsigned i = 0; i < n; i++) {
        const xelf_segment *s = xelf_segment_at(e, i);
        if (s->type != PT_LOAD || s->memsz == 0) continue;
        if (s->filesz > s->memsz) {
            sim_errf(err, errlen, "%s: segment %u: file size 0x%llx > memory size 0x%llx", path, i,
                     (unsigned long long)s->filesz, (unsigned long long)s->memsz);
            goto bad_spans;
        }
        if (!mem_ptr(mem, s->paddr, s->memsz)) {
            sim_errf(err, errlen, "%s: segment %u [0x%llx, +0x%llx) outside RAM [0x%llx, +0x%llx)",
                     path, i, (unsigned long long)s->paddr, (unsigned long long)s->memsz,
                     (unsigned long long)mem_base(mem), (unsigned long long)mem_size(mem));
            goto bad_spans;
        }
        spans[nload].lo = s->paddr;
        spans[nload].end = s->paddr + s->memsz; /* no overflow: mem_ptr succeeded */
        spans[nload].idx = i;
        nload++;
    }
    if (nload == 0) {
        sim_errf(err, errlen, "%s: no loadable segment", path);
        goto bad_spans;
    }
    qsort(spans, nload, sizeof *spans, cmp_span);
    for (unsigned k = 1; k < nload; k++) {
        if (spans[k].lo < spans[k - 1].end) {
            sim_errf(err, errlen, "%s: segments %u and %u overlap at 0x%llx", path,
                     spans[k - 1].idx, spans[k].idx, (unsigned long long)spans[k].lo);
            goto bad_spans;
        }
    }
    uint64_t entry = xelf_entry(e);
    if (!mem_ptr(mem, entry, 2)) {
        sim_errf(err, errlen, "%s: entry point 0x%llx outside RAM", path,
                 (unsigned long long)entry);
        goto bad_spans;
    }

    /* The HTIF mailboxes are 64-bit words the hart polls: a misaligned or out-of-RAM
     * tohost/fromhost is a broken program, refused like any other load error. */
    static const char *const mailbox[] = {"tohost", "fromhost"};
    for (unsigned k = 0; k < 2; k++) {
        const xelf_symbol *m = xelf_find_symbol(e, mailbox[k]);
        if (m && ((m->value & 7) || !mem_ptr(mem, m->value, 8))) {
            sim_errf(err, errlen, "%s: %s (0x%llx) is not an aligned 64-bit word in RAM", path,
                     mailbox[k], (unsigned long long)m->value);
            goto bad_spans;
        }
    }

    img->lo = spans[0].lo;
    img->hi = spans[0].end;
    for (unsigned k = 0; k < nload; k++) {
        const xelf_segment *s = xelf_segment_at(e, spans[k].idx);
        uint8_t *dst = mem_ptr(mem, s->paddr, s->memsz);
        memcpy(dst, s->data, s->filesz);
        memset(dst + s->filesz, 0, s->memsz - s->filesz);
        mem_note_write(mem, s->paddr, s->memsz);
        if (spans[k].end > img->hi) img->hi = spans[k].end;
    }
    free(spans);

    img->entry = entry;
    const xelf_symbol *t = xelf_find_symbol(e, "tohost");
    const xelf_symbol *f = xelf_find_symbol(e, "fromhost");
    if (t) {
        img->has_tohost = true;
        img->tohost = t->value;
    }
    if (f) {
        img->has_fromhost = true;
        img->fromhost = f->value;
    }
    img->elf = e;
    return 0;

bad_spans:
    free(spans);
bad:
    xelf_close(e);
    memset(img, 0, sizeof *img);
    return -1;
}

void sim_image_free(sim_image *img)
{
    if (!img) return;
    xelf_close(img->elf);
    memset(img, 0, sizeof *img);
}

const char *sim_image_symbol(const sim_image *img, uint64_t addr, uint64_t *off)
{
    if (!img || !img->elf) return NULL;
    const xelf *e = img->elf;
    /* Symbols are sorted by value: binary search for the last one <= addr, then walk
     * back over section/absolute/undefined and mapping symbols ($x, $d). */
    unsigned lo = 0, hi = xelf_symbol_count(e);
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (xelf_symbol_at(e, mid)->value <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    while (lo > 0) {
        const xelf_symbol *s = xelf_symbol_at(e, --lo);
        if (s->shndx == SHN_UNDEF || s->shndx == SHN_ABS || s->name[0] == '$') continue;
        if (s->type != STT_FUNC && s->type != STT_OBJECT && s->type != STT_NOTYPE) continue;
        if (off) *off = addr - s->value;
        return s->name;
    }
    return NULL;
}

int sim_place_args(sim_mem *mem, const sim_image *img, int argc, char *const *argv, uint64_t *sp,
                   char *err, size_t errlen)
{
    if (argc < 0) {
        sim_errf(err, errlen, "negative argument count");
        return -1;
    }
    uint64_t strbytes = 0;
    for (int i = 0; i < argc; i++)
        strbytes += strlen(argv[i]) + 1;
    /* argc + argv[] + NULL + envp NULL, 8 bytes each. */
    uint64_t vecbytes = 8 * ((uint64_t)argc + 3);
    uint64_t total = ((strbytes + 15) & ~15ULL) + ((vecbytes + 15) & ~15ULL);
    uint64_t top = (mem_base(mem) + mem_size(mem)) & ~15ULL;
    if (total > mem_size(mem) || top - mem_base(mem) < total) {
        sim_errf(err, errlen, "arguments (%llu bytes) do not fit in RAM",
                 (unsigned long long)total);
        return -1;
    }
    uint64_t strs = top - ((strbytes + 15) & ~15ULL);
    uint64_t base = strs - ((vecbytes + 15) & ~15ULL);
    if (img && img->elf && base < img->hi && top > img->lo) {
        sim_errf(err, errlen, "arguments (%llu bytes) overlap the program image",
                 (unsigned long long)total);
        return -1;
    }
    uint8_t *vec = mem_ptr(mem, base, top - base);
    if (!vec) {
        sim_errf(err, errlen, "arguments do not fit in RAM");
        return -1;
    }
    memset(vec, 0, top - base);
    uint64_t w = (uint64_t)argc;
    memcpy(vec, &w, 8); /* the host is little-endian like the guest */
    uint64_t p = strs;
    for (int i = 0; i < argc; i++) {
        size_t l = strlen(argv[i]) + 1;
        memcpy(vec + (p - base), argv[i], l);
        memcpy(vec + 8 * (1 + (uint64_t)i), &p, 8);
        p += l;
    }
    mem_note_write(mem, base, top - base);
    *sp = base;
    return 0;
}
