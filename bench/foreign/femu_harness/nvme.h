/*
 * Stand-in for FEMU's hw/femu/nvme.h (which pulls in QEMU) when FEMU's black-box FTL
 * (hw/femu/bbssd/ftl.c, ftl.h and hw/femu/lib/pqueue.c, unmodified) is compiled on its own
 * by harness.c. It declares only what ftl.c and ftl.h use: the controller's bb_params and the
 * request fields the FTL reads and writes, QEMU's tail queues (glibc's <sys/queue.h> TAILQ,
 * the same doubly linked list), g_malloc0, the realtime clock (the harness's simulated time)
 * and the thread and ring calls of ftl_thread, which the harness never starts.
 * This file is the harness's own code, not FEMU's.
 */
#ifndef FEMU_STANDALONE_NVME_H
#define FEMU_STANDALONE_NVME_H

#include <assert.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/queue.h>
#include <unistd.h>

#include "inc/pqueue.h"

/* qemu/queue.h's tail queue, as glibc's <sys/queue.h> */
#define QTAILQ_HEAD(name, type) TAILQ_HEAD(name, type)
#define QTAILQ_ENTRY(type) TAILQ_ENTRY(type)
#define QTAILQ_INIT(head) TAILQ_INIT(head)
#define QTAILQ_FIRST(head) TAILQ_FIRST(head)
#define QTAILQ_INSERT_TAIL(head, elm, field) TAILQ_INSERT_TAIL(head, elm, field)
#define QTAILQ_REMOVE(head, elm, field) TAILQ_REMOVE(head, elm, field)

/* glib */
static inline void *g_malloc0(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        fprintf(stderr, "femu-standalone: out of memory (%zu bytes)\n", n);
        abort();
    }
    return p;
}

/* QEMU's realtime clock: the harness's simulated time, in nanoseconds */
enum { QEMU_CLOCK_REALTIME = 0 };
extern uint64_t femu_sim_now_ns;
static inline int64_t qemu_clock_get_ns(int clock)
{
    (void)clock;
    return (int64_t)femu_sim_now_ns;
}

/* QEMU threads: ssd_init starts ftl_thread; the harness calls ssd_write itself instead */
typedef struct { int unused; } QemuThread;
enum { QEMU_THREAD_JOINABLE = 0 };
static inline void qemu_thread_create(QemuThread *t, const char *name,
                                      void *(*fn)(void *), void *arg, int mode)
{
    (void)t; (void)name; (void)fn; (void)arg; (void)mode;
}

/* FEMU's rings between the NVMe pollers and the FTL thread (unused: no FTL thread) */
struct rte_ring;
static inline int femu_ring_count(struct rte_ring *r) { (void)r; return 0; }
static inline int femu_ring_dequeue(struct rte_ring *r, void **obj, int n)
{ (void)r; (void)obj; (void)n; return 0; }
static inline int femu_ring_enqueue(struct rte_ring *r, void **obj, int n)
{ (void)r; (void)obj; (void)n; return 0; }

enum { NVME_CMD_WRITE = 0x01, NVME_CMD_READ = 0x02, NVME_CMD_DSM = 0x09 };

typedef struct NvmeCmd {
    uint8_t opcode;
} NvmeCmd;

/* the request fields ftl.c uses (FEMU's NvmeRequest has many more) */
typedef struct NvmeRequest {
    NvmeCmd cmd;
    uint64_t slba;     /* first 512-byte sector */
    uint16_t nlb;      /* sectors (a count, as FEMU's nvme_rw sets it) */
    int64_t stime;     /* submission time, ns */
    int64_t reqlat;
    int64_t expire_time;
} NvmeRequest;

/* FEMU's BbCtrlParams (nvme.h), set from the device's properties */
typedef struct BbCtrlParams {
    int secsz;
    int secs_per_pg;
    int pgs_per_blk;
    int blks_per_pl;
    int pls_per_lun;
    int luns_per_ch;
    int nchs;
    int pg_rd_lat;
    int pg_wr_lat;
    int blk_er_lat;
    int ch_xfer_lat;
    int gc_thres_pcent;
    int gc_thres_pcent_high;
} BbCtrlParams;

struct ssd;

typedef struct FemuCtrl {
    struct ssd *ssd;
    BbCtrlParams bb_params;
    int nr_pollers;
    struct rte_ring **to_ftl;
    struct rte_ring **to_poller;
    bool dataplane_started;
} FemuCtrl;

#endif
