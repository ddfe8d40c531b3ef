"""No harm from the by-figure weighing (``evidence.REPRODUCED_BY_FIGURE``) on stored truths:
the fifth rule's clause C3 (results/byfig5/RULE.md).

    python bench/foreign/by_figure_noharm.py cases --truth FILE --case NAME [--case ...] --out DIR
    python bench/foreign/by_figure_noharm.py corpus --drive ID [--drive ...] --out DIR
    python bench/foreign/by_figure_noharm.py check --dir DIR [--dir ...]

Every run is made with the flag on under a probe: each call of ``evidence.weights`` is computed
with the flag on and again with it off, and the probe records whether any weight differs. When
none differs, off's run is the same computation as on's, so its figures are on's; when one
does, the run is made again with the flag off and both are kept.

``cases``: ``evaluate.py``'s calibrate command for each case on the truth (``--case`` names one
of ``evaluate.CASES`` or ``evaluate.WAF_CASES``; a WAF-only truth at its own queue depth),
kept in DIR/<truth stem>--<case>.json with the probe's counts and the CPU seconds. ``corpus``:
``bench/corpus_bench.py`` on one published drive at a time (``--only ID``, no foreign results),
its held-out cases kept as JSON lines, on (and off where the probe saw a difference).
``check``: every figure of on against off's, each against its truth; "worse" is more than
1 point above off's |error|, at any level.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "python"))
import by_figure_rule  # noqa: E402
import evaluate  # noqa: E402
from overprov.calibrate import evidence  # noqa: E402

POINT = 0.01  # "more than 1 point above off's |error|"
LEVELS = (0.0, 10.0, 20.0, 30.0, 40.0)


def install_probe(on: bool, log: Path) -> None:
    """Set the flag and wrap ``evidence.weights`` so that each outer call is computed both
    ways; the counts are written to ``log`` (JSON) at exit."""
    evidence.REPRODUCED_BY_FIGURE = on
    original = evidence.weights
    lock = threading.RLock()
    inner = threading.local()
    seen = {"calls": 0, "differ": 0, "examples": []}

    def probed(chi2, reproduced=None, refuted=None, queue_depth=None):  # noqa: ANN001, ANN202
        if getattr(inner, "depth", 0):  # evidence.weights' own recursion
            return original(chi2, reproduced, refuted, queue_depth)
        with lock:
            inner.depth = 1
            try:
                got = original(chi2, reproduced, refuted, queue_depth)
                evidence.REPRODUCED_BY_FIGURE = not on
                other = original(chi2, reproduced, refuted, queue_depth)
            finally:
                evidence.REPRODUCED_BY_FIGURE = on
                inner.depth = 0
            seen["calls"] += 1
            if any(abs(got[k] - other[k]) > 1e-12 for k in got):
                seen["differ"] += 1
                if len(seen["examples"]) < 5:
                    seen["examples"].append({str(k): [got[k], other[k]] for k in got})
        return got

    evidence.weights = probed
    atexit.register(lambda: log.write_text(json.dumps(seen) + "\n"))


def _run(args: list[str], on: bool, probe: bool) -> tuple[subprocess.CompletedProcess, dict, float]:
    """``args`` (``["overprov", ...]`` or ``["corpus_bench", ...]``) in a fresh interpreter with
    the flag ``on``, under the probe when ``probe``; (the process, the probe's counts, CPU s)."""
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "probe.json"
        pre = (f"import sys; sys.path.insert(0, {str(HERE)!r}); import by_figure_noharm as p; "
               "from overprov.calibrate import evidence; "
               f"evidence.REPRODUCED_BY_FIGURE = {on}; ")  # fmt: skip
        if probe:
            pre += f"from pathlib import Path; p.install_probe({on}, Path({str(log)!r})); "
        if args[0] == "overprov":
            body = "from overprov.cli import main; sys.argv = ['overprov', *sys.argv[1:]]"
        else:
            body = (f"sys.path.insert(0, {str(ROOT / 'bench')!r}); import corpus_bench; "
                    "main = corpus_bench.main; "
                    "sys.argv = ['corpus_bench', *sys.argv[1:]]")  # fmt: skip
        code = f"{pre}{body}; rc = main(); sys.stdout.flush(); sys.exit(rc)"
        before = os.times()
        res = subprocess.run([sys.executable, "-c", code, *args[1:]], capture_output=True,
                             text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT / "python"),
                                                       "PATH": "/usr/bin:/bin"})  # fmt: skip
        after = os.times()
        seen = json.loads(log.read_text()) if log.exists() else {}
    cpu = sum(after[2:4]) - sum(before[2:4])
    return res, seen, cpu


