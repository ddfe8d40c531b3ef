/*
 * nvmevirt-conv-harness: NVMeVirt's conventional FTL (snu-csl/nvmevirt conv_ftl.c, ssd.c,
 * channel_model.c and pqueue/pqueue.c, unmodified, compiled beside this file by build.sh)
 * driven in simulated time by a closed-loop host. This repository's own code.
 *
 * In NVMeVirt a dispatcher thread takes each submitted command at the wall-clock time it sees
 * it (io.c, __nvmev_proc_io: req.nsecs_start = cpu_clock()) and calls conv_write, which
 *   - takes room for the data in the write buffer (buffer_allocate) or returns false, and the
 *     dispatcher then leaves the command in the queue and retries it later;
 *   - times the host's transfer into the buffer (ssd_advance_write_buffer: firmware latency
 *     and the PCIe channel model): the command completes then (early completion);
 *   - places each page on the write pointer and, when a page ends a one-shot program unit,
 *     programs the unit on its LUN (channel transfer, then tPROG) and schedules the unit's
 *     buffer room to be released when the program ends (schedule_internal_operation; io.c's
 *     worker releases it when the clock passes that time);
 *   - spends one write credit a page; when they run out, foreground GC collects one line if
 *     free lines <= gc_thres_lines_high (2) and the credits are refilled with the victim's
 *     invalid pages; GC's reads, programs and erases advance the LUNs' clocks from "now".
 * Here the clock (cpu_clock, local_clock) is the simulated time of the command being
 * dispatched: the host keeps --qd 4 KiB writes outstanding; a write is submitted when a slot
 * frees; the dispatcher takes commands in submission order, each at max(its submission, the
 * previous dispatch); a command conv_write refuses is retried at the next buffer release; it
 * completes at the nsecs_target conv_write returns. Buffer releases are events at the times
 * schedule_internal_operation gives. The dispatcher's own CPU time is not modelled.
 *
 * Writes: with --fill a sequential pass over the span first, then --host-pages uniform random
 * pages over the first --span-pages pages of the namespace (splitmix64, --seed). Every
 * --report-every writes dispatched one line of cumulative counters, read from the FTL's state
 * (nothing in NVMeVirt is changed to count):
 *   R requests t_ns programs erases free_lines
 * t_ns: the latest completion so far; programs (every NAND page programmed, host and GC) =
 * block erases x pages per block + the pages written to each line since its erase (a line's
 * vpc + ipc: GC erases whole lines, written full); free_lines over every partition. A `G`
 * line gives the geometry conv_ftl derived, an `E` line at the end NVMeVirt's error count
 * (NVMEV_ERROR calls, e.g. its channel model's "Need to increase array size").
 * --check: at every report, the pages not free counted page by page must equal the lines'
 * vpc + ipc (aborts otherwise).
 */
#include "nvmev.h"
#include "conv_ftl.h"

#include <getopt.h>

uint64_t nvmevirt_sim_now_ns;
unsigned long nvmevirt_errors;
static struct nvmev_dev vdev;
struct nvmev_dev *nvmev_vdev = &vdev;

/* NVMeVirt's SAMSUNG_970PRO model (ssd_config.h), the conventional FTL's build */
struct nvmevirt_drive nvmevirt_drive = {
    .partitions = 4, .nchs = 8, .luns_per_ch = 2, .blks_per_pln = 8192,
    .flash_page_bytes = 32768, .oneshot_page_bytes = 32768, .max_ch_xfer_bytes = 16384,
    .ch_mb_s = 800, .pcie_mb_s = 3360,
    .rd4k_lsb_ns = 35760 - 6000, .rd4k_msb_ns = 35760 + 6000,
    .rd_lsb_ns = 36013 - 6000, .rd_msb_ns = 36013 + 6000,
    .prog_ns = 185000, .erase_ns = 0,
    .fw_4kb_rd_ns = 21500, .fw_rd_ns = 30490, .fw_wbuf0_ns = 4000, .fw_wbuf1_ns = 460,
    .fw_ch_xfer_ns = 0, .op_area = 0.07,
    .write_buffer_bytes = 0, /* 0: GLOBAL_WB_SIZE's formula, channels x LUNs x one-shot x 2 */
    .write_early_completion = 1,
};

