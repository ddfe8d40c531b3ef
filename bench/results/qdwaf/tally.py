"""Does a WAF that moves with queue depth mark the cases calibrate misses? (bench/results/qdwaf/)

    PYTHONPATH=python python bench/results/qdwaf/tally.py [--families F,G,...] \
        > bench/results/qdwaf/tally.txt

Every stored case with a WAF at two queue depths at one extra-OP level, two kinds:

* **plan cases** (what calibrate itself sees): every ``measurement.json`` under bench/ with a
  probe level (``Level.queue_depth`` set, the plan's second queue depth) and a level at the
  measurement's queue depth at the same extra OP, both with a WAF, and a ``prediction.json``
  beside it. The difference is the probe's WAF over the main level's, less one; its noise is
  each level's standard error from its own rounds' WAFs (the write counters' deltas,
  ``counter_waf``), host-weighted, in quadrature. The truth is the FEMU results file of the same
  drive (geometry, thresholds, program time, namespace), found by its config anywhere under
  bench/; the errors are the prediction's at the held-out levels 10, 20 and 30% against its
  QD32 levels (the plan measures 0% and 40%).
* **figure cases** (``bench/foreign/evaluate.py``'s ``evaluation.json`` files): the truth curve
  the case was run on (the results file whose QD32 figures are the case's truths, found by its
  file name anywhere under bench/ and checked figure by figure) has WAF at QD4 and at its own
  queue depth at some levels; the difference and its noise come from the truth's own series
  (the per-interval WAFs inside each level's steady window, unweighted). The errors are the
  case's held-out summary (``iops_held_out``, ``waf_held_out``: the levels not fitted).

A case misses when its held-out errors break the targets of docs/calibrate-validation.md, "A
fourth FTL, held out": WAF worst |error| above 5%, or IOPS median above 10% or worst above 20%.

Each row: family, case, level, the two WAFs, the difference d, its noise s (relative), z = |d|/s
and whether the case misses. Summary: by family, the cases flagged at a few (|d|, z) thresholds
against misses. Nothing here fits or changes a figure; it reads stored files.
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import statistics
import sys
from pathlib import Path

from overprov.calibrate.counter_waf import round_wafs

ROOT = Path("bench")
HELD_OUT_PLAN = (10.0, 20.0, 30.0)
WAF_WORST_MAX = 0.05
IOPS_MEDIAN_MAX = 0.10
IOPS_WORST_MAX = 0.20
#: (|d| floor, z) pairs the summary counts flags at
THRESHOLDS = ((0.02, 2.0), (0.03, 3.0), (0.05, 3.0), (0.05, 2.0), (0.10, 2.0))


def misses(waf_worst: float | None, iops_median: float | None, iops_worst: float | None) -> bool:
    """The held-out errors (fractions) break a target."""
    if waf_worst is not None and waf_worst > WAF_WORST_MAX:
        return True
    if iops_median is not None and iops_median > IOPS_MEDIAN_MAX:
        return True
    return iops_worst is not None and iops_worst > IOPS_WORST_MAX


def weighted_se(rows: list[tuple[float, float]]) -> tuple[float, float] | None:
    """(mean, standard error) of values ``rows`` = [(value, weight)], the weighted mean's
    spread from the values' scatter; None with fewer than two."""
    rows = [(v, w) for v, w in rows if w > 0]
    if len(rows) < 2:
        return None
    tw = sum(w for _, w in rows)
    mean = sum(v * w for v, w in rows) / tw
    n = len(rows)
    var = sum(w * w * (v - mean) ** 2 for v, w in rows) / tw**2 * n / (n - 1)
    return mean, math.sqrt(var)


# ---------------------------------------------------------------- plan cases


def level_round_wafs(m: dict, level: dict) -> list[tuple[float, float]]:
    """(WAF, host bytes) of the level's window rounds from the counters' deltas."""
    x, q = level["extra_op_percent"], level.get("queue_depth")
    prefix = f"op{x:g}-qd{q}-r" if q is not None else f"op{x:g}-r"
    rounds = m["rounds"]
    idx = [i for i, r in enumerate(rounds) if r["label"].startswith(prefix)]
    # a segment run again: its last run's rounds
    starts = [j for j, i in enumerate(idx) if rounds[i]["label"].endswith("-r001")]
    idx = idx[starts[-1] :] if starts else idx
    idx = idx[-level["window_rounds"] :] if level.get("window_rounds") else idx
    pairs = []
    for i in idx:
        if i == 0:
            continue
        before, after = rounds[i - 1], rounds[i]
        pairs.append((_Counters(before), _Counters(after)))
    got = round_wafs(pairs)
    if got is None:
        return []
    return [(w.waf, float(w.host_written_bytes)) for w in got if w.host_written_bytes > 0]


