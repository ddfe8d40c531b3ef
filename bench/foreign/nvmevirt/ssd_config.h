/*
 * A stand-in for NVMeVirt's ssd_config.h, the file its README has a user edit to set the
 * drive: the same macro names, each read from the harness's `nvmevirt_drive` (set from its
 * command line) so one build serves several drives. The defaults (harness.c) are the values of
 * NVMeVirt's SAMSUNG_970PRO model, the one its conventional FTL (Kbuild's
 * CONFIG_NVMEVIRT_SSD) is built with. This repository's own code.
 */
#ifndef NVMEVIRT_HARNESS_SSD_CONFIG_H
#define NVMEVIRT_HARNESS_SSD_CONFIG_H

#include <stdint.h>

#define CELL_MODE_UNKNOWN 0
#define CELL_MODE_SLC 1
#define CELL_MODE_MLC 2
#define CELL_MODE_TLC 3
#define CELL_MODE_QLC 4
#define SSD_TYPE_NVM 0
#define SSD_TYPE_CONV 1

struct nvmevirt_drive {
    uint32_t partitions, nchs, luns_per_ch, blks_per_pln;
    uint64_t flash_page_bytes, oneshot_page_bytes, max_ch_xfer_bytes;
    uint64_t ch_mb_s, pcie_mb_s;
    int rd4k_lsb_ns, rd4k_msb_ns, rd_lsb_ns, rd_msb_ns, prog_ns, erase_ns;
    int fw_4kb_rd_ns, fw_rd_ns, fw_wbuf0_ns, fw_wbuf1_ns, fw_ch_xfer_ns;
    double op_area;
    uint64_t write_buffer_bytes;
    int write_early_completion;
};
extern struct nvmevirt_drive nvmevirt_drive;

#define LBA_BITS (9)
#define LBA_SIZE (1 << LBA_BITS)
#define CELL_MODE (CELL_MODE_MLC)
#define SSD_PARTITIONS (nvmevirt_drive.partitions)
#define NAND_CHANNELS (nvmevirt_drive.nchs)
#define LUNS_PER_NAND_CH (nvmevirt_drive.luns_per_ch)
#define PLNS_PER_LUN (1)
#define FLASH_PAGE_SIZE (nvmevirt_drive.flash_page_bytes)
#define ONESHOT_PAGE_SIZE (nvmevirt_drive.oneshot_page_bytes)
#define BLKS_PER_PLN (nvmevirt_drive.blks_per_pln)
#define BLK_SIZE (0)
#define MAX_CH_XFER_SIZE (nvmevirt_drive.max_ch_xfer_bytes)
#define WRITE_UNIT_SIZE (512)
#define NAND_CHANNEL_BANDWIDTH (nvmevirt_drive.ch_mb_s)
#define PCIE_BANDWIDTH (nvmevirt_drive.pcie_mb_s)
#define NAND_4KB_READ_LATENCY_LSB (nvmevirt_drive.rd4k_lsb_ns)
#define NAND_4KB_READ_LATENCY_MSB (nvmevirt_drive.rd4k_msb_ns)
#define NAND_4KB_READ_LATENCY_CSB (0)
#define NAND_READ_LATENCY_LSB (nvmevirt_drive.rd_lsb_ns)
#define NAND_READ_LATENCY_MSB (nvmevirt_drive.rd_msb_ns)
#define NAND_READ_LATENCY_CSB (0)
#define NAND_PROG_LATENCY (nvmevirt_drive.prog_ns)
#define NAND_ERASE_LATENCY (nvmevirt_drive.erase_ns)
#define FW_4KB_READ_LATENCY (nvmevirt_drive.fw_4kb_rd_ns)
#define FW_READ_LATENCY (nvmevirt_drive.fw_rd_ns)
#define FW_WBUF_LATENCY0 (nvmevirt_drive.fw_wbuf0_ns)
#define FW_WBUF_LATENCY1 (nvmevirt_drive.fw_wbuf1_ns)
#define FW_CH_XFER_LATENCY (nvmevirt_drive.fw_ch_xfer_ns)
#define OP_AREA_PERCENT (nvmevirt_drive.op_area)
#define GLOBAL_WB_SIZE (nvmevirt_drive.write_buffer_bytes)
#define WRITE_EARLY_COMPLETION (nvmevirt_drive.write_early_completion)

#endif
