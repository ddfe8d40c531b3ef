/* This repository's host for VSSIM's page-mapping FTL (ESOS-Lab/VSSIM, FTL/PAGE_MAP with its
 * SSD module SSD_MODULE/ssd_io_manager.c and FTL/COMMON/ftl_perf_manager.c, compiled
 * standalone and unmodified by build.sh). It stands in for what VSSIM takes from QEMU: the
 * clock (clock.h: simulated, one VSSIM time unit a reading), the firmware's I/O buffer
 * (FIRMWARE/firm_buffer_manager.c: its pointer calls are no-ops here, every write goes to
 * the FTL) and the log manager's socket to VSSIM's monitor (SSD_MODULE/ssd_log_manager.c:
 * no monitor; the counters it would send are read directly).
 *
 *   vssim-harness SPAN_PAGES RANDOM_WRITES REPORT_EVERY SEED
 *
 * Run in a folder holding data/ssd.conf (VSSIM reads ./data/ssd.conf and starts empty when
 * no ./data/*.dat map files exist). Writes SPAN_PAGES 4 KiB pages in order (the fill), then
 * RANDOM_WRITES uniform random 4 KiB writes over the same pages, each by VSSIM's FTL_WRITE,
 * one after another: VSSIM takes one request at a time in its caller's thread (an IDE device
 * in QEMU), so a request completes when FTL_WRITE returns, garbage collection included.
 * Every REPORT_EVERY requests it prints one line of cumulative counters:
 *   R requests t_ns programs erases gc_copies
 * programs = host pages (log_write_page_val) + pages GC copied (log_gc_amp_val); erases =
 * blocks GC erased (gc_count); t_ns = the simulated clock in ns. Then "DONE". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "clock.h"

#define VSSIM_UNIT_NS 100 /* one VSSIM time unit; ssd.conf's delays are in these */

void FTL_INIT(void);
void FTL_WRITE(int32_t sector_nb, unsigned int length);
extern int SECTORS_PER_PAGE;
extern int64_t SECTOR_NB;
extern int64_t log_write_page_val, log_write_request_val, log_gc_amp_val;
extern unsigned int gc_count;

static int64_t clock_units;

int harness_gettimeofday(struct timeval *tv, void *tz)
{
	(void)tz;
	clock_units++;
	tv->tv_sec = clock_units / 1000000;
	tv->tv_usec = clock_units % 1000000;
	return 0;
}

/* FIRMWARE/firm_buffer_manager.h's calls the FTL makes: no buffer */
void INIT_FIRM_IO_BUFFER(void) {}
void TERM_FIRM_IO_BUFFER(void) {}
void INCREASE_WB_FTL_POINTER(int entry_nb) { (void)entry_nb; }
void INCREASE_RB_FTL_POINTER(int entry_nb) { (void)entry_nb; }
void INCREASE_WB_LIMIT_POINTER(void) {}
void INCREASE_RB_LIMIT_POINTER(void) {}
/* SSD_MODULE/ssd_log_manager.h's calls: no monitor */
void INIT_LOG_MANAGER(void) {}
void TERM_LOG_MANAGER(void) {}
void WRITE_LOG(char *szLog) { (void)szLog; }

static uint64_t rng_state;

static uint64_t next_random(void) /* splitmix64 */
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void report(int64_t requests)
{
	printf("R %lld %lld %lld %u %lld\n", (long long)requests,
	       (long long)(clock_units * VSSIM_UNIT_NS),
	       (long long)(log_write_page_val + log_gc_amp_val), gc_count,
	       (long long)log_gc_amp_val);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: %s SPAN_PAGES RANDOM_WRITES REPORT_EVERY SEED\n", argv[0]);
		return 2;
	}
	int64_t span = atoll(argv[1]), writes = atoll(argv[2]), every = atoll(argv[3]);
	rng_state = strtoull(argv[4], NULL, 10);
	FTL_INIT();
	if (span <= 0 || span * SECTORS_PER_PAGE > SECTOR_NB || every <= 0) {
		fprintf(stderr, "span %lld pages does not fit the drive's %lld sectors\n",
			(long long)span, (long long)SECTOR_NB);
		return 2;
	}
	int64_t done = 0;
	for (int64_t p = 0; p < span; p++) {
		FTL_WRITE((int32_t)(p * SECTORS_PER_PAGE), SECTORS_PER_PAGE);
		if (++done % every == 0)
			report(done);
	}
	for (int64_t i = 0; i < writes; i++) {
		int64_t p = (int64_t)(next_random() % (uint64_t)span);
		FTL_WRITE((int32_t)(p * SECTORS_PER_PAGE), SECTORS_PER_PAGE);
		if (++done % every == 0)
			report(done);
	}
	if (log_write_request_val != done) {
		fprintf(stderr, "VSSIM counted %lld write requests, the harness made %lld\n",
			(long long)log_write_request_val, (long long)done);
		return 1;
	}
	printf("DONE\n");
	return 0;
}