class _Counters:
    def __init__(self, r: dict) -> None:
        self.host_bytes, self.nand_bytes = r.get("host_bytes"), r.get("nand_bytes")


def femu_truths() -> dict[tuple, Path]:
    """{drive key: FEMU results file} over bench/."""
    out: dict[tuple, Path] = {}
    for p in sorted(glob.glob(str(ROOT / "**" / "*.json"), recursive=True)):
        if Path(p).name in ("measurement.json", "prediction.json", "run.json", "evaluation.json"):
            continue
        try:
            d = json.loads(Path(p).read_text())
        except (ValueError, OSError):
            continue
        if not isinstance(d, dict) or d.get("simulator") != "FEMU" or "config" not in d:
            continue
        c = d["config"]
        try:
            key = femu_key(
                c["geometry"]["nchs"], c["geometry"]["luns_per_ch"], c["geometry"]["blks_per_pl"],
                c["gc_thresholds"]["gc_thres_pcent"], c["gc_thresholds"]["gc_thres_pcent_high"],
                c["flash_ns"]["pg_wr_lat"], c["namespace_mb"],
            )  # fmt: skip
        except (KeyError, TypeError):
            continue
        qd32 = {lv["extra_op_percent"] for lv in d["levels"] if lv.get("queue_depth") == 32}
        if set(HELD_OUT_PLAN) <= {float(x) for x in qd32}:
            out.setdefault(key, Path(p))
    return out


def femu_key(nchs, luns, blks, thres, thres_high, wr_ns, ns_mb) -> tuple:
    return (int(nchs), int(luns), int(blks), int(thres), int(thres_high), int(wr_ns), int(ns_mb))


def plan_cases() -> list[dict]:
    truths = femu_truths()
    rows: list[dict] = []
    for p in sorted(glob.glob(str(ROOT / "**" / "measurement.json"), recursive=True)):
        folder = Path(p).parent
        m = json.loads(Path(p).read_text())
        probes = [lv for lv in m.get("levels", []) if lv.get("queue_depth") is not None]
        if not probes or not (folder / "prediction.json").exists():
            continue
        run = folder / "run.json"
        if not run.exists():
            continue
        r = json.loads(run.read_text())
        d = r.get("drive") or {}
        try:
            key = femu_key(d["nchs"], d["luns_per_ch"], d["blks_per_pl"], d["gc_thres_pcent"],
                           d["gc_thres_pcent_high"], d["pg_wr_lat"], r["namespace_mb"])  # fmt: skip
        except (KeyError, TypeError):
            continue
        if key not in truths:
            continue
        truth = json.loads(truths[key].read_text())
        curve = {float(lv["extra_op_percent"]): lv for lv in truth["levels"]
                 if lv.get("queue_depth") == 32}  # fmt: skip
        pred = json.loads((folder / "prediction.json").read_text())
        plv = {float(x["extra_op_percent"]): x for x in pred.get("levels", [])}
        if not set(HELD_OUT_PLAN) <= set(plv):
            continue
        waf_e = [abs(plv[x]["waf"] / curve[x]["steady_waf"] - 1) for x in HELD_OUT_PLAN]
        iops_e = [abs(plv[x]["steady_iops"] / curve[x]["steady_iops"] - 1) for x in HELD_OUT_PLAN]
        miss = misses(max(waf_e), statistics.median(iops_e), max(iops_e))
        for probe in probes:
            main = [lv for lv in m["levels"] if lv.get("queue_depth") is None
                    and lv["extra_op_percent"] == probe["extra_op_percent"]]  # fmt: skip
            if not main or main[-1].get("waf") is None or probe.get("waf") is None:
                continue
            a, b = main[-1], probe
            sa = weighted_se(level_round_wafs(m, a))
            sb = weighted_se(level_round_wafs(m, b))
            dd = b["waf"] / a["waf"] - 1
            s = math.hypot(sa[1] / sa[0], sb[1] / sb[0]) if sa and sb else None
            rows.append({
                "kind": "plan", "family": "FEMU", "case": str(folder), "drive": truths[key].stem,
                "level": probe["extra_op_percent"], "qd_main": m["qd"],
                "qd_probe": b["queue_depth"],
                "waf_main": a["waf"], "waf_probe": b["waf"], "d": dd, "noise": s,
                "truth_d": truth_d(truth, probe["extra_op_percent"], m["qd"], b["queue_depth"]),
                "waf_worst": max(waf_e), "iops_median": statistics.median(iops_e),
                "iops_worst": max(iops_e), "miss": miss,
                "probe_rounds": b.get("window_rounds"), "probe_settled": b.get("settled"),
            })  # fmt: skip
    return rows


