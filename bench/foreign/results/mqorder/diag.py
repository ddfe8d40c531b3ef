"""When both planes collect in the queue model in MQSim's order (bench/foreign/mqsim_pairing.py
``scheduler_model``, its ``trace``): per drive and level (:data:`CASES`), seeds 1–3, the
level's measured WAF (QD32).

    PYTHONPATH=python python bench/foreign/results/mqorder/diag.py \
        > bench/foreign/results/mqorder/diag.json
    python bench/foreign/results/mqorder/table.py diag.json > bench/foreign/results/mqorder/diag.md
"""

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
sys.path.insert(0, str(HERE.parent.parent.parent))
import mqsim  # noqa: E402
import mqsim_pairing as mp  # noqa: E402
from cpu_clock import cpu_s  # noqa: E402

#: (level %, the model's queue depth): MQSim's order at QD32, and at 0% QD128 (where the
#: model holds the lockstep, docs/calibrate-validation.md "MQSim's pairing share").
CASES = ((0, 32), (10, 32), (20, 32), (30, 32), (0, 128))


def summary(trace: list[tuple], soft: int, skip: int) -> dict[str, float]:
    rows = trace[skip:]
    total = sum(b[0] - a[0] for a, b in zip(rows, rows[1:], strict=False))
    both = below = 0.0
    progs = {"gc+gc": 0, "gc+host": 0, "host+host": 0, "gc alone": 0, "host alone": 0}
    for a, b in zip(rows, rows[1:], strict=False):
        dt = b[0] - a[0]
        _t, _k, _n, _h, p0, p1, o0, o1, _q0, _q1, _plane = a
        both += dt if o0 and o1 else 0.0
        below += dt if p0 < soft and p1 < soft else 0.0
    for _t, kind, n, hosts, *_ in rows:
        if kind == "p":
            key = ["gc", "host"][min(hosts, 1)] + (" alone" if n == 1 else "")
            if n == 2:
                key = ["gc+gc", "gc+host", "host+host"][hosts]
            progs[key] += 1
    n_p = max(1, sum(progs.values()))
    # relocations programmed alone: was any host write queued for the other plane (then none
    # sat at the relocation's offset), and how many
    alone = [r for r in rows if r[1] == "p" and r[2] == 1 and r[3] == 0]
    other = [r[8 + 1 - r[10]] for r in alone]
    lone_with_other_queued = sum(q > 0 for q in other) / max(1, len(other))
    lone_other_queued_mean = sum(other) / max(1, len(other))
    # collections started (a plane's count in flight rising from one command to the next):
    # the other plane's free blocks against the threshold then, and whether it was collecting
    edge, gaps, joined = 0, [], 0
    for a, b in zip(rows, rows[1:], strict=False):
        for p in (0, 1):
            for _ in range(max(0, b[6 + p] - a[6 + p])):
                gap = b[4 + 1 - p] - soft
                gaps.append(gap)
                edge += gap < 1
                joined += b[6 + 1 - p] > 0
    # runs of "both collecting": how long, and what ends them
    runs, start = [], None
    for r in rows:
        on = r[6] > 0 and r[7] > 0
        if on and start is None:
            start = r
        elif not on and start is not None:
            runs.append((r[0] - start[0], r))
            start = None
    ends = [r for _d, r in runs]
    return {
        "both_collecting": both / total,
        "both_pools_below_threshold": below / total,
        **{f"programs {k}": v / n_p for k, v in progs.items()},
        "gc alone, other plane's writes queued": lone_with_other_queued,
        "gc alone, other plane's writes queued, mean": lone_other_queued_mean,
        "starts: other plane below threshold": edge / max(1, len(gaps)),
        "starts: other plane's free minus threshold, mean": sum(gaps) / max(1, len(gaps)),
        "starts: other plane collecting": joined / max(1, len(gaps)),
        "runs_of_both": len(runs),
        "mean_run_ms": sum(d for d, _ in runs) / max(1, len(runs)) / 1e3,
        "at_run_end_free_minus_threshold": sum(max(r[4], r[5]) - soft for r in ends)
        / max(1, len(ends)),
        "at_run_end_host_queued": sum(r[8] + r[9] for r in ends) / max(1, len(ends)),
    }


def main() -> None:
    stored = json.loads((HERE.parent / "mqsim-form" / "stored.json").read_text())
    cpu0 = cpu_s()
    out = {}
    for d in stored["drives"]:
        if d["drive"] not in ("u512x32", "u640x16"):
            continue
        blocks, pages = mp.drive_geometry(d["drive"])
        soft = max(mp.MAX_ONGOING, int(mqsim.GC_EXEC_THRESHOLD * blocks))
        for level, qd in CASES:
            waf = d["levels"]["32"][str(level)]["waf"]
            for seed in (1, 2, 3):
                tr: list = []
                r = mp.scheduler_model(pages, blocks, waf, qd, 20_000, 5_000, seed, trace=tr)
                # the measured part, about: the trace's first fifth dropped (warm-up writes)
                s = summary(tr, soft, len(tr) // 5)
                s["share_programs"] = r["share_programs"]
                s["iops_error"] = r["iops"] / d["levels"]["32"][str(level)]["iops"] - 1
                out[f"{d['drive']} {level}% QD{qd} seed {seed}"] = s
    out["cpu_s"] = round(cpu_s() - cpu0, 1)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
