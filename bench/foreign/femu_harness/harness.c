/*
 * femu-bbssd-harness: FEMU's black-box SSD FTL (hw/femu/bbssd/ftl.c at femu-v9.0.1, unmodified,
 * included below with its pqueue library) driven in simulated time by a closed-loop host.
 *
 * The host keeps --qd 4 KiB writes outstanding. Each is submitted when a slot frees, at that
 * time (FEMU's req->stime), to ssd_write, which returns its latency as FEMU computes it (the
 * latest completion over its pages on their LUNs' next-available times, foreground GC
 * first); it completes at stime + latency (FEMU's expire_time). After each request the
 * FTL's background check runs, as FEMU's ftl_thread does after each request it handles:
 * `if (should_gc(ssd)) do_gc(ssd, false);`. FEMU's clock (qemu_clock_get_ns, used by its
 * GC operations) is the simulated time of the request being handled.
 *
 * Writes are uniform random 4 KiB pages over the first --span-pages pages of the user space
 * (splitmix64, --seed). Every --report-every host pages the harness prints one line of
 * cumulative counters read from the FTL's own state (nothing in ftl.c is changed to count):
 *   R host_pages t_ns nand_pages erases free_lines
 * With --workload FILE the writes are instead the file's phases, one a line, in order:
 *   seq START COUNT          COUNT pages from page START on, in order
 *   rand OFFSET SIZE COUNT   COUNT uniform random pages of [OFFSET, OFFSET + SIZE)
 *   qd N                     wait for every write outstanding, then keep N outstanding
 *                            (a new host job, as fio starts one a round; its P line's time is
 *                            the last completion)
 *   until OFFSET SIZE T_NS   uniform random pages of [OFFSET, OFFSET + SIZE), each submitted
 *                            while the simulated time it would be submitted at (a slot
 *                            freeing) is before T_NS: a timed fio job that stops issuing at its
 *                            runtime (the writes outstanding then finish at the next `qd`)
 *   trim START COUNT         unmap COUNT pages from page START on (a DSM deallocate: FEMU's
 *                            ftl_thread answers DSM with no FTL change, so the harness does
 *                            what ssd_write does to a page it overwrites, without the write)
 * (calibrate's plan as rounds: femu_onset.py --fill writes them; femu_target.py runs
 * calibrate's rounds through them, reading --workload /dev/stdin as it goes), each followed by
 * the same counters as a `P` line (a round's write counters), flushed; --host-pages is then
 * not used.
 * nand_pages (every page programmed, host and GC) = erases x pages per block + pages of the
 * lines written since their last erase: the full lines in use and the open line up to the
 * write pointer (GC erases whole lines that were written full). GC copies = nand_pages -
 * host_pages, lines collected = erases / blocks per line.
 *
 * Build (FEMU_SRC: a folder holding FEMU's hw/femu/{bbssd/ftl.c,bbssd/ftl.h,lib/pqueue.c,
 * inc/pqueue.h}, e.g. `git archive femu-v9.0.1 hw/femu/bbssd hw/femu/lib/pqueue.c
 * hw/femu/inc/pqueue.h | tar -x -C FEMU_SRC`): see build.sh.
 */
#include "nvme.h"

uint64_t femu_sim_now_ns;

#include "bbssd/ftl.c"

#include <string.h>

static uint64_t rng_state;

static uint64_t splitmix64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* completion-time min-heap of the QD slots */
static uint64_t *heap;
static int heap_n;

static void heap_push(uint64_t t)
{
    int i = heap_n++;
    while (i > 0 && heap[(i - 1) / 2] > t) {
        heap[i] = heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    heap[i] = t;
}

static uint64_t heap_pop(void)
{
    uint64_t top = heap[0], last = heap[--heap_n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= heap_n) {
            break;
        }
        if (c + 1 < heap_n && heap[c + 1] < heap[c]) {
            c++;
        }
        if (heap[c] >= last) {
            break;
        }
        heap[i] = heap[c];
        i = c;
    }
    if (heap_n > 0) {
        heap[i] = last;
    }
    return top;
}

static uint64_t erases_of(struct ssd *ssd)
{
    struct ssdparams *spp = &ssd->sp;
    uint64_t erases = 0;
    for (int c = 0; c < spp->nchs; c++) {
        for (int l = 0; l < spp->luns_per_ch; l++) {
            struct nand_plane *pl = &ssd->ch[c].lun[l].pl[0];
            for (int b = 0; b < pl->nblks; b++) {
                erases += pl->blk[b].erase_cnt;
            }
        }
    }
    return erases;
}

