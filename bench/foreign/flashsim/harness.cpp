// A closed-loop host for FlashSim's DFTL (MatiasBjorling/flashsim, FTLs/dftl_ftl.cpp), in
// simulated time. FlashSim is called as its own run_*.cpp drivers call it: load_config() reads
// ./ssd.conf, then Ssd::event_arrive(WRITE, page, 1, start_us) returns the write's time taken.
// This harness keeps QD writes outstanding: each new write starts at the earliest completion of
// the ones before it (start times never go back, as FlashSim's bus tables expect).
//
//   flashsim-dftl-harness --span-pages N [--fill] --host-pages M --qd Q --report-every K
//                         [--seed S]
// Prints `G` (the drive FlashSim derived) and, every K completed writes (the fill's and the
// random writes'), `R completed t_ns programs erases translation_writes free_blocks`:
// programs are FlashSim's FTL writes (host pages, GC copies and DFTL's translation-page writes,
// Stats::numFTLWrite), translation_writes those last (Stats::numGCWrite in the DFTL), erases
// Stats::numFTLErase. Nothing of FlashSim is changed; its private members are read through the
// define below (the controller's statistics and the block manager's free list).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <queue>
#include <vector>
#define private public
#define protected public
#include "ssd.h"
#undef private
#undef protected

using namespace ssd;

static uint64_t splitmix64(uint64_t &x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int main(int argc, char **argv) {
    long span = 0, host_pages = 0, every = 0;
    int qd = 1;
    bool fill = false;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--fill")) { fill = true; continue; }
        if (i + 1 >= argc) { fprintf(stderr, "missing value for %s\n", a); return 2; }
        const char *v = argv[++i];
        if (!strcmp(a, "--span-pages")) span = atol(v);
        else if (!strcmp(a, "--host-pages")) host_pages = atol(v);
        else if (!strcmp(a, "--qd")) qd = atoi(v);
        else if (!strcmp(a, "--report-every")) every = atol(v);
        else if (!strcmp(a, "--seed")) seed = strtoull(v, nullptr, 10);
        else { fprintf(stderr, "unknown option %s\n", a); return 2; }
    }
    load_config();
    const long pages = (long)NUMBER_OF_ADDRESSABLE_BLOCKS * BLOCK_SIZE;
    if (span <= 0 || span > pages || every <= 0 || qd <= 0) {
        fprintf(stderr, "bad options: span %ld of %ld pages, every %ld, qd %d\n", span, pages,
                every, qd);
        return 2;
    }
    Ssd *drive = new Ssd();
    FtlImpl_DftlParent *ftl = dynamic_cast<FtlImpl_DftlParent *>(drive->controller.ftl);
    if (ftl == nullptr) { fprintf(stderr, "FTL_IMPLEMENTATION is not DFTL (3)\n"); return 2; }
    Stats &st = drive->controller.stats;
    printf("G pages %ld blocks %u block_pages %u packages %u cmt_entries %d span_pages %ld\n",
           pages, NUMBER_OF_ADDRESSABLE_BLOCKS, BLOCK_SIZE, SSD_SIZE, ftl->totalCMTentries, span);
    const long total = (fill ? span : 0) + host_pages;
    std::priority_queue<double, std::vector<double>, std::greater<double>> done;
    long submitted = 0, completed = 0;
    double now_us = 0.0;
    auto submit = [&](double start_us) {
        long lpn = (fill && submitted < span) ? submitted : (long)(splitmix64(seed) % span);
        double taken = drive->event_arrive(WRITE, lpn, 1, start_us);
        done.push(start_us + taken);
        submitted++;
    };
    while (submitted < total && (long)done.size() < qd) submit(0.0);
    while (!done.empty()) {
        now_us = done.top();
        done.pop();
        completed++;
        if (submitted < total) submit(now_us);
        if (completed % every == 0 || completed == total) {
            Block_manager *bm = Block_manager::instance();
            printf("R %ld %lld %ld %ld %ld %ld\n", completed, (long long)(now_us * 1000.0),
                   st.numFTLWrite, st.numFTLErase, st.numGCWrite,
                   (long)bm->get_num_free_blocks());
            fflush(stdout);
        }
    }
    delete drive;
    return 0;
}
