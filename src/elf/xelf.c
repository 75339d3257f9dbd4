/* xelf.c — RISC-V ELF64 reader over libelf.
 *
 * The file is copied into one buffer and opened with elf_memory, so every pointer the
 * API hands out (section and segment data, names) points into that buffer and lives as
 * long as the xelf. libelf does the decoding; before it is asked for anything, this
 * module checks what libelf does not promise to check for a hostile file: the header
 * fields, that the section and program header tables and every section's and segment's
 * bytes lie inside the file, and that every name index is inside its string table and
 * NUL-terminated there. */
#include "xelf.h"

#include <gelf.h>
#include <libelf.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

/* Files larger than this are refused instead of read (no real program comes close). */
#define XELF_MAX_FILE (1ULL << 31)

struct xelf {
    Elf *elf;
    uint8_t *buf; /* owned copy of the file */
    size_t len;
    GElf_Ehdr eh;
    xelf_section *secs;
    unsigned nsec;
    xelf_segment *segs;
    unsigned nseg;
    xelf_symbol *syms;
    unsigned nsym;
};

static void fail(char *err, size_t errlen, const char *name, const char *fmt, ...)
{
    if (!err || errlen == 0) return;
    int n = snprintf(err, errlen, "%s: ", name ? name : "(elf)");
    if (n < 0 || (size_t)n >= errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
}

/* [off, off+size) inside [0, len), without overflow. */
static int in_file(uint64_t off, uint64_t size, size_t len)
{
    return off <= len && size <= len - off;
}

/* A NUL-terminated string at index idx of string table section strsec, or NULL. */
static const char *str_at(const xelf *e, const GElf_Shdr *strsec, uint64_t idx)
{
    if (strsec->sh_type == SHT_NOBITS || idx >= strsec->sh_size) return NULL;
    const char *base = (const char *)e->buf + strsec->sh_offset;
    if (!memchr(base + idx, '\0', strsec->sh_size - idx)) return NULL;
    return base + idx;
}

static int cmp_sym(const void *a, const void *b)
{
    const xelf_symbol *x = a, *y = b;
    if (x->value != y->value) return x->value < y->value ? -1 : 1;
    int c = strcmp(x->name, y->name);
    if (c) return c;
    /* Same value and name: order by the remaining fields, so that the result does not
     * depend on qsort's internals (entries equal in all fields are interchangeable). */
    if (x->bind != y->bind) return x->bind > y->bind ? -1 : 1; /* globals first */
    if (x->type != y->type) return x->type < y->type ? -1 : 1;
    if (x->size != y->size) return x->size < y->size ? -1 : 1;
    return x->shndx < y->shndx ? -1 : (x->shndx > y->shndx ? 1 : 0);
}

static int check_header(xelf *e, const char *name, char *err, size_t errlen)
{
    const uint8_t *b = e->buf;
    if (e->len < EI_NIDENT || memcmp(b, ELFMAG, SELFMAG) != 0) {
        fail(err, errlen, name, "not an ELF file");
        return -1;
    }
    if (b[EI_CLASS] != ELFCLASS64) {
        fail(err, errlen, name, "not ELF64 (class %u); only RV64 is supported", b[EI_CLASS]);
        return -1;
    }
    if (b[EI_DATA] != ELFDATA2LSB) {
        fail(err, errlen, name, "not little-endian (data encoding %u)", b[EI_DATA]);
        return -1;
    }
    if (b[EI_VERSION] != EV_CURRENT) {
        fail(err, errlen, name, "unknown ELF version %u", b[EI_VERSION]);
        return -1;
    }
    if (e->len < sizeof(Elf64_Ehdr)) {
        fail(err, errlen, name, "truncated ELF header (%zu bytes)", e->len);
        return -1;
    }
    Elf64_Ehdr h;
    memcpy(&h, b, sizeof h);
    if (h.e_machine != EM_RISCV) {
        fail(err, errlen, name, "not a RISC-V file (e_machine %u)", h.e_machine);
        return -1;
    }
    if (h.e_ehsize != sizeof(Elf64_Ehdr)) {
        fail(err, errlen, name, "bad e_ehsize %u", h.e_ehsize);
        return -1;
    }

    /* Program header table first (PN_XNUM: its count is in section 0's sh_info). */
    uint64_t phnum = h.e_phnum, shnum = h.e_shnum;
    Elf64_Shdr sh0;
    int have_sh0 = 0;
    if (h.e_shoff != 0 && in_file(h.e_shoff, sizeof(Elf64_Shdr), e->len)) {
        memcpy(&sh0, b + h.e_shoff, sizeof sh0);
        have_sh0 = 1;
    }
    if (phnum == PN_XNUM) {
        if (!have_sh0) {
            fail(err, errlen, name, "PN_XNUM without a readable section 0");
            return -1;
        }
        phnum = sh0.sh_info;
    }
    if (phnum) {
        if (h.e_phentsize != sizeof(Elf64_Phdr)) {
            fail(err, errlen, name, "bad e_phentsize %u", h.e_phentsize);
            return -1;
        }
        if (!in_file(h.e_phoff, phnum * sizeof(Elf64_Phdr), e->len)) {
            fail(err, errlen, name,
                 "program header table outside the file (e_phoff 0x%llx, %llu entries)",
                 (unsigned long long)h.e_phoff, (unsigned long long)phnum);
            return -1;
        }
    }
    if (h.e_shoff != 0 && !have_sh0) {
        fail(err, errlen, name, "section header table outside the file (e_shoff 0x%llx)",
             (unsigned long long)h.e_shoff);
        return -1;
    }
    if (have_sh0) {
        if (shnum == 0) shnum = sh0.sh_size; /* extended numbering */
        if (h.e_shentsize != sizeof(Elf64_Shdr)) {
            fail(err, errlen, name, "bad e_shentsize %u", h.e_shentsize);
            return -1;
        }
        if (shnum > e->len / sizeof(Elf64_Shdr) ||
            !in_file(h.e_shoff, shnum * sizeof(Elf64_Shdr), e->len)) {
            fail(err, errlen, name,
                 "section header table outside the file (e_shoff 0x%llx, %llu entries)",
                 (unsigned long long)h.e_shoff, (unsigned long long)shnum);
            return -1;
        }
        uint64_t shstrndx = h.e_shstrndx == SHN_XINDEX ? sh0.sh_link : h.e_shstrndx;
        if (shstrndx != SHN_UNDEF && shstrndx >= shnum) {
            fail(err, errlen, name, "section name table index %llu out of range",
                 (unsigned long long)shstrndx);
            return -1;
        }
    } else if (shnum) {
        fail(err, errlen, name, "e_shnum %llu without a section header table",
             (unsigned long long)shnum);
        return -1;
    }
    return 0;
}

static int load_sections(xelf *e, const char *name, char *err, size_t errlen)
{
    size_t n, strndx;
    if (elf_getshdrnum(e->elf, &n) != 0 || elf_getshdrstrndx(e->elf, &strndx) != 0) {
        fail(err, errlen, name, "bad section header table: %s", elf_errmsg(-1));
        return -1;
    }
    if (n == 0) return 0;
    GElf_Shdr strsh;
    memset(&strsh, 0, sizeof strsh);
    int have_names = 0;
    if (strndx != SHN_UNDEF) {
        Elf_Scn *s = elf_getscn(e->elf, strndx);
        if (!s || !gelf_getshdr(s, &strsh)) {
            fail(err, errlen, name, "cannot read the section name table");
            return -1;
        }
        if (strsh.sh_type != SHT_STRTAB || !in_file(strsh.sh_offset, strsh.sh_size, e->len)) {
            fail(err, errlen, name, "section name table is not a string table in the file");
            return -1;
        }
        have_names = 1;
    }
    e->secs = calloc(n, sizeof *e->secs);
    if (!e->secs) {
        fail(err, errlen, name, "out of memory");
        return -1;
    }
    e->nsec = (unsigned)n;
    for (size_t i = 0; i < n; i++) {
        Elf_Scn *s = elf_getscn(e->elf, i);
        GElf_Shdr sh;
        if (!s || !gelf_getshdr(s, &sh)) {
            fail(err, errlen, name, "cannot read section header %zu", i);
            return -1;
        }
        xelf_section *x = &e->secs[i];
        x->name = "";
        if (have_names) {
            x->name = str_at(e, &strsh, sh.sh_name);
            if (!x->name) {
                fail(err, errlen, name, "section %zu: name index %u out of range", i, sh.sh_name);
                return -1;
            }
        } else if (sh.sh_name != 0) {
            fail(err, errlen, name, "section %zu has a name but there is no name table", i);
            return -1;
        }
        x->addr = sh.sh_addr;
        x->size = sh.sh_size;
        x->offset = sh.sh_offset;
        x->type = sh.sh_type;
        x->flags = sh.sh_flags;
        x->data = NULL;
        if (sh.sh_type != SHT_NOBITS && sh.sh_type != SHT_NULL) {
            if (!in_file(sh.sh_offset, sh.sh_size, e->len)) {
                fail(err, errlen, name,
                     "section %zu (%s) outside the file (offset 0x%llx size 0x%llx)", i, x->name,
                     (unsigned long long)sh.sh_offset, (unsigned long long)sh.sh_size);
                return -1;
            }
            x->data = e->buf + sh.sh_offset;
        }
    }
    return 0;
}

static int load_segments(xelf *e, const char *name, char *err, size_t errlen)
{
    size_t n;
    if (elf_getphdrnum(e->elf, &n) != 0) {
        fail(err, errlen, name, "bad program header table: %s", elf_errmsg(-1));
        return -1;
    }
    if (n == 0) return 0;
    e->segs = calloc(n, sizeof *e->segs);
    if (!e->segs) {
        fail(err, errlen, name, "out of memory");
        return -1;
    }
    e->nseg = (unsigned)n;
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(e->elf, (int)i, &ph)) {
            fail(err, errlen, name, "cannot read program header %zu", i);
            return -1;
        }
        if (!in_file(ph.p_offset, ph.p_filesz, e->len)) {
            fail(err, errlen, name, "segment %zu outside the file (offset 0x%llx filesz 0x%llx)", i,
                 (unsigned long long)ph.p_offset, (unsigned long long)ph.p_filesz);
            return -1;
        }
        xelf_segment *x = &e->segs[i];
        x->type = ph.p_type;
        x->flags = ph.p_flags;
        x->vaddr = ph.p_vaddr;
        x->paddr = ph.p_paddr;
        x->filesz = ph.p_filesz;
        x->memsz = ph.p_memsz;
        x->data = e->buf + ph.p_offset;
    }
    return 0;
}

