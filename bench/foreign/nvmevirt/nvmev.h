/*
 * A stand-in for NVMeVirt's nvmev.h (snu-csl/nvmevirt), which pulls in the kernel's PCI, MSI
 * and APIC headers: the macros, structures and kernel calls conv_ftl.c, ssd.c,
 * channel_model.c and pqueue/pqueue.c use, in user space. This repository's own code; no
 * NVMeVirt code is copied here (the names are the interface those files call).
 * build.sh puts it beside NVMeVirt's files (pqueue.c includes "../nvmev.h").
 */
#ifndef NVMEVIRT_HARNESS_NVMEV_H
#define NVMEVIRT_HARNESS_NVMEV_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
#define __iomem

/* the kernel calls, in user space */
#define GFP_KERNEL 0
#define kmalloc(size, flags) malloc(size)
#define kfree(p) free(p)
#define vmalloc(size) malloc(size)
#define vfree(p) free(p)
#define BUG_ON(c)                                                                      \
    do {                                                                               \
        if (c) {                                                                       \
            fprintf(stderr, "NVMeVirt assertion failed: %s:%d\n", __FILE__, __LINE__); \
            abort();                                                                   \
        }                                                                              \
    } while (0)
#define pr_info_once(...) ((void)0)
#define cpu_relax() ((void)0)
typedef int spinlock_t;
#define spin_lock_init(l) (*(l) = 0)
#define spin_trylock(l) 1
#define spin_unlock(l) ((void)0)
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define max(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define min(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define max_t(t, a, b) max((t)(a), (t)(b))
#define min_t(t, a, b) min((t)(a), (t)(b))

/* the kernel's doubly linked list, the calls conv_ftl.c makes */
struct list_head {
    struct list_head *next, *prev;
};
#define LIST_HEAD_INIT(name) { &(name), &(name) }
static inline void INIT_LIST_HEAD(struct list_head *l) { l->next = l->prev = l; }
static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
    n->prev = h->prev;
    n->next = h;
    h->prev->next = n;
    h->prev = n;
}
static inline void list_del_init(struct list_head *e)
{
    e->prev->next = e->next;
    e->next->prev = e->prev;
    INIT_LIST_HEAD(e);
}
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#define list_first_entry_or_null(head, type, member) \
    ((head)->next != (head) ? container_of((head)->next, type, member) : NULL)

/* the clock: the harness's simulated time (the dispatcher's cpu_clock in NVMeVirt) */
extern uint64_t nvmevirt_sim_now_ns;
#define cpu_clock(cpu) (nvmevirt_sim_now_ns)
#define local_clock() (nvmevirt_sim_now_ns)

/* NVMeVirt's logging: errors are counted (the harness reports them), the rest dropped */
extern unsigned long nvmevirt_errors;
#define NVMEV_DRV_NAME "NVMeVirt"
#define NVMEV_INFO(...) ((void)0)
#define NVMEV_DEBUG(...) ((void)0)
#define NVMEV_DEBUG_VERBOSE(...) ((void)0)
#define NVMEV_ERROR(...)                           \
    do {                                           \
        if (nvmevirt_errors++ < 10) {              \
            fprintf(stderr, "NVMeVirt: " __VA_ARGS__); \
        }                                          \
    } while (0)
#define NVMEV_ASSERT(x) BUG_ON((!(x)))

#define KB(k) ((k) << 10)
#define MB(m) ((m) << 20)
#define GB(g) ((g) << 30)
#define BYTE_TO_KB(b) ((b) >> 10)
#define BYTE_TO_MB(b) ((b) >> 20)
#define BYTE_TO_GB(b) ((b) >> 30)
#define MS_PER_SEC(s) ((s)*1000)
#define US_PER_SEC(s) (MS_PER_SEC(s) * 1000)
#define NS_PER_SEC(s) (US_PER_SEC(s) * 1000)
#define LBA_TO_BYTE(lba) ((lba) << LBA_BITS)
#define BYTE_TO_LBA(byte) ((byte) >> LBA_BITS)

/* the NVMe command fields conv_ftl.c reads (nvme.h's names) */
enum { nvme_cmd_flush = 0x00, nvme_cmd_write = 0x01, nvme_cmd_read = 0x02 };
enum { NVME_RW_FUA = 1 << 14 };
enum { NVME_SC_SUCCESS = 0x0 };
enum { NVME_CSI_NVM = 0x0 };
#define nvme_opcode_string(opcode) "?"
struct nvme_common_command {
    uint8_t opcode;
};
struct nvme_rw_command {
    uint8_t opcode;
    uint64_t slba;
    uint16_t length;
    uint16_t control;
};
struct nvme_command {
    union {
        struct nvme_common_command common;
        struct nvme_rw_command rw;
    };
};

#include "ssd_config.h"

struct nvmev_config {
    unsigned int cpu_nr_dispatcher;
};
struct nvmev_dev {
    struct nvmev_config config;
};
extern struct nvmev_dev *nvmev_vdev;

struct nvmev_request {
    struct nvme_command *cmd;
    uint32_t sq_id;
    uint64_t nsecs_start;
};
struct nvmev_result {
    uint32_t status;
    uint64_t nsecs_target;
    uint64_t result;
};
struct nvmev_ns {
    uint32_t id;
    uint32_t csi;
    uint64_t size;
    void *mapped;
    uint32_t nr_parts;
    void *ftls;
    bool (*proc_io_cmd)(struct nvmev_ns *ns, struct nvmev_request *req,
                        struct nvmev_result *ret);
};

struct buffer;
/* io.c's: the write buffer released at nsecs_target (the harness keeps these events) */
void schedule_internal_operation(int sqid, unsigned long long nsecs_target,
                                 struct buffer *write_buffer, size_t buffs_to_release);

#endif