def _calibrate(cmd: list[str], on: bool, probe: bool) -> dict[str, Any]:
    """One calibrate run: its prediction (or why it refused), the probe's counts, CPU s."""
    with tempfile.TemporaryDirectory() as out:
        res, seen, cpu = _run(["overprov", *cmd[3:], "--out", out], on, probe)
    got: dict[str, Any] = {"probe": seen, "cpu_s": cpu}
    if res.returncode == 0:
        got["prediction"] = json.loads(res.stdout)
    else:
        got["refused"] = (res.stderr.strip().splitlines() or ["(no message)"])[-1]
    return got


def case_command(truth: Path, case_name: str) -> tuple[list[str], dict]:
    """``evaluate.py``'s command for a case of ``CASES`` or (a WAF-only truth) ``WAF_CASES``."""
    doc = json.loads(truth.read_text())
    if doc.get("measures") != ["waf"]:
        return by_figure_rule.case_command(truth, case_name)
    qd = doc["levels"][0]["queue_depth"]
    case = next(c for c in evaluate.WAF_CASES if c[0] == case_name)
    cmd = evaluate.command(doc, evaluate.truth_curve(doc, qd), case, 1, [])
    head = {"truth": str(truth.resolve().relative_to(ROOT)), "case": case_name,
            "command": "overprov " + " ".join(cmd[3:]), "queue_depth": qd,
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}  # fmt: skip
    return cmd, head


def run_case(truth: Path, case_name: str, out: Path) -> Path:
    cmd, kept = case_command(truth, case_name)
    kept["on"] = _calibrate(cmd, True, True)
    if kept["on"]["probe"].get("differ") or "refused" in kept["on"] or not kept["on"]["probe"]:
        kept["off"] = _calibrate(cmd, False, False)
    path = by_figure_rule.case_path(truth, case_name, out)
    path.write_text(json.dumps(kept, indent=1) + "\n")
    cpu = kept["on"]["cpu_s"] + kept.get("off", {}).get("cpu_s", 0.0)
    print(f"{path.name}: weights differing {kept['on']['probe'].get('differ')} of "
          f"{kept['on']['probe'].get('calls')} calls, {cpu:.0f} CPU s", flush=True)  # fmt: skip
    return path


def run_corpus(drive: str, out: Path) -> Path:
    """corpus_bench on one published drive (no foreign results), on under the probe, and off
    where a weight differed; the held-out cases as corpus_bench's --partial lines."""
    kept: dict[str, Any] = {"drive": drive}
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "no-foreign"
        empty.mkdir()
        for on in (True, False):
            part = Path(tmp) / f"{on}.jsonl"
            args = ["corpus_bench", "--jobs", "1", "--foreign", str(empty), "--only", drive,
                    "--partial", str(part)]  # fmt: skip
            res, seen, cpu = _run(args, on, on)
            name = "on" if on else "off"
            kept[name] = {"probe": seen, "cpu_s": cpu, "rc": res.returncode,
                          "cases": [json.loads(x) for x in part.read_text().splitlines()]
                          if part.exists() else []}  # fmt: skip
            if res.returncode != 0:
                kept[name]["stderr"] = res.stderr.strip().splitlines()[-3:]
            if on and seen and not seen.get("differ") and res.returncode == 0:
                break
    path = out / f"corpus-{drive}.json"
    path.write_text(json.dumps(kept, indent=1) + "\n")
    cpu = kept["on"]["cpu_s"] + kept.get("off", {}).get("cpu_s", 0.0)
    print(f"{path.name}: weights differing {kept['on']['probe'].get('differ')} of "
          f"{kept['on']['probe'].get('calls')} calls, {len(kept['on']['cases'])} cases, "
          f"{cpu:.0f} CPU s", flush=True)  # fmt: skip
    return path