/* The symbols of every SHT_SYMTAB section (there is at most one in practice), without
 * the null symbol, section and file symbols. */
static int load_symbols(xelf *e, const char *name, char *err, size_t errlen)
{
    size_t total = 0;
    for (unsigned i = 0; i < e->nsec; i++)
        if (e->secs[i].type == SHT_SYMTAB) total += e->secs[i].size / sizeof(Elf64_Sym);
    if (total == 0) return 0;
    e->syms = calloc(total, sizeof *e->syms);
    if (!e->syms) {
        fail(err, errlen, name, "out of memory");
        return -1;
    }
    for (unsigned i = 0; i < e->nsec; i++) {
        if (e->secs[i].type != SHT_SYMTAB) continue;
        Elf_Scn *s = elf_getscn(e->elf, i);
        GElf_Shdr sh, strsh;
        if (!s || !gelf_getshdr(s, &sh)) {
            fail(err, errlen, name, "cannot read symbol table %u", i);
            return -1;
        }
        if (sh.sh_entsize != sizeof(Elf64_Sym) || sh.sh_size % sizeof(Elf64_Sym) != 0) {
            fail(err, errlen, name, "symbol table %u: bad entry size", i);
            return -1;
        }
        Elf_Scn *ss = sh.sh_link < e->nsec ? elf_getscn(e->elf, sh.sh_link) : NULL;
        if (!ss || !gelf_getshdr(ss, &strsh) || strsh.sh_type != SHT_STRTAB) {
            fail(err, errlen, name, "symbol table %u: string table index %u invalid", i,
                 sh.sh_link);
            return -1;
        }
        Elf_Data *d = elf_getdata(s, NULL);
        if (!d || d->d_size < sh.sh_size) {
            fail(err, errlen, name, "symbol table %u: cannot read data", i);
            return -1;
        }
        size_t cnt = sh.sh_size / sizeof(Elf64_Sym);
        for (size_t k = 1; k < cnt; k++) {
            GElf_Sym sym;
            if (!gelf_getsym(d, (int)k, &sym)) {
                fail(err, errlen, name, "symbol %zu of table %u unreadable", k, i);
                return -1;
            }
            const char *nm = str_at(e, &strsh, sym.st_name);
            if (!nm) {
                fail(err, errlen, name, "symbol %zu: name index %u out of range", k, sym.st_name);
                return -1;
            }
            unsigned char type = GELF_ST_TYPE(sym.st_info);
            if (type == STT_SECTION || type == STT_FILE || nm[0] == '\0') continue;
            xelf_symbol *x = &e->syms[e->nsym++];
            x->name = nm;
            x->value = sym.st_value;
            x->size = sym.st_size;
            x->type = type;
            x->bind = GELF_ST_BIND(sym.st_info);
            x->shndx = sym.st_shndx;
        }
    }
    qsort(e->syms, e->nsym, sizeof *e->syms, cmp_sym);
    return 0;
}

