/* A stand-in clock for VSSIM's FTL compiled standalone (bench/foreign/vssim/build.sh passes it
 * to every VSSIM file with -include; no VSSIM file is changed). VSSIM runs in real time: its
 * SSD module (SSD_MODULE/ssd_io_manager.c) reads gettimeofday() through get_usec() and
 * busy-waits until a register, cell or channel delay has passed. Here gettimeofday() reads the
 * harness's simulated clock instead: each reading advances it by one VSSIM time unit, the cost
 * of one reading of the clock, so a busy-wait of D units takes D readings and ends D units
 * later. The driver writes ssd.conf's delays in these units (VSSIM_UNIT_NS each, harness.c). */
#ifndef OVERPROV_VSSIM_CLOCK_H
#define OVERPROV_VSSIM_CLOCK_H
#include <sys/time.h>
int harness_gettimeofday(struct timeval *tv, void *tz);
#define gettimeofday(tv, tz) harness_gettimeofday((tv), (tz))
#endif
