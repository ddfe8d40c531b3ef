"""Trace replay rate through the simulator in WAF mode, one core, and its peak memory.

Generates a trace of at least N requests by repeating a real sample from tests/data/traces —
``fio`` (fio-randrw.iolog, a fio 3.33 ``write_iolog`` run) or ``mqsim`` (MQSim's TPC-C sample) —
each pass shifted in time by the sample's span and in address by a pass-dependent stride
(modulo 16 GiB), then replays it with ``overprov.engine.run`` (the path ``overprov simulate
--trace`` takes: the Rust core's trace reader, fold onto 2^20 user pages of 4 KiB at ρ = 0.28,
greedy GC, no precondition, one measured pass) in a child process per trace length, and prints
one JSON line per length: trace records and page requests per wall second and per CPU second of
the child, and the child's peak RSS (``ru_maxrss``). Run with two lengths to see the peak does
not grow with the trace.

Usage: PYTHONPATH=python python bench/trace_bench.py [--records 10000000,1000000]
       [--sample fio|mqsim] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "traces"
ADDRESS_RANGE_BYTES = 16 << 30
STRIDE_BYTES = 4096 * 9973
SAMPLES = {"fio": "fio-randrw.iolog", "mqsim": "mqsim-tpcc-small.trace"}


def generate(sample: str, records: int, out: Path) -> int:
    """Write a trace of >= ``records`` requests; returns how many it holds."""
    lines = (DATA / SAMPLES[sample]).read_text().splitlines()
    rows = [ln.split() for ln in lines if len(ln.split()) == 5]
    if sample == "fio":
        rows = [r for r in rows if r[2] in ("read", "write", "trim")]
    span = max(int(r[0]) for r in rows) + 1
    written, k = 0, 0
    with out.open("w", buffering=1 << 20) as f:
        if sample == "fio":
            f.write("fio version 3 iolog\n0 /data add\n0 /data open\n")
        while written < records:
            shift_t = k * span
            if sample == "fio":
                shift = k * STRIDE_BYTES
                f.writelines(
                    f"{int(t) + shift_t} {name} {op} {(int(off) + shift) % ADDRESS_RANGE_BYTES} "
                    f"{n}\n"
                    for t, name, op, off, n in rows
                )
            else:
                shift = k * STRIDE_BYTES // 512
                f.writelines(
                    f"{int(t) + shift_t} {dev} {(int(lba) + shift) % (ADDRESS_RANGE_BYTES // 512)} "
                    f"{n} {op}\n"
                    for t, dev, lba, n, op in rows
                )
            written += len(rows)
            k += 1
    return written


def replay(path: str) -> dict:
    """One WAF-mode simulation of the trace (run in a child process)."""
    from overprov import engine

    cfg = {
        "geometry": {"user_pages": 1 << 20, "op_ratio": 0.28},
        "precondition": {"kind": "none"},
        "trace": {"path": path},
    }
    wall, cpu = time.perf_counter(), time.process_time()
    report = engine.run(cfg, chunk_pages=1 << 62)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    t = report["trace"]
    return {
        "records": t["records"],
        "page_requests": report["requests"],
        "host_pages": report["totals"]["host_pages"],
        "waf": report["measured"]["waf"] if report["measured"] else None,
        "written_bytes_trace": t["write"]["bytes"],
        "written_bytes_simulated": report["host_bytes"],
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "records_per_s": round(t["records"] / wall),
        "records_per_cpu_s": round(t["records"] / cpu),
        "page_requests_per_s": round(report["requests"] / wall),
        "page_requests_per_cpu_s": round(report["requests"] / cpu),
        "state_bytes": report["state_bytes"],
        "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--records", default="10000000,1000000", help="trace lengths, comma-separated")
    p.add_argument("--sample", choices=sorted(SAMPLES), default="fio")
    p.add_argument("--keep", metavar="DIR", help="keep the generated traces in DIR")
    p.add_argument("--child", metavar="TRACE", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        print(json.dumps(replay(args.child)))
        return
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="overprov-trace-bench"))
    work.mkdir(parents=True, exist_ok=True)
    for n in (int(x) for x in args.records.split(",")):
        path = work / f"{args.sample}-{n}.trace"
        t = time.perf_counter()
        records = generate(args.sample, n, path)
        gen_s = time.perf_counter() - t
        child = subprocess.run(
            [sys.executable, __file__, "--child", str(path)],
            check=True,
            capture_output=True,
            text=True,
        )
        out = json.loads(child.stdout)
        assert out["records"] == records, (out["records"], records)
        assert out["written_bytes_trace"] == out["written_bytes_simulated"]
        out = {
            "sample": args.sample,
            "file_bytes": path.stat().st_size,
            "generate_s": round(gen_s, 1),
            **out,
        }
        print(json.dumps(out), flush=True)
        if not args.keep:
            path.unlink()


if __name__ == "__main__":
    main()