def truth_d(truth: dict, x: float, qa: int, qb: int) -> float | None:
    got = {lv["queue_depth"]: lv["steady_waf"] for lv in truth["levels"]
           if float(lv["extra_op_percent"]) == float(x)}  # fmt: skip
    return got[qb] / got[qa] - 1 if qa in got and qb in got else None


# ---------------------------------------------------------------- figure cases


def series_se(level: dict) -> tuple[float, float] | None:
    """(mean, se) of the per-interval WAFs inside the level's steady window."""
    w = (level.get("steady_window") or {}).get("span_writes")
    ser = level.get("series") or []
    if not w or not ser:
        return None
    a, b = w
    vals = [s["waf"] for s in ser if a - 1e-6 < s["span_writes"] <= b + 1e-6 and s.get("waf")]
    return weighted_se([(v, 1.0) for v in vals])


def truth_files() -> dict[str, list[Path]]:
    out: dict[str, list[Path]] = {}
    for p in sorted(glob.glob(str(ROOT / "**" / "*.json"), recursive=True)):
        out.setdefault(Path(p).name, []).append(Path(p))
    return out


def matches(doc: dict, case: dict, qd: int) -> bool:
    """The results document's figures at ``qd`` are the case's truths, level by level."""
    try:
        lv = {float(x["extra_op_percent"]): x for x in doc["levels"] if x["queue_depth"] == qd}
    except (KeyError, TypeError):
        return False
    seen = 0
    for c in case.get("levels", []):
        t = lv.get(float(c["extra_op_percent"]))
        if t is None:
            return False
        for key, tkey in (("iops_true", "steady_iops"), ("waf_true", "steady_waf")):
            if c.get(key) is not None and t.get(tkey) is not None:
                if abs(c[key] / t[tkey] - 1) > 1e-9:
                    return False
                seen += 1
    return seen > 0


def figure_cases() -> list[dict]:
    files = truth_files()
    rows: list[dict] = []
    cache: dict[Path, dict] = {}
    for p in sorted(glob.glob(str(ROOT / "**" / "evaluation.json"), recursive=True)):
        d = json.loads(Path(p).read_text())
        if not isinstance(d, list):
            continue
        for curve in d:
            name = curve.get("results")
            if not name:
                continue
            for case in curve.get("cases", []):
                if case.get("error") or not case.get("summary"):
                    continue
                doc = None
                for cand in files.get(name, []):
                    if cand not in cache:
                        try:
                            cache[cand] = json.loads(cand.read_text())
                        except (ValueError, OSError):
                            cache[cand] = {}
                    if matches(cache[cand], case, curve.get("qd", 32)):
                        doc = (cand, cache[cand])
                        break
                if doc is None:
                    continue
                rows.extend(figure_rows(p, curve, case, *doc))
    return rows


def figure_rows(ev: str, curve: dict, case: dict, path: Path, doc: dict) -> list[dict]:
    s = case["summary"]
    waf_h, iops_h = s.get("waf_held_out"), s.get("iops_held_out")
    errors = (waf_h["worst_abs_err"] if waf_h else None,
              iops_h["median_abs_err"] if iops_h else None,
              iops_h["worst_abs_err"] if iops_h else None)  # fmt: skip
    name = f"{ev} :: {path.name} :: {case['case']}"
    family = curve["simulator"].split()[0]
    return truth_rows(family, name, path, doc, curve.get("qd", 32), errors)