/* min-heap of (time, bytes): the QD slots' free times (bytes unused) and buffer releases */
struct ev {
    uint64_t t;
    uint64_t bytes;
};
struct heap {
    struct ev *a;
    size_t n, cap;
};
static void heap_push(struct heap *h, uint64_t t, uint64_t bytes)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 64;
        h->a = realloc(h->a, h->cap * sizeof *h->a);
    }
    size_t i = h->n++;
    while (i > 0 && h->a[(i - 1) / 2].t > t) {
        h->a[i] = h->a[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->a[i] = (struct ev){t, bytes};
}
static struct ev heap_pop(struct heap *h)
{
    struct ev top = h->a[0], last = h->a[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->a[c + 1].t < h->a[c].t)
            c++;
        if (h->a[c].t >= last.t)
            break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (h->n)
        h->a[i] = last;
    return top;
}

static struct heap releases;

void schedule_internal_operation(int sqid, unsigned long long nsecs_target,
                                 struct buffer *write_buffer, size_t buffs_to_release)
{
    (void)sqid;
    (void)write_buffer;
    heap_push(&releases, nsecs_target, buffs_to_release);
}

/* splitmix64 (Steele, Lea, Flood 2014), as FEMU's harness draws its pages */
static uint64_t rng_state;
static uint64_t next_page(uint64_t span)
{
    static const uint64_t gamma = 0x9e3779b97f4a7c15ULL, m1 = 0xbf58476d1ce4e5b9ULL,
                          m2 = 0x94d049bb133111ebULL;
    uint64_t z = rng_state += gamma;
    z = (z ^ (z >> 30)) * m1;
    z = (z ^ (z >> 27)) * m2;
    return (z ^ (z >> 31)) % span;
}

static struct nvmev_ns ns;

struct counters {
    uint64_t programs, erases, free_lines;
};

static struct counters read_counters(int check)
{
    struct conv_ftl *ftls = ns.ftls;
    struct counters c = {0, 0, 0};
    for (uint32_t p = 0; p < ns.nr_parts; p++) {
        struct conv_ftl *f = &ftls[p];
        struct ssdparams *sp = &f->ssd->sp;
        uint64_t written = 0, not_free = 0;
        for (uint32_t i = 0; i < f->lm.tt_lines; i++)
            written += (uint64_t)(f->lm.lines[i].vpc + f->lm.lines[i].ipc);
        for (int ch = 0; ch < sp->nchs; ch++)
            for (int lun = 0; lun < sp->luns_per_ch; lun++)
                for (int pl = 0; pl < sp->pls_per_lun; pl++)
                    for (int b = 0; b < sp->blks_per_pl; b++) {
                        struct nand_block *blk = &f->ssd->ch[ch].lun[lun].pl[pl].blk[b];
                        c.erases += blk->erase_cnt;
                        c.programs += (uint64_t)blk->erase_cnt * sp->pgs_per_blk;
                        if (check)
                            for (int g = 0; g < blk->npgs; g++)
                                not_free += blk->pg[g].status != PG_FREE;
                    }
        if (check && not_free != written) {
            fprintf(stderr, "check failed: partition %u: %llu pages not free, lines say %llu\n",
                    p, (unsigned long long)not_free, (unsigned long long)written);
            abort();
        }
        c.programs += written;
        c.free_lines += f->lm.free_line_cnt;
    }
    return c;
}

static uint64_t opt_u64(const char *s)
{
    return strtoull(s, NULL, 10);
}

int main(int argc, char **argv)
{
    uint64_t capacity_mb = 4096, span = 0, host_pages = 0, report_every = 0, seed = 1;
    int qd = 32, fill = 0, check = 0;
    static struct option opts[] = {
        {"capacity-mb", 1, 0, 'c'}, {"span-pages", 1, 0, 's'}, {"host-pages", 1, 0, 'n'},
        {"qd", 1, 0, 'q'}, {"report-every", 1, 0, 'r'}, {"seed", 1, 0, 'S'},
        {"fill", 0, 0, 'f'}, {"check", 0, 0, 'K'},
        {"partitions", 1, 0, 1}, {"nchs", 1, 0, 2}, {"luns-per-ch", 1, 0, 3},
        {"blks-per-pln", 1, 0, 4}, {"flash-page-kb", 1, 0, 5}, {"oneshot-page-kb", 1, 0, 6},
        {"prog-ns", 1, 0, 7}, {"erase-ns", 1, 0, 8}, {"ch-mb-s", 1, 0, 9},
        {"pcie-mb-s", 1, 0, 10}, {"op-area", 1, 0, 11}, {"write-buffer-kb", 1, 0, 12},
        {"early-completion", 1, 0, 13}, {0, 0, 0, 0},
    };
    int o;
    while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (o) {
        case 'c': capacity_mb = opt_u64(optarg); break;
        case 's': span = opt_u64(optarg); break;
        case 'n': host_pages = opt_u64(optarg); break;
        case 'q': qd = atoi(optarg); break;
        case 'r': report_every = opt_u64(optarg); break;
        case 'S': seed = opt_u64(optarg); break;
        case 'f': fill = 1; break;
        case 'K': check = 1; break;
        case 1: nvmevirt_drive.partitions = atoi(optarg); break;
        case 2: nvmevirt_drive.nchs = atoi(optarg); break;
        case 3: nvmevirt_drive.luns_per_ch = atoi(optarg); break;
        case 4: nvmevirt_drive.blks_per_pln = atoi(optarg); break;
        case 5: nvmevirt_drive.flash_page_bytes = opt_u64(optarg) * 1024; break;
        case 6: nvmevirt_drive.oneshot_page_bytes = opt_u64(optarg) * 1024; break;
        case 7: nvmevirt_drive.prog_ns = atoi(optarg); break;
        case 8: nvmevirt_drive.erase_ns = atoi(optarg); break;
        case 9: nvmevirt_drive.ch_mb_s = opt_u64(optarg); break;
        case 10: nvmevirt_drive.pcie_mb_s = opt_u64(optarg); break;
        case 11: nvmevirt_drive.op_area = atof(optarg); break;
        case 12: nvmevirt_drive.write_buffer_bytes = opt_u64(optarg) * 1024; break;
        case 13: nvmevirt_drive.write_early_completion = atoi(optarg); break;
        default: fprintf(stderr, "usage: see the comment at the top of harness.c\n"); return 2;
        }
    }
    if (!nvmevirt_drive.write_buffer_bytes)
        nvmevirt_drive.write_buffer_bytes = (uint64_t)nvmevirt_drive.nchs *
                                            nvmevirt_drive.luns_per_ch *
                                            nvmevirt_drive.oneshot_page_bytes * 2;
    rng_state = seed;
    conv_init_namespace(&ns, 0, capacity_mb << 20, NULL, 0);
    struct conv_ftl *ftls = ns.ftls;
    struct ssdparams *sp = &ftls[0].ssd->sp;
    uint64_t logical = ns.size / 4096;
    if (!span)
        span = logical;
    if (span > logical || qd < 1 || !report_every) {
        fprintf(stderr, "need 0 < span-pages <= %llu, qd >= 1, report-every > 0\n",
                (unsigned long long)logical);
        return 2;
    }
    printf("G logical_pages %llu physical_pages %llu partitions %u luns %lu pgs_per_blk %d "
           "pgs_per_oneshotpg %d lines %lu pgs_per_line %lu write_buffer_bytes %llu\n",
           (unsigned long long)logical, (unsigned long long)sp->tt_pgs * ns.nr_parts,
           ns.nr_parts, sp->tt_luns * ns.nr_parts, sp->pgs_per_blk, sp->pgs_per_oneshotpg,
           sp->tt_lines, sp->pgs_per_line, (unsigned long long)sp->write_buffer_size);

    struct heap slots = {0};
    for (int i = 0; i < qd; i++)
        heap_push(&slots, 0, 0);
    uint64_t last_d = 0, t_max = 0, total = (fill ? span : 0) + host_pages;
    struct nvme_command cmd;
    for (uint64_t i = 0; i < total; i++) {
        uint64_t lpn = (fill && i < span) ? i : next_page(span);
        uint64_t d = max(heap_pop(&slots).t, last_d);
        struct nvmev_result ret;
        for (;;) {
            nvmevirt_sim_now_ns = d;
            while (releases.n && releases.a[0].t <= d)
                buffer_release(ftls[0].ssd->write_buffer, heap_pop(&releases).bytes);
            memset(&cmd, 0, sizeof cmd);
            cmd.rw.opcode = nvme_cmd_write;
            cmd.rw.slba = lpn * (4096 / LBA_SIZE);
            cmd.rw.length = 4096 / LBA_SIZE - 1;
            struct nvmev_request req = {.cmd = &cmd, .sq_id = 1, .nsecs_start = d};
            ret = (struct nvmev_result){.status = NVME_SC_SUCCESS, .nsecs_target = d};
            if (conv_proc_nvme_io_cmd(&ns, &req, &ret))
                break;
            if (!releases.n) {
                fprintf(stderr, "write buffer full with no release pending\n");
                return 1;
            }
            d = max(d, releases.a[0].t);
        }
        last_d = d;
        heap_push(&slots, ret.nsecs_target, 0);
        t_max = max(t_max, ret.nsecs_target);
        if ((i + 1) % report_every == 0 || i + 1 == total) {
            struct counters c = read_counters(check);
            printf("R %llu %llu %llu %llu %llu\n", (unsigned long long)(i + 1),
                   (unsigned long long)t_max, (unsigned long long)c.programs,
                   (unsigned long long)c.erases, (unsigned long long)c.free_lines);
            fflush(stdout);
        }
    }
    printf("E %lu\n", nvmevirt_errors);
    return 0;
}