static uint64_t nand_pages(struct ssd *ssd)
{
    struct ssdparams *spp = &ssd->sp;
    struct write_pointer *wp = &ssd->wp;
    uint64_t full_lines = spp->tt_lines - ssd->lm.free_line_cnt - 1; /* less the open line */
    uint64_t open = (uint64_t)wp->pg * spp->tt_luns + (uint64_t)wp->lun * spp->nchs + wp->ch;
    return erases_of(ssd) * spp->pgs_per_blk + full_lines * spp->pgs_per_line + open;
}

static uint64_t host_done;

/* one 4 KiB host write of page lpn, as the closed loop submits it (see the top) */
static void host_write(struct ssd *ssd, NvmeRequest *req, uint64_t lpn)
{
    uint64_t now = heap_pop();
    femu_sim_now_ns = now;
    req->slba = lpn * (uint64_t)ssd->sp.secs_per_pg;
    req->expire_time = req->stime = (int64_t)now;
    uint64_t lat = ssd_write(ssd, req);
    req->reqlat = (int64_t)lat;
    req->expire_time += (int64_t)lat;
    heap_push(now + lat);
    /* ftl_thread: clean one line if needed (in the background) */
    if (should_gc(ssd)) {
        do_gc(ssd, false);
    }
    host_done++;
}

static void report(struct ssd *ssd, char kind)
{
    printf("%c %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %d\n", kind, host_done,
           femu_sim_now_ns, nand_pages(ssd), erases_of(ssd), ssd->lm.free_line_cnt);
}

