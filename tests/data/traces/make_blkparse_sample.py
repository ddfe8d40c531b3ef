"""Make blkparse-loop.txt: blkparse's own text rendering of the I/O of a real fio run.

blktrace cannot capture on the machines this project is built on (the kernel refuses its relay
files), so this writes the binary per-CPU file blktrace would have written — the
`struct blk_io_trace` records of the kernel's include/uapi/linux/blktrace_api.h, one Q (queued),
D (issued) and C (completed) event per request, plus a process-name notify — for the requests of
fio iologs (fio --write_iolog), one after the other in time, and runs the real blkparse on it.
Q is at fio's timestamp; D (+2 µs) and C (+30 µs) are assumed offsets, not measurements.

    python3 make_blkparse_sample.py blkparse-loop.txt fio-randrw.iolog fio-trimwrite.iolog
"""

import os
import struct
import subprocess
import sys
import tempfile

MAGIC = 0x65617400 | 0x07
TC_SHIFT = 16
TC_READ, TC_WRITE, TC_SYNC = 1 << 0, 1 << 1, 1 << 3
TC_QUEUE, TC_ISSUE, TC_COMPLETE = 1 << 4, 1 << 6, 1 << 7
TC_NOTIFY, TC_DISCARD = 1 << 10, 1 << 13
TA_QUEUE, TA_ISSUE, TA_COMPLETE = 1, 7, 8
TN_PROCESS = 0
DEVICE = (7 << 20) | 0  # loop0: major 7, minor 0 as a kernel dev_t
PID = 4242
FMT = "=IIQQIIIIIHH"  # magic seq time sector bytes action pid device cpu error pdu_len


def event(seq, time_ns, sector, nbytes, action, pdu=b""):
    head = struct.pack(
        FMT, MAGIC, seq, time_ns, sector, nbytes, action, PID, DEVICE, 0, 0, len(pdu)
    )
    return head + pdu


def main(out, *iologs):
    events = [event(0, 0, 0, 0, (TC_NOTIFY << TC_SHIFT) | TN_PROCESS, b"fio\0")]
    seq, start_ns, end_ns = 1, 0, 0
    for iolog in iologs:
        with open(iolog) as fh:
            lines = fh.read().splitlines()
        assert lines[0] == "fio version 3 iolog", lines[0]
        start_ns = end_ns
        for line in lines[1:]:
            f = line.split()
            if len(f) != 5 or f[2] not in ("read", "write", "trim"):
                continue
            t_ns, offset, length = start_ns + int(f[0]) * 1000, int(f[3]), int(f[4])
            end_ns = max(end_ns, t_ns + 100_000)
            seq = add(events, seq, t_ns, offset, length, f[2])
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "loop0.blktrace.0"), "wb") as fh:
            fh.write(b"".join(events))
        text = subprocess.run(
            ["blkparse", "-i", "loop0", "-D", d], check=True, capture_output=True, text=True
        ).stdout
    with open(out, "w") as fh:
        fh.write(text)


def add(events, seq, t_ns, offset, length, action):
    cat = {"read": TC_READ, "write": TC_WRITE | TC_SYNC, "trim": TC_WRITE | TC_DISCARD}[action]
    for dt, ta, tc in (
        (0, TA_QUEUE, TC_QUEUE),
        (2000, TA_ISSUE, TC_ISSUE),
        (30000, TA_COMPLETE, TC_COMPLETE),
    ):
        events.append(event(seq, t_ns + dt, offset // 512, length, ((cat | tc) << TC_SHIFT) | ta))
        seq += 1
    return seq


if __name__ == "__main__":
    main(*sys.argv[1:])