def case_errors(kept: dict, which: str) -> dict[tuple[float, str], float] | None:
    """{(level, "iops"/"waf"): prediction ÷ truth − 1} at the truth's queue depth."""
    got = kept.get(which) or kept["on"]
    if "prediction" not in got:
        return None
    doc = json.loads((ROOT / kept["truth"]).read_text())
    truth = evaluate.truth_curve(doc, kept.get("queue_depth", 32))
    measured = doc.get("measures", ["iops", "waf"])  # a WAF-only simulator's IOPS are not figures
    out = {}
    for r in got["prediction"]["levels"]:
        t = truth.get(int(r["extra_op_percent"]), {})
        for what, key in (("iops", "steady_iops"), ("waf", "waf")):
            if what in measured and t.get(f"steady_{what}") and r.get(key):
                out[(float(r["extra_op_percent"]), what)] = r[key] / t[f"steady_{what}"] - 1
    return out


def corpus_errors(kept: dict, which: str) -> dict[tuple, float]:
    """{(held-out kind, level, raw NAND given): relative error} of the predicted cases."""
    got = kept.get(which) or kept["on"]
    return {(c["held_out"]["kind"], c["held_out"]["extra_op_percent"], c["raw_nand_given"]):
            c["rel_error"] for c in got["cases"] if c.get("rel_error") is not None}  # fmt: skip


def check(folders: list[Path]) -> bool:
    """C3 of results/byfig5/RULE.md over the kept runs."""
    worse, lost, n, fired = [], [], 0, []
    for f in sorted(p for d in folders for p in d.glob("*.json")):
        kept = json.loads(f.read_text())
        if kept["on"]["probe"].get("differ"):
            fired.append(f.stem)
        if f.stem.startswith("corpus-"):
            e_on, e_off = corpus_errors(kept, "on"), corpus_errors(kept, "off")
        else:
            e_on, e_off = case_errors(kept, "on"), case_errors(kept, "off")
            if e_on is None:
                if e_off is not None:
                    lost.append(f.stem)
                continue
            if e_off is None:
                continue
        for k, e in e_on.items():
            n += 1
            if k in e_off and abs(e) > abs(e_off[k]) + POINT:
                worse.append((f.stem, k, e, e_off[k]))
        for k in set(e_off) - set(e_on):
            lost.append(f"{f.stem} {k}")
    print(f"runs where a weight differed on against off: {len(fired)} ({', '.join(fired) or '-'})")
    for stem, k, a, b in worse:
        print(f"   {stem}: {k} {100 * b:+.1f}% -> {100 * a:+.1f}%")
    for what in lost:
        print(f"   {what}: answered off, not on")
    ok = not worse and not lost
    print(f"C3 on against off: {len(worse)} of {n} figures worse, {len(lost)} lost: "
          f"{'holds' if ok else 'FAILS'}")  # fmt: skip
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("cases")
    c.add_argument("--truth", type=Path, action="append", required=True)
    c.add_argument("--case", action="append", required=True)
    c.add_argument("--out", type=Path, required=True)
    k = sub.add_parser("corpus")
    k.add_argument("--drive", action="append", required=True)
    k.add_argument("--out", type=Path, required=True)
    ch = sub.add_parser("check")
    ch.add_argument("--dir", type=Path, action="append", required=True)
    args = ap.parse_args(argv)
    if args.what == "check":
        return 0 if check(args.dir) else 1
    args.out.mkdir(parents=True, exist_ok=True)
    if args.what == "cases":
        for truth in args.truth:
            for name in args.case:
                run_case(truth, name, args.out)
    else:
        for drive in args.drive:
            run_corpus(drive, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
