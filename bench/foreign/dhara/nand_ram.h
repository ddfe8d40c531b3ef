/* bench/foreign/dhara/nand_ram.c's counters and set-up. */
#ifndef NAND_RAM_H_
#define NAND_RAM_H_

#include <stdint.h>

#include "dhara/nand.h"

struct nand_ram_counts {
	uint64_t programs; /* pages programmed, copies included */
	uint64_t copies;   /* of them, page copies (a read and a program) */
	uint64_t reads;
	uint64_t erases;
	uint64_t marked_bad;
};

extern struct nand_ram_counts nand_ram_counts;

/* Allocate the chip n describes, every page erased, the counters zero; -1 when out of memory. */
int nand_ram_open(const struct dhara_nand *n);

#endif