/* Takes ownership of buf (malloc'd). */
static xelf *open_owned(uint8_t *buf, size_t len, const char *name, char *err, size_t errlen)
{
    xelf *e = calloc(1, sizeof *e);
    if (!e) {
        free(buf);
        fail(err, errlen, name, "out of memory");
        return NULL;
    }
    e->buf = buf;
    e->len = len;
    if (check_header(e, name, err, errlen) != 0) goto bad;
    if (elf_version(EV_CURRENT) == EV_NONE) {
        fail(err, errlen, name, "libelf initialisation failed");
        goto bad;
    }
    e->elf = elf_memory((char *)e->buf, e->len);
    if (!e->elf || elf_kind(e->elf) != ELF_K_ELF || !gelf_getehdr(e->elf, &e->eh)) {
        fail(err, errlen, name, "libelf cannot read it: %s", elf_errmsg(-1));
        goto bad;
    }
    if (load_sections(e, name, err, errlen) != 0 || load_segments(e, name, err, errlen) != 0 ||
        load_symbols(e, name, err, errlen) != 0)
        goto bad;
    return e;
bad:
    xelf_close(e);
    return NULL;
}

xelf *xelf_open_memory(const void *buf, size_t len, const char *name, char *err, size_t errlen)
{
    if (!buf && len) {
        fail(err, errlen, name, "no buffer");
        return NULL;
    }
    /* A private copy: libelf's elf_memory takes a writable pointer, and the caller's
     * buffer may be read-only. */
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) {
        fail(err, errlen, name, "out of memory");
        return NULL;
    }
    if (len) memcpy(copy, buf, len);
    return open_owned(copy, len, name, err, errlen);
}

