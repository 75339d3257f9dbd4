/* isa_arena.c — bump allocator: a loaded spec is many small immutable objects
 * freed together, so one arena per spec keeps isa_free trivial and leak-free. */
#include <stdlib.h>
#include <string.h>

#include "isa_impl.h"

struct isa_arena_block {
    isa_arena_block *next;
    size_t used, size;
    max_align_t data[]; /* aligned storage */
};

/* Blocks grow from ARENA_FIRST to ARENA_CHUNK: a big spec costs a few more blocks, and
 * a small or refused one (most inputs of the fuzz_load target) no 256 KiB block, which
 * the allocator would map and fault in afresh each time. */
#define ARENA_FIRST ((size_t)4 * 1024)
#define ARENA_CHUNK ((size_t)256 * 1024)

void *isa_arena_alloc(isa_arena *a, size_t n)
{
    const size_t al = sizeof(max_align_t);
    n = (n + al - 1) / al * al;
    if (n == 0) n = al;
    isa_arena_block *b = a->head;
    if (!b || b->size - b->used < n) {
        size_t grow = a->head ? a->head->size * 2 : ARENA_FIRST;
        if (grow > ARENA_CHUNK) grow = ARENA_CHUNK;
        size_t sz = n > grow ? n : grow;
        b = malloc(sizeof(*b) + sz);
        if (!b) return NULL;
        b->size = sz;
        b->used = 0;
        /* a big private block goes behind the head so the head's free space stays usable */
        if (a->head && n > grow) {
            b->next = a->head->next;
            a->head->next = b;
        } else {
            b->next = a->head;
            a->head = b;
        }
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

char *isa_arena_strdup(isa_arena *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = isa_arena_alloc(a, n);
    if (p) memcpy(p, s, n);
    return p;
}

void isa_arena_free(isa_arena *a)
{
    isa_arena_block *b = a->head;
    while (b) {
        isa_arena_block *n = b->next;
        free(b);
        b = n;
    }
    a->head = NULL;
}
