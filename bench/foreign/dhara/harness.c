/* Drive Dhara's map (dlbeer/dhara, dhara/map.c over dhara/journal.c, unmodified) with 4 KiB
 * uniform random writes on bench/foreign/dhara/nand_ram.c's chip:
 *
 *   dhara-harness LOG2_PPB BLOCKS GC_RATIO SPAN STEPS STEP_WRITES SEED
 *
 * Prints one JSON line for the drive (its pages, the journal's and the map's capacity in
 * sectors, Dhara's checkpoint period), then, from an empty chip, STEPS lines of STEP_WRITES
 * writes each to sectors drawn uniformly from [0, SPAN) (splitmix64 from SEED): the host pages
 * and NAND pages programmed in the step (copies and checkpoint pages included), the copies in
 * it, blocks erased in total (`segments_cleaned`) and the journal's size. STEPS 0 prints the
 * drive line only. A failed write prints an ERROR line and exits 1. Written for overprov's
 * bench; no Dhara code in it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "dhara/map.h"
#include "nand_ram.h"

#define LOG2_PAGE_BYTES 12

static uint64_t rng_state;

static uint64_t splitmix64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
	static uint8_t page_buf[1 << LOG2_PAGE_BYTES];
	static uint8_t data[1 << LOG2_PAGE_BYTES];
	struct dhara_nand nand;
	struct dhara_map map;
	dhara_error_t err;
	uint64_t span, steps, step_writes, s, i;

	if (argc != 8) {
		fprintf(stderr, "usage: %s LOG2_PPB BLOCKS GC_RATIO SPAN STEPS STEP_WRITES SEED\n",
			argv[0]);
		return 2;
	}
	nand.log2_page_size = LOG2_PAGE_BYTES;
	nand.log2_ppb = (uint8_t)atoi(argv[1]);
	nand.num_blocks = (unsigned int)strtoul(argv[2], NULL, 10);
	span = strtoull(argv[4], NULL, 10);
	steps = strtoull(argv[5], NULL, 10);
	step_writes = strtoull(argv[6], NULL, 10);
	rng_state = strtoull(argv[7], NULL, 10);
	if (nand_ram_open(&nand) < 0) {
		printf("ERROR out of memory\n");
		return 1;
	}
	dhara_map_init(&map, &nand, page_buf, (uint8_t)atoi(argv[3]));
	dhara_map_resume(&map, &err); /* an erased chip: -1, and an empty map */
	printf("{\"physical_pages\": %" PRIu64 ", \"journal_capacity\": %u, "
	       "\"map_capacity\": %u, \"log2_ppc\": %u, \"gc_ratio\": %u}\n",
	       (uint64_t)nand.num_blocks << nand.log2_ppb,
	       (unsigned)dhara_journal_capacity(&map.journal),
	       (unsigned)dhara_map_capacity(&map), (unsigned)map.journal.log2_ppc,
	       (unsigned)map.gc_ratio);
	if (steps && (span == 0 || span > dhara_map_capacity(&map))) {
		printf("ERROR span %" PRIu64 " outside 1..%u\n", span,
		       (unsigned)dhara_map_capacity(&map));
		return 1;
	}
	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)i;
	for (s = 0; s < steps; s++) {
		const struct nand_ram_counts before = nand_ram_counts;

		for (i = 0; i < step_writes; i++) {
			const dhara_sector_t sector =
				(dhara_sector_t)(((splitmix64() >> 32) * span) >> 32);

			if (dhara_map_write(&map, sector, data, &err) < 0) {
				printf("ERROR write %" PRIu64 " of step %" PRIu64 ": %s\n", i, s,
				       dhara_strerror(err));
				return 1;
			}
		}
		printf("{\"host_pages\": %" PRIu64 ", \"nand_pages\": %" PRIu64
		       ", \"copies\": %" PRIu64 ", \"segments_cleaned\": %" PRIu64
		       ", \"journal_pages\": %u, \"sectors\": %u}\n",
		       step_writes, nand_ram_counts.programs - before.programs,
		       nand_ram_counts.copies - before.copies, nand_ram_counts.erases,
		       (unsigned)dhara_journal_size(&map.journal), (unsigned)dhara_map_size(&map));
		fflush(stdout);
	}
	return 0;
}
