/* A minimal page-mapped FTL in C: the yardstick for overprov-sim's hot loop (make bench).
 * Greedy GC via valid-count buckets, one host and one GC write frontier, sequential fill, then
 * uniform random single-page writes; the same algorithm and RNG family as the Rust core, with
 * none of its features (no policies, streams, wear levelling, stats, trims or validation).
 * Usage: ftl USER_PAGES RHO PAGES_PER_BLOCK DRIVE_WRITES  -> prints one JSON line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NIL UINT32_MAX
static uint32_t ppb, nblocks, *l2p, *p2l, *valid, *bprev, *bnext, *bhead, *freeq;
static uint8_t *closed;
static uint64_t *bitmap, host_pages, gc_pages, fq_head, fq_tail;
static uint32_t fb[2], fnext[2]; /* frontier block and next page: 0 host, 1 GC */
static uint64_t s[4];

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t next(void) { /* xoshiro256++ */
    uint64_t r = rotl(s[0] + s[3], 23) + s[0], t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
    return r;
}
static void link_b(uint32_t b, uint32_t v) {
    uint32_t h = bhead[v]; bprev[b] = NIL; bnext[b] = h; if (h != NIL) bprev[h] = b; bhead[v] = b;
}
static void unlink_b(uint32_t b, uint32_t v) {
    uint32_t p = bprev[b], n = bnext[b];
    if (p == NIL) bhead[v] = n; else bnext[p] = n;
    if (n != NIL) bprev[n] = p;
}
static uint64_t nfree(void) { return fq_tail - fq_head; }
static uint32_t program(int f);
static void gc(void) {
    while (nfree() <= 2) {
        uint32_t v = 0, b;
        while (bhead[v] == NIL) v++;
        b = bhead[v];
        unlink_b(b, v); closed[b] = 0;
        for (uint32_t p = b * ppb; p < (b + 1) * ppb; p++) {
            if (!(bitmap[p >> 6] >> (p & 63) & 1)) continue;
            uint32_t lpn = p2l[p], d = program(1);
            bitmap[p >> 6] &= ~(1ULL << (p & 63));
            l2p[lpn] = d; p2l[d] = lpn; bitmap[d >> 6] |= 1ULL << (d & 63); valid[d / ppb]++;
            gc_pages++;
        }
        valid[b] = 0;
        freeq[fq_tail++ % nblocks] = b;
    }
}
static uint32_t program(int f) {
    if (fnext[f] == ppb) {
        if (fb[f] != NIL) { closed[fb[f]] = 1; link_b(fb[f], valid[fb[f]]); }
        fb[f] = NIL;
        if (f == 0) gc();
        fb[f] = freeq[fq_head++ % nblocks]; fnext[f] = 0;
    }
    return fb[f] * ppb + fnext[f]++;
}
static inline void write_page(uint32_t lpn) {
    uint32_t old = l2p[lpn];
    if (old != NIL) {
        uint32_t b = old / ppb, v = valid[b];
        bitmap[old >> 6] &= ~(1ULL << (old & 63));
        valid[b] = v - 1;
        if (closed[b]) { unlink_b(b, v); link_b(b, v - 1); }
    }
    uint32_t p = program(0);
    l2p[lpn] = p; p2l[p] = lpn; bitmap[p >> 6] |= 1ULL << (p & 63); valid[p / ppb]++;
    host_pages++;
}
int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: ftl USER_PAGES RHO PPB DRIVE_WRITES\n"); return 2; }
    uint64_t user = strtoull(argv[1], 0, 10); double rho = atof(argv[2]), dw = atof(argv[4]);
    ppb = (uint32_t)atoi(argv[3]);
    uint64_t phys = (uint64_t)((double)user * (1 + rho) + 0.5);
    nblocks = (uint32_t)((phys + ppb - 1) / ppb); phys = (uint64_t)nblocks * ppb;
    l2p = malloc(user * 4); p2l = malloc(phys * 4); bitmap = calloc(phys / 64 + 1, 8);
    valid = calloc(nblocks, 4); bprev = malloc(nblocks * 4); bnext = malloc(nblocks * 4);
    bhead = malloc((ppb + 1) * 4); freeq = malloc(nblocks * 4); closed = calloc(nblocks, 1);
    for (uint64_t i = 0; i < user; i++) l2p[i] = NIL;
    for (uint32_t i = 0; i <= ppb; i++) bhead[i] = NIL;
    for (uint32_t b = 0; b < nblocks; b++) freeq[fq_tail++] = b;
    fb[0] = fb[1] = NIL; fnext[0] = fnext[1] = ppb;
    uint64_t z = 1; for (int i = 0; i < 4; i++) { /* splitmix64 seeding */
        z += 0x9E3779B97F4A7C15ULL; uint64_t x = z;
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL; x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
        s[i] = x ^ (x >> 31);
    }
    for (uint64_t i = 0; i < user; i++) write_page((uint32_t)i);
    uint64_t h0 = host_pages, g0 = gc_pages, n = (uint64_t)(dw * (double)user);
    struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
    for (uint64_t i = 0; i < n; i++)
        write_page((uint32_t)(((unsigned __int128)next() * user) >> 64));
    clock_gettime(CLOCK_MONOTONIC, &b);
    double secs = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
    uint64_t h = host_pages - h0, g = gc_pages - g0;
    printf("{\"host_writes\":%llu,\"nand_programs\":%llu,\"seconds\":%.4f,"
           "\"host_writes_per_s\":%.0f,\"nand_programs_per_s\":%.0f,\"waf\":%.4f}\n",
           (unsigned long long)h, (unsigned long long)(h + g), secs, h / secs, (h + g) / secs,
           (double)(h + g) / h);
    return 0;
}