def truth_rows(family: str, case: str, path: Path, doc: dict, qd: int, errors: tuple) -> list[dict]:
    """One row per level where the truth ``doc`` has a WAF at QD4 and at ``qd``; ``errors``:
    the case's held-out (WAF worst, IOPS median, IOPS worst), fractions or None."""
    waf_worst, iops_med, iops_worst = errors
    if waf_worst is None and iops_med is None:
        return []
    by: dict[float, dict] = {}
    for lv in doc["levels"]:
        if lv.get("steady_waf") is not None:
            by.setdefault(float(lv["extra_op_percent"]), {})[lv["queue_depth"]] = lv
    out = []
    for x, q in sorted(by.items()):
        if qd not in q or 4 not in q or qd == 4:
            continue
        a, b = q[qd], q[4]
        sa, sb = series_se(a), series_se(b)
        noise = math.hypot(sa[1] / sa[0], sb[1] / sb[0]) if sa and sb else None
        out.append({
            "kind": "figure", "family": family, "case": case, "drive": str(path), "level": x,
            "qd_main": qd, "qd_probe": 4, "waf_main": a["steady_waf"],
            "waf_probe": b["steady_waf"], "d": b["steady_waf"] / a["steady_waf"] - 1,
            "noise": noise, "truth_d": None, "waf_worst": waf_worst, "iops_median": iops_med,
            "iops_worst": iops_worst, "miss": misses(waf_worst, iops_med, iops_worst),
        })  # fmt: skip
    return out


def iops_only_cases() -> list[dict]:
    """``bench/foreign/iops_only_rule.py``'s stored cases (``cases/*.json``: the truth's path,
    the ``off`` arm's IOPS errors by level; held out: 10, 20, 30%)."""
    rows: list[dict] = []
    for p in sorted(glob.glob(str(ROOT / "**" / "cases" / "*.json"), recursive=True)):
        try:
            d = json.loads(Path(p).read_text())
        except (ValueError, OSError):
            continue
        if not isinstance(d, dict) or "truth" not in d or "off" not in d:
            continue
        truth = Path(d["truth"])
        if not truth.exists():
            continue
        doc = json.loads(truth.read_text())
        errs = [abs(lv["iops_err"]) for lv in d["off"].get("levels", [])
                if float(lv["extra_op_percent"]) in HELD_OUT_PLAN]  # fmt: skip
        if len(errs) != len(HELD_OUT_PLAN):
            continue
        family = str(doc.get("simulator", "?")).split()[0]
        errors = (None, statistics.median(errs), max(errs))
        rows.extend(truth_rows(family, f"{p} :: {d['case']}", truth, doc, 32, errors))
    return rows


def reserve_cases() -> list[dict]:
    """``bench/gc_reserve_bench.py``'s stored plan cases (a ``cases`` list of ``kind: plan``
    rows, each figure's ``baseline_error``: calibrate's readings as they are; held out: 10,
    20, 30%), the truth ``folder/drive.json``."""
    rows: list[dict] = []
    for p in sorted(glob.glob(str(ROOT / "**" / "*.json"), recursive=True)):
        try:
            d = json.loads(Path(p).read_text())
        except (ValueError, OSError):
            continue
        if not isinstance(d, dict) or not isinstance(d.get("cases"), list):
            continue
        for c in d["cases"]:
            if not isinstance(c, dict) or c.get("kind") != "plan" or "rows" not in c:
                continue
            truth = Path(c["folder"]) / f"{c['drive']}.json"
            if not truth.exists():
                continue
            doc = json.loads(truth.read_text())
            held = [r for r in c["rows"] if float(r["extra_op_percent"]) in HELD_OUT_PLAN]
            waf = [abs(r["baseline_error"]) for r in held if r["figure"] == "waf"]
            iops = [abs(r["baseline_error"]) for r in held if r["figure"] == "iops"]
            errors = (max(waf) if waf else None, statistics.median(iops) if iops else None,
                      max(iops) if iops else None)  # fmt: skip
            family = str(doc.get("simulator", "?")).split()[0]
            name = f"{p} :: {c['drive']} raw NAND {c.get('raw_nand_given')}"
            rows.extend(truth_rows(family, name, truth, doc, 32, errors))
    return rows


# ---------------------------------------------------------------- summary


def flagged(row: dict, floor: float, z: float, levels: tuple[float, ...] | None = None) -> bool:
    if levels is not None and row["level"] not in levels:
        return False
    if row["noise"] is None:
        return abs(row["d"]) > floor
    return abs(row["d"]) > floor and abs(row["d"]) > z * row["noise"]