xelf *xelf_open(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fail(err, errlen, path, "%s", strerror(errno));
        return NULL;
    }
    /* Only regular files: a FIFO or device could block or never end. */
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fail(err, errlen, path, "not a regular file");
        fclose(f);
        return NULL;
    }
    if ((unsigned long long)st.st_size > XELF_MAX_FILE) {
        fail(err, errlen, path, "file too large (%lld bytes)", (long long)st.st_size);
        fclose(f);
        return NULL;
    }
    size_t len = 0, cap = (size_t)st.st_size + 1; /* +1: EOF is seen without a realloc */
    uint8_t *buf = malloc(cap);
    if (!buf) {
        fail(err, errlen, path, "out of memory");
        fclose(f);
        return NULL;
    }
    for (;;) {
        if (len == cap) { /* the file grew while being read */
            if (cap >= XELF_MAX_FILE) {
                fail(err, errlen, path, "file too large");
                goto bad;
            }
            size_t ncap = cap * 2;
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) {
                fail(err, errlen, path, "out of memory");
                goto bad;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        fail(err, errlen, path, "read error");
        goto bad;
    }
    fclose(f);
    return open_owned(buf, len, path, err, errlen);
bad:
    free(buf);
    fclose(f);
    return NULL;
}

void xelf_close(xelf *e)
{
    if (!e) return;
    if (e->elf) elf_end(e->elf);
    free(e->secs);
    free(e->segs);
    free(e->syms);
    free(e->buf);
    free(e);
}

uint64_t xelf_entry(const xelf *e)
{
    return e->eh.e_entry;
}
uint16_t xelf_type(const xelf *e)
{
    return e->eh.e_type;
}
uint32_t xelf_flags(const xelf *e)
{
    return e->eh.e_flags;
}

unsigned xelf_section_count(const xelf *e)
{
    return e->nsec;
}
const xelf_section *xelf_section_at(const xelf *e, unsigned i)
{
    return i < e->nsec ? &e->secs[i] : NULL;
}
unsigned xelf_segment_count(const xelf *e)
{
    return e->nseg;
}
const xelf_segment *xelf_segment_at(const xelf *e, unsigned i)
{
    return i < e->nseg ? &e->segs[i] : NULL;
}
unsigned xelf_symbol_count(const xelf *e)
{
    return e->nsym;
}
const xelf_symbol *xelf_symbol_at(const xelf *e, unsigned i)
{
    return i < e->nsym ? &e->syms[i] : NULL;
}

/* Global symbols win over locals of the same name (a program's `tohost` is global). */
const xelf_symbol *xelf_find_symbol(const xelf *e, const char *name)
{
    const xelf_symbol *found = NULL;
    for (unsigned i = 0; i < e->nsym; i++) {
        if (strcmp(e->syms[i].name, name) != 0) continue;
        if (e->syms[i].bind != STB_LOCAL) return &e->syms[i];
        if (!found) found = &e->syms[i];
    }
    return found;
}
