/*
 * A run loop for SSDsim (Hu et al., ICS 2011; github.com/huaicheng/ssdsim) that reports its own
 * counters as it goes. This file is overprov's own code: it calls SSDsim's functions (ssd.c,
 * compiled with its main() renamed by build.sh) in the order SSDsim's simulate() calls them,
 * and adds two things:
 *   - every REPORT_EVERY completed requests a line
 *       R <requests completed> <simulated ns> <program_count> <erase_count> <copy_back_count>
 *     (SSDsim's own ssd_info counters: every page program, the host's and GC's; every erase);
 *   - after each R line a line of GC state, read from SSDsim's structures (nothing changed)
 *       Q <requests completed> <collections queued now>
 *         <free pages of the emptiest plane> <mean free pages a plane> <of the fullest plane>
 *         <mean valid pages of a plane's next victim> <mean valid pages of a written block>
 *     (SSDsim's gc_request counter, the channels' gc_command nodes; each plane's free_page; the
 *     block uninterrupt_gc() would pick now: most invalid pages, not the active block);
 *   - it stops when TOTAL requests have completed. SSDsim's simulate() loops until the request
 *     queue is empty after the trace's end, but its clock moves only in get_requests(), which
 *     returns at once at the end of the file, so the last queue_length requests never complete
 *     and the loop never ends. The trace given to it carries queue_length requests more than
 *     TOTAL; they are never counted.
 * The trace file name is read from stdin by SSDsim's initiation(), as its own main() does.
 *
 * usage: echo TRACE | ssdsim-harness TOTAL REPORT_EVERY
 */
#include "ssd.h"

static void report_gc_state(struct ssd_info *ssd, unsigned long done)
{
    struct parameter_value *p = ssd->parameter;
    unsigned long planes = 0, free_sum = 0, free_min = ~0UL, free_max = 0;
    unsigned long victim_valid = 0, written_valid = 0, written = 0;
    unsigned int c, h, d, l, b;

    for (c = 0; c < p->channel_number; c++) {
        for (h = 0; h < p->chip_channel[c]; h++)
            for (d = 0; d < p->die_chip; d++)
                for (l = 0; l < p->plane_die; l++) {
                    struct plane_info *pl = &ssd->channel_head[c].chip_head[h].die_head[d]
                                                 .plane_head[l];
                    unsigned int best = 0, best_valid = p->page_block;
                    planes++;
                    free_sum += pl->free_page;
                    if (pl->free_page < free_min)
                        free_min = pl->free_page;
                    if (pl->free_page > free_max)
                        free_max = pl->free_page;
                    for (b = 0; b < p->block_plane; b++) {
                        struct blk_info *bk = &pl->blk_head[b];
                        unsigned int valid = p->page_block - bk->free_page_num -
                                             bk->invalid_page_num;
                        if (bk->free_page_num != 0)
                            continue; /* the active block and the erased ones */
                        written++;
                        written_valid += valid;
                        if (bk->invalid_page_num > best) {
                            best = bk->invalid_page_num;
                            best_valid = valid;
                        }
                    }
                    victim_valid += best_valid;
                }
    }
    printf("Q %lu %u %lu %.2f %lu %.2f %.2f\n", done, ssd->gc_request, free_min,
           (double)free_sum / planes, free_max, (double)victim_valid / planes,
           written ? (double)written_valid / written : 0.0);
}

int main(int argc, char **argv)
{
    struct ssd_info *ssd;
    unsigned long total, every, next_report, done = 0;
    int flag;

    if (argc != 3) {
        fprintf(stderr, "usage: echo TRACE | %s TOTAL REPORT_EVERY\n", argv[0]);
        return 2;
    }
    total = strtoul(argv[1], NULL, 10);
    every = strtoul(argv[2], NULL, 10);
    if (total == 0 || every == 0) {
        fprintf(stderr, "TOTAL and REPORT_EVERY must be positive\n");
        return 2;
    }
    ssd = (struct ssd_info *)malloc(sizeof(struct ssd_info));
    if (ssd == NULL)
        return 1;
    memset(ssd, 0, sizeof(struct ssd_info));
    ssd = initiation(ssd);
    if (ssd == NULL)
        return 1;
    make_aged(ssd);
    pre_process_page(ssd);
    ssd->tracefile = fopen(ssd->tracefilename, "r");
    if (ssd->tracefile == NULL) {
        fprintf(stderr, "cannot open trace %s\n", ssd->tracefilename);
        return 1;
    }
    printf("G %u %u %u %u %u %u %d %.4f %.4f\n", ssd->parameter->channel_number,
           ssd->parameter->chip_num, ssd->parameter->die_chip, ssd->parameter->plane_die,
           ssd->parameter->block_plane, ssd->parameter->page_block, ssd->parameter->queue_length,
           ssd->parameter->overprovide, ssd->parameter->gc_hard_threshold);
    next_report = every;
    while (done < total) {
        flag = get_requests(ssd);
        if (flag == 1) {
            if (ssd->parameter->dram_capacity != 0) {
                buffer_management(ssd);
                distribute(ssd);
            } else {
                no_buffer_distribute(ssd);
            }
        } else if (flag == 0) {
            fprintf(stderr, "trace ended after %lu of %lu requests\n", done, total);
            return 1;
        }
        process(ssd);
        trace_output(ssd);
        done = (unsigned long)ssd->write_request_count + ssd->read_request_count;
        while (done >= next_report && next_report <= total) {
            printf("R %lu %lld %lu %lu %lu\n", done, (long long)ssd->current_time,
                   ssd->program_count, ssd->erase_count, ssd->copy_back_count);
            report_gc_state(ssd, done);
            fflush(stdout);
            next_report += every;
        }
    }
    return 0;
}
