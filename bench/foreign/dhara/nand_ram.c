/* A NAND chip in memory for Dhara (dlbeer/dhara), counting what the FTL asks of it.
 *
 * Implements the NAND layer Dhara's dhara/nand.h declares (is_bad, mark_bad, erase, prog,
 * is_free, read, copy) over one array of pages that starts erased (0xff). No block is bad and
 * no operation fails: the bench measures the FTL's own page writes, not its recovery. A copy
 * (Dhara's GC moving a live page, or its journal repeating a page) counts as one read and one
 * program. Written for overprov's bench (bench/foreign/dhara/harness.c); no Dhara code in it.
 */
#include <stdlib.h>
#include <string.h>

#include "dhara/nand.h"
#include "nand_ram.h"

struct nand_ram_counts nand_ram_counts;

static uint8_t *pages;      /* num_blocks << log2_ppb pages of 1 << log2_page_size bytes */
static uint8_t *programmed; /* one byte a page: 1 once programmed, 0 after its block's erase */

int nand_ram_open(const struct dhara_nand *n)
{
	const size_t count = (size_t)n->num_blocks << n->log2_ppb;

	pages = malloc(count << n->log2_page_size);
	programmed = calloc(count, 1);
	if (!pages || !programmed)
		return -1;
	memset(pages, 0xff, count << n->log2_page_size);
	memset(&nand_ram_counts, 0, sizeof(nand_ram_counts));
	return 0;
}

int dhara_nand_is_bad(const struct dhara_nand *n, dhara_block_t b)
{
	(void)n;
	(void)b;
	return 0;
}

void dhara_nand_mark_bad(const struct dhara_nand *n, dhara_block_t b)
{
	(void)n;
	(void)b;
	nand_ram_counts.marked_bad++;
}

int dhara_nand_erase(const struct dhara_nand *n, dhara_block_t b, dhara_error_t *err)
{
	const size_t first = (size_t)b << n->log2_ppb;
	const size_t ppb = (size_t)1 << n->log2_ppb;

	(void)err;
	memset(pages + (first << n->log2_page_size), 0xff, ppb << n->log2_page_size);
	memset(programmed + first, 0, ppb);
	nand_ram_counts.erases++;
	return 0;
}

int dhara_nand_prog(const struct dhara_nand *n, dhara_page_t p, const uint8_t *data,
		    dhara_error_t *err)
{
	(void)err;
	memcpy(pages + ((size_t)p << n->log2_page_size), data, (size_t)1 << n->log2_page_size);
	programmed[p] = 1;
	nand_ram_counts.programs++;
	return 0;
}

int dhara_nand_is_free(const struct dhara_nand *n, dhara_page_t p)
{
	(void)n;
	return !programmed[p];
}

int dhara_nand_read(const struct dhara_nand *n, dhara_page_t p, size_t offset, size_t length,
		    uint8_t *data, dhara_error_t *err)
{
	(void)err;
	memcpy(data, pages + ((size_t)p << n->log2_page_size) + offset, length);
	nand_ram_counts.reads++;
	return 0;
}

int dhara_nand_copy(const struct dhara_nand *n, dhara_page_t src, dhara_page_t dst,
		    dhara_error_t *err)
{
	(void)err;
	memcpy(pages + ((size_t)dst << n->log2_page_size),
	       pages + ((size_t)src << n->log2_page_size), (size_t)1 << n->log2_page_size);
	programmed[dst] = 1;
	nand_ram_counts.reads++;
	nand_ram_counts.programs++;
	nand_ram_counts.copies++;
	return 0;
}