def by_case(rows: list[dict], floor: float, z: float, levels=None) -> dict[str, tuple[bool, bool]]:
    """{case: (flagged at any of its levels, misses)}."""
    out: dict[str, tuple[bool, bool]] = {}
    for r in rows:
        f, m = out.get(r["case"], (False, r["miss"]))
        out[r["case"]] = (f or flagged(r, floor, z, levels), m)
    return out


def table(rows: list[dict], levels=None, label: str = "") -> list[str]:
    lines = [f"## flags against misses {label}".rstrip(), ""]
    fams = sorted({r["family"] + " " + r["kind"] for r in rows})
    lines.append(
        "family kind | cases | misses | "
        + " | ".join(
            f"|d|>{f:.0%} z>{z:g}: flagged (of them misses) / false alarms" for f, z in THRESHOLDS
        )
    )
    for fam in [*fams, "ALL"]:
        sub = [r for r in rows if fam == "ALL" or r["family"] + " " + r["kind"] == fam]
        cells = []
        for floor, z in THRESHOLDS:
            bc = by_case(sub, floor, z, levels)
            fl = [m for f, m in bc.values() if f]
            cells.append(f"{len(fl)} ({sum(fl)}) / {len(fl) - sum(fl)}")
        bc = by_case(sub, 1.0, 1.0, levels)
        lines.append(f"{fam} | {len(bc)} | {sum(m for _, m in bc.values())} | " + " | ".join(cells))
    return lines + [""]


def drive_table(rows: list[dict], floor: float, z: float, levels=None) -> list[str]:
    """By drive (a truth curve, or a FEMU drive's plan folders): flagged or not, and the share
    of its cases that miss (the plan folders of one drive share their measurement often)."""
    lines = [f"## by drive at |d|>{floor:.0%} z>{z:g}" + (f", levels {levels}" if levels else ""),
             "", "family kind drive | level: d (noise) | flagged | cases | misses"]  # fmt: skip
    drives: dict[tuple, list[dict]] = {}
    for r in rows:
        drives.setdefault((r["family"], r["kind"], r["drive"]), []).append(r)
    for (fam, kind, drive), sub in sorted(drives.items()):
        bc = by_case(sub, floor, z, levels)
        fl = sum(f for f, _ in bc.values())
        lv: dict[float, list[dict]] = {}
        for r in sub:
            lv.setdefault(r["level"], []).append(r)
        cells = ", ".join(
            f"{x:g}%: {statistics.median(r['d'] for r in rs):+.3f} "
            f"({statistics.median(r['noise'] or 0 for r in rs):.3f})"
            for x, rs in sorted(lv.items())
        )
        lines.append(f"{fam} {kind} {drive} | {cells} | {fl} of {len(bc)} | {len(bc)} | "
                     f"{sum(m for _, m in bc.values())}")  # fmt: skip
    return lines + [""]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--families", help="only these families (comma-separated), e.g. WiscSim,FEMU")
    ap.add_argument("--json", type=Path, help="write every row here")
    args = ap.parse_args(argv)
    rows = plan_cases() + figure_cases() + iops_only_cases() + reserve_cases()
    if args.families:
        keep = set(args.families.split(","))
        rows = [r for r in rows if r["family"] in keep]
    if args.json:
        args.json.write_text("".join(json.dumps(r) + "\n" for r in rows))
    print("# rows: family kind level | WAF main / probe | d | noise | z | truth d | misses | case")
    for r in rows:
        z = abs(r["d"]) / r["noise"] if r["noise"] else float("nan")
        td = f"{r['truth_d']:+.3f}" if r["truth_d"] is not None else "-"
        s = f"{r['noise']:.3f}" if r["noise"] is not None else "-"
        print(f"{r['family']} {r['kind']} {r['level']:g}% | {r['waf_main']:.3f} / "
              f"{r['waf_probe']:.3f} | {r['d']:+.3f} | {s} | {z:.1f} | {td} | "
              f"{'MISS' if r['miss'] else 'meets'} | {r['case']}")  # fmt: skip
    print()
    print("\n".join(table(rows, None, "(any level with both queue depths)")))
    print("\n".join(table(rows, (40.0,), "(40% only: the plan's default probe level)")))
    print("\n".join(table(rows, (0.0,), "(0% only)")))
    print("\n".join(drive_table(rows, 0.03, 3.0)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