static void usage(void)
{
    fprintf(stderr,
            "usage: femu-bbssd-harness --span-pages N --host-pages N --qd N --report-every N\n"
            "  [--seed N] [--nchs 8] [--luns-per-ch 8] [--pgs-per-blk 256] [--blks-per-pl 256]\n"
            "  [--pg-rd-lat 40000] [--pg-wr-lat 200000] [--blk-er-lat 2000000]\n"
            "  [--gc-thres-pcent 75] [--gc-thres-pcent-high 95] [--workload FILE]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    /* FEMU's defaults (hw/femu/femu.c properties, femu-scripts/run-blackbox.sh) */
    BbCtrlParams bb = {
        .secsz = 512, .secs_per_pg = 8, .pgs_per_blk = 256, .blks_per_pl = 256,
        .pls_per_lun = 1, .luns_per_ch = 8, .nchs = 8,
        .pg_rd_lat = 40000, .pg_wr_lat = 200000, .blk_er_lat = 2000000, .ch_xfer_lat = 0,
        .gc_thres_pcent = 75, .gc_thres_pcent_high = 95,
    };
    uint64_t span = 0, host_total = 0, report_every = 0, seed = 1;
    int qd = 0;
    const char *workload = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc) {
            usage();
        }
        if (!strcmp(a, "--workload")) {
            workload = argv[++i];
            continue;
        }
        uint64_t v = strtoull(argv[++i], NULL, 10);
        if (!strcmp(a, "--span-pages")) span = v;
        else if (!strcmp(a, "--host-pages")) host_total = v;
        else if (!strcmp(a, "--qd")) qd = (int)v;
        else if (!strcmp(a, "--report-every")) report_every = v;
        else if (!strcmp(a, "--seed")) seed = v;
        else if (!strcmp(a, "--nchs")) bb.nchs = (int)v;
        else if (!strcmp(a, "--luns-per-ch")) bb.luns_per_ch = (int)v;
        else if (!strcmp(a, "--pgs-per-blk")) bb.pgs_per_blk = (int)v;
        else if (!strcmp(a, "--blks-per-pl")) bb.blks_per_pl = (int)v;
        else if (!strcmp(a, "--pg-rd-lat")) bb.pg_rd_lat = (int)v;
        else if (!strcmp(a, "--pg-wr-lat")) bb.pg_wr_lat = (int)v;
        else if (!strcmp(a, "--blk-er-lat")) bb.blk_er_lat = (int)v;
        else if (!strcmp(a, "--gc-thres-pcent")) bb.gc_thres_pcent = (int)v;
        else if (!strcmp(a, "--gc-thres-pcent-high")) bb.gc_thres_pcent_high = (int)v;
        else usage();
    }
    if (!span || (!host_total && !workload) || qd < 1 || !report_every) {
        usage();
    }

    FemuCtrl n;
    memset(&n, 0, sizeof(n));
    n.bb_params = bb;
    /* bb_init (hw/femu/bbssd/bb.c) */
    struct ssd *ssd = n.ssd = g_malloc0(sizeof(struct ssd));
    ssd->dataplane_started_ptr = &n.dataplane_started;
    ssd->ssdname = "femu-standalone";
    ssd_init(&n);
    struct ssdparams *spp = &ssd->sp;
    if (span > (uint64_t)spp->tt_pgs) {
        fprintf(stderr, "span %" PRIu64 " pages exceeds the NAND's %d\n", span, spp->tt_pgs);
        return 2;
    }
    printf("G tt_pgs %d pgs_per_line %d tt_lines %d tt_luns %d gc_thres_lines %d "
           "gc_thres_lines_high %d span %" PRIu64 " qd %d seed %" PRIu64 "\n",
           spp->tt_pgs, spp->pgs_per_line, spp->tt_lines, spp->tt_luns, spp->gc_thres_lines,
           spp->gc_thres_lines_high, span, qd, seed);

    rng_state = seed;
    heap = g_malloc0(sizeof(uint64_t) * (size_t)qd);
    for (int i = 0; i < qd; i++) {
        heap_push(0);
    }
    NvmeRequest req;
    memset(&req, 0, sizeof(req));
    req.cmd.opcode = NVME_CMD_WRITE;
    req.nlb = (uint16_t)spp->secs_per_pg;
    printf("R 0 0 0 0 %d\n", ssd->lm.free_line_cnt);
    fflush(stdout);
    if (!workload) {
        for (uint64_t h = 1; h <= host_total; h++) {
            host_write(ssd, &req, splitmix64() % span);
            if (h % report_every == 0) {
                report(ssd, 'R');
                fflush(stdout);
            }
        }
        return 0;
    }
    FILE *f = fopen(workload, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", workload);
        return 2;
    }
    char kind[8];
    uint64_t a, b, c;
    int line = 0;
    while (fscanf(f, "%7s", kind) == 1) {
        line++;
        if (!strcmp(kind, "qd")) {
            if (fscanf(f, "%" SCNu64, &a) != 1 || a < 1) {
                fprintf(stderr, "%s: line %d: qd N, N at least 1\n", workload, line);
                return 2;
            }
            uint64_t last = 0;
            while (heap_n > 0) {
                last = heap_pop();
            }
            if (last > femu_sim_now_ns) {
                femu_sim_now_ns = last;
            }
            heap = realloc(heap, sizeof(uint64_t) * (size_t)a);
            for (uint64_t i = 0; i < a; i++) {
                heap_push(femu_sim_now_ns);
            }
            report(ssd, 'P');
            fflush(stdout);
            continue;
        }
        if (!strcmp(kind, "trim")) {
            if (fscanf(f, "%" SCNu64 " %" SCNu64, &a, &c) != 2 || a + c > span) {
                fprintf(stderr, "%s: line %d: trim START COUNT within the %" PRIu64
                        " pages\n", workload, line, span);
                return 2;
            }
            for (uint64_t lpn = a; lpn < a + c; lpn++) {
                struct ppa ppa = get_maptbl_ent(ssd, lpn);
                if (mapped_ppa(&ppa)) {
                    mark_page_invalid(ssd, &ppa);
                    set_rmap_ent(ssd, INVALID_LPN, &ppa);
                    ppa.ppa = UNMAPPED_PPA;
                    set_maptbl_ent(ssd, lpn, &ppa);
                }
            }
            report(ssd, 'P');
            fflush(stdout);
            continue;
        }
        if (!strcmp(kind, "until")) {
            if (fscanf(f, "%" SCNu64 " %" SCNu64 " %" SCNu64, &a, &b, &c) != 3 || !b ||
                a + b > span) {
                fprintf(stderr, "%s: line %d: until OFFSET SIZE T_NS within the %" PRIu64
                        " pages\n", workload, line, span);
                return 2;
            }
            while (heap[0] < c) { /* the next submission's time: the earliest slot to free */
                host_write(ssd, &req, a + splitmix64() % b);
                if (host_done % report_every == 0) {
                    report(ssd, 'R');
                }
            }
            report(ssd, 'P');
            fflush(stdout);
            continue;
        }
        int seq = !strcmp(kind, "seq");
        if (seq ? fscanf(f, "%" SCNu64 " %" SCNu64, &a, &c) != 2
                : (strcmp(kind, "rand") || fscanf(f, "%" SCNu64 " %" SCNu64 " %" SCNu64,
                                                  &a, &b, &c) != 3)) {
            fprintf(stderr, "%s: line %d is neither seq START COUNT nor rand OFFSET SIZE "
                    "COUNT\n", workload, line);
            return 2;
        }
        if (seq ? a + c > span : (!b || a + b > span)) {
            fprintf(stderr, "%s: line %d runs past the %" PRIu64 " pages\n", workload, line,
                    span);
            return 2;
        }
        for (uint64_t k = 0; k < c; k++) {
            host_write(ssd, &req, seq ? a + k : a + splitmix64() % b);
            if (host_done % report_every == 0) {
                report(ssd, 'R');
            }
        }
        report(ssd, 'P');
        fflush(stdout);
    }
    fclose(f);
    fflush(stdout);
    return 0;
}
