"""Why calibrate's QD4 probe at 40% reads FEMU's WAF away from its QD32 level (probe40/)

    PYTHONPATH=python python bench/results/probe40/diagnose.py > bench/results/probe40/diagnose.txt

Stored rounds only (nothing is run). Every ``measurement.json`` under bench/ with a probe level
(``Level.queue_depth`` set) on a FEMU drive (its ``run.json`` names the geometry), taken once
per distinct measurement (the same rounds stored in several folders count once). Per drive:

* **where the probe runs**: after the 40% level's segment, with no discard between (the plan's
  ``with_probe``); host drive writes since the 40% discard when the probe starts and when its
  window (its last ``window_rounds`` rounds) starts;
* **the figures**: the 40% QD32 level's WAF and IOPS as stored (``measure.py``: its window, or
  over bursts on a reserve-bound graded drive), its last 8 rounds' WAF, the probe window's WAF
  and IOPS, the probe's WAF over all its rounds, and the truth's 40% steady WAF and IOPS at QD32
  and QD4 (the FEMU results file of the same drive, ``tally.femu_truths``; QD4 where it has one);
* **the burst cycle**: FEMU's collector (``hw/femu/bbssd/ftl.c``) reclaims one line
  (``pgs_per_blk`` pages on every LUN) per collection, so in the steady state each collection
  writes one line of NAND (its valid pages copied, then the host's fill its free pages), the
  NAND counter steps by a victim's valid pages at a time, and a window holds
  ``NAND bytes / line bytes`` cycles. One collection more or fewer in the window (a victim of
  ``line × (1 − 1/WAF)`` valid pages) moves its WAF by ``(1 − 1/WAF) × line / NAND bytes``
  of itself (``one_gc``, relative); each probe round's WAF is printed (a round with WAF 1.00
  saw no collection at all);
* **the IOPS**: the probe's rounds' IOPS with their WAF: d ln IOPS / d ln WAF from the
  least-squares line of seconds per I/O on WAF over the probe's rounds (``elasticity``).

Relative differences are ``a / b − 1``. Summary lines at the end.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import statistics
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2] / "foreign"))  # common.py
from common import load_script  # noqa: E402

ROOT = Path("bench")
tally = load_script("tally", ROOT / "results" / "qdwaf" / "tally.py")

sys.path.insert(0, str(ROOT / "foreign"))
import femu  # noqa: E402

HERE = ROOT / "results" / "probe40"
LEVEL_TAIL_ROUNDS = 8


def deltas(rounds: list[dict], idx: list[int]) -> list[tuple[int, int]]:
    """(host bytes, NAND bytes) written by each round ``idx`` (its counters less the round
    before's)."""
    out = []
    for i in idx:
        a, b = rounds[i - 1], rounds[i]
        out.append((b["host_bytes"] - a["host_bytes"], b["nand_bytes"] - a["nand_bytes"]))
    return out


def ratio(rows: list[tuple[int, int]]) -> float | None:
    h = sum(r[0] for r in rows)
    return sum(r[1] for r in rows) / h if h > 0 else None


def last_run(rounds: list[dict], prefix: str) -> list[int]:
    """Indices of the rounds labelled ``prefix``…, the last run of the segment only."""
    idx = [i for i, r in enumerate(rounds) if r["label"].startswith(prefix)]
    starts = [j for j, i in enumerate(idx) if rounds[i]["label"].endswith(("-r001", "-01"))]
    return idx[starts[-1] :] if starts and prefix.endswith("-r") else idx


def line_fit(xs: list[float], ys: list[float], ws: list[float]) -> tuple[float, float] | None:
    """Weighted least-squares (intercept, slope) of ys on xs; None without spread."""
    tw = sum(ws)
    mx = sum(w * x for w, x in zip(ws, xs, strict=True)) / tw
    my = sum(w * y for w, y in zip(ws, ys, strict=True)) / tw
    sxx = sum(w * (x - mx) ** 2 for w, x in zip(ws, xs, strict=True))
    if sxx <= 1e-9 * tw:
        return None
    sxy = sum(w * (x - mx) * (y - my) for w, x, y in zip(ws, xs, ys, strict=True))
    slope = sxy / sxx
    return my - slope * mx, slope


def drive_rows() -> list[dict]:
    truths = tally.femu_truths()
    seen: set[str] = set()
    out = []
    for p in sorted(ROOT.glob("**/measurement.json")):
        folder = p.parent
        if HERE in folder.parents:  # this folder's own rule's runs (RULE.md): not stored before
            continue
        if not (folder / "run.json").exists():
            continue
        m = json.loads(p.read_text())
        probes = [lv for lv in m.get("levels", []) if lv.get("queue_depth") is not None]
        if not probes or not m.get("counters"):
            continue
        run = json.loads((folder / "run.json").read_text())
        d = run.get("drive") or {}
        try:
            key = tally.femu_key(
                d["nchs"],
                d["luns_per_ch"],
                d["blks_per_pl"],
                d["gc_thres_pcent"],
                d["gc_thres_pcent_high"],
                d["pg_wr_lat"],
                run["namespace_mb"],
            )
        except (KeyError, TypeError):
            continue
        digest = hashlib.sha1(json.dumps(m["rounds"]).encode()).hexdigest()
        if digest in seen:
            continue
        seen.add(digest)
        got = re.search(r"--pgs-per-blk (\d+)", run.get("harness", ""))
        pgs_per_blk = int(got.group(1)) if got else 256
        for probe in probes:
            row = one_probe(folder, m, probe, key, d, pgs_per_blk, truths.get(key))
            if row is not None:
                out.append(row)
    return out


def one_probe(folder, m, probe, key, d, pgs_per_blk, truth_path) -> dict | None:
    x = probe["extra_op_percent"]
    cap = m["capacity_bytes"]
    rounds = m["rounds"]
    main = [
        lv for lv in m["levels"] if lv.get("queue_depth") is None and lv["extra_op_percent"] == x
    ]
    if not main or main[-1].get("waf") is None or probe.get("waf") is None:
        return None
    level = main[-1]
    lv_idx = [
        i
        for i, r in enumerate(rounds)
        if r["label"].startswith(f"op{x:g}-") and "-qd" not in r["label"]
    ]
    pr_idx = last_run(rounds, f"op{x:g}-qd{probe['queue_depth']}-r")
    if not lv_idx or not pr_idx or lv_idx[0] == 0:
        return None
    k = probe.get("window_rounds") or len(pr_idx)
    win_idx = pr_idx[-k:]
    discard_host = rounds[lv_idx[0] - 1]["host_bytes"]
    pr_rows = deltas(rounds, pr_idx)
    win_rows = deltas(rounds, win_idx)
    tail_idx = [i for i in lv_idx if re.search(r"-r\d+$", rounds[i]["label"])][-LEVEL_TAIL_ROUNDS:]
    line_bytes = pgs_per_blk * d["nchs"] * d["luns_per_ch"] * femu.PAGE_BYTES
    win_nand = sum(r[1] for r in win_rows)
    pr_waf_all = ratio(pr_rows)
    truth = json.loads(truth_path.read_text()) if truth_path else None
    t32 = t4 = None
    if truth:
        for t in truth["levels"]:
            if float(t["extra_op_percent"]) == float(x):
                if t.get("queue_depth") == 32:
                    t32 = t
                elif t.get("queue_depth") == probe["queue_depth"]:
                    t4 = t
    return {
        "case": str(folder),
        "luns": d["nchs"] * d["luns_per_ch"],
        "blks": d["blks_per_pl"],
        "qd_probe": probe["queue_depth"],
        "level": x,
        "dw_probe_start": (rounds[pr_idx[0] - 1]["host_bytes"] - discard_host) / cap,
        "dw_window_start": (rounds[win_idx[0] - 1]["host_bytes"] - discard_host) / cap,
        "level_dw": level.get("drive_writes"),
        "level_window_rounds": level.get("window_rounds"),
        "level_settled": level.get("settled"),
        "probe_settled": probe.get("settled"),
        "level_waf": level["waf"],
        "level_tail_waf": ratio(deltas(rounds, tail_idx)),
        "probe_waf": probe["waf"],
        "probe_waf_all": pr_waf_all,
        "probe_rounds": len(pr_idx),
        "window_rounds": len(win_idx),
        "level_iops": level["steady_iops"],
        "probe_iops": probe["steady_iops"],
        "truth_waf": t32["steady_waf"] if t32 else None,
        "truth_iops": t32["steady_iops"] if t32 else None,
        "truth_qd4_waf": t4["steady_waf"] if t4 else None,
        "truth_qd4_iops": t4["steady_iops"] if t4 else None,
        "line_dw": line_bytes / cap,
        "cycles_in_window": win_nand / line_bytes,
        "one_gc": (1 - 1 / probe["waf"]) * line_bytes / win_nand if win_nand else None,
        "round_wafs": [n / h if h else None for h, n in pr_rows],
        "round_iops": [rounds[i]["iops"] for i in pr_idx],
        "round_dw": [h / cap for h, _ in pr_rows],
        "truth_path": str(truth_path) if truth_path else None,
    }


def rel(a: float | None, b: float | None) -> float | None:
    return a / b - 1 if a is not None and b else None


def pct(v: float | None) -> str:
    return "   -  " if v is None else f"{100 * v:+6.1f}"


def elasticity(r: dict) -> float | None:
    """d ln(IOPS) / d ln(WAF) over the probe's rounds (the line of seconds per I/O on WAF, at
    the window's WAF): how far the probe's IOPS moves with the WAF its rounds happen to see."""
    per = [
        (w, i, h)
        for w, i, h in zip(r["round_wafs"], r["round_iops"], r["round_dw"], strict=True)
        if w and i and h > 0
    ]
    if len(per) < 3:
        return None
    fit = line_fit([w for w, _, _ in per], [1.0 / i for _, i, _ in per], [h for _, _, h in per])
    if fit is None:
        return None
    w = r["probe_waf"]
    spi = fit[0] + fit[1] * w
    return -fit[1] * w / spi if spi > 0 else None


def main() -> int:
    rows = drive_rows()
    print(
        "# one row per distinct stored measurement with a probe (FEMU); relative differences in %"
    )
    print("# d = probe WAF / level WAF - 1; eL, eP = level's, probe's WAF / truth's QD32 WAF - 1;")
    print(
        "# tail = the level's last 8 rounds' WAF / truth - 1; all = probe over all its rounds / "
        "truth - 1;"
    )
    print(
        "# dw0, dwW = drive writes since the 40% discard at the probe's start, its window's start;"
    )
    print(
        "# cyc = collector cycles (lines of NAND) in the probe window; 1gc = one collection's "
        "share of the"
    )
    print("# window's WAF; el = d ln IOPS / d ln WAF over the probe's rounds")
    hdr = (
        "luns blks |  level  probe  truth |     d    eL  tail    eP   all | dw0  dwW  cyc   1gc |"
        "   el | rounds' WAF (window: last 4) | case"
    )
    print(hdr)
    for r in rows:
        r.update(
            d=rel(r["probe_waf"], r["level_waf"]),
            e_level=rel(r["level_waf"], r["truth_waf"]),
            e_probe=rel(r["probe_waf"], r["truth_waf"]),
            e_tail=rel(r["level_tail_waf"], r["truth_waf"]),
            e_all=rel(r["probe_waf_all"], r["truth_waf"]),
            elasticity=elasticity(r),
        )
        tw = f"{r['truth_waf']:.3f}" if r["truth_waf"] else "  -  "
        wafs = " ".join(f"{w:.2f}" if w else "-" for w in r["round_wafs"])
        el = f"{r['elasticity']:5.2f}" if r["elasticity"] is not None else "   - "
        print(
            f"{r['luns']:4d} {r['blks']:4d} | {r['level_waf']:6.3f} {r['probe_waf']:6.3f} {tw:>6} |"
            f"{pct(r['d'])}{pct(r['e_level'])}{pct(r['e_tail'])}{pct(r['e_probe'])}"
            f"{pct(r['e_all'])} |"
            f" {r['dw_probe_start']:.2f} {r['dw_window_start']:.2f} {r['cycles_in_window']:4.1f}"
            f"{pct(r['one_gc'])} | {el} | {wafs} | {r['case']}"
        )
    print()
    summary(rows)
    print()
    settled_control()
    Path("bench/results/probe40/diagnose.json").write_text(json.dumps(rows, indent=1) + "\n")
    return 0


def spread(vals: list[float | None]) -> str:
    v = [x for x in vals if x is not None]
    if not v:
        return "-"
    a = [abs(x) for x in v]
    return (
        f"mean {100 * statistics.fmean(v):+.1f}%, median |.| {100 * statistics.median(a):.1f}%, "
        f"worst |.| {100 * max(a):.1f}% (n {len(v)})"
    )


def summary(rows: list[dict]) -> None:
    rows = [r for r in rows if r["truth_waf"]]
    print(f"# {len(rows)} distinct probes with a truth at 40% QD32")
    for name, k in (
        ("d = probe / level - 1", "d"),
        ("level / truth - 1", "e_level"),
        ("level's last 8 rounds / truth - 1", "e_tail"),
        ("probe window / truth - 1", "e_probe"),
        ("probe over all its rounds / truth - 1", "e_all"),
    ):
        print(f"{name}: {spread([r[k] for r in rows])}")
    # d split: the level's own bias against the probe's
    dl = [math.log1p(r["d"]) for r in rows]
    el = [math.log1p(r["e_level"]) for r in rows]
    ep = [math.log1p(r["e_probe"]) for r in rows]
    print(
        f"ln(1+d) = ln(1+eP) - ln(1+eL): var {statistics.pvariance(dl):.5f}; "
        f"var of -ln(1+eL) {statistics.pvariance(el):.5f}, of ln(1+eP) "
        f"{statistics.pvariance(ep):.5f}, "
        f"covariance term {-2 * statistics.covariance(el, ep) * (len(el) - 1) / len(el):+.5f}; "
        f"mean ln(1+d) {statistics.fmean(dl):+.4f} = {statistics.fmean(ep):+.4f} - "
        f"{statistics.fmean(el):+.4f}"
    )
    resid = [(r["e_probe"] - r["e_tail"], r["one_gc"]) for r in rows]
    print(f"probe less the level's tail (eP - tail): {spread([a for a, _ in resid])}")
    within = sum(abs(a) <= g for a, g in resid)
    print(f"  within one collection's share of the window (1gc): {within} of {len(resid)}")
    if len(resid) > 2:
        print(
            "  corr(1gc, |eP - tail|) = "
            f"{statistics.correlation([g for _, g in resid], [abs(a) for a, _ in resid]):.2f}"
        )
    print("by one collection's share of the probe window (1gc):")
    bins = ((0, 0.05), (0.05, 0.10), (0.10, 0.20), (0.20, 9))
    by_group(rows, "1gc", lambda r: r["one_gc"], bins, "%", (
        ("probe/truth", lambda r: r["e_probe"]),
        ("eP - tail", lambda r: r["e_probe"] - r["e_tail"]),
        ("tail/truth", lambda r: r["e_tail"])))  # fmt: skip
    els = [r["elasticity"] for r in rows if r["elasticity"] is not None]
    print(
        f"IOPS elasticity to WAF over the probe's rounds: median {statistics.median(els):.2f}, "
        f"range {min(els):.2f} to {max(els):.2f} (n {len(els)})"
    )
    implied = [
        r["elasticity"] * math.log1p(r["e_probe"]) for r in rows if r["elasticity"] is not None
    ]
    print(
        "implied probe IOPS bias from its WAF's (el x ln(1+eP)): "
        f"{spread([math.expm1(x) for x in implied])}"
    )
    for lim in (0.05, 0.10):
        b = [r for r in rows if abs(r["d"]) > lim]
        lv = [r for r in b if abs(r["e_level"]) > abs(r["e_probe"])]
        print(
            f"|d| > {100 * lim:.0f}%: {len(b)} probes ({sum(r['d'] < 0 for r in b)} negative); "
            "the level "
            f"further from the truth than the probe in {len(lv)}; probe within 5% of the truth in "
            f"{sum(abs(r['e_probe']) <= 0.05 for r in b)}; level/truth there "
            f"{spread([r['e_level'] for r in b])}; "
            f"probe/truth there {spread([r['e_probe'] for r in b])}"
        )
    bins = ((0, 2.0), (2.0, 3.0), (3.0, 99))
    by_group(rows, "truth WAF", lambda r: r["truth_waf"], bins, "", (
        ("level/truth", lambda r: r["e_level"]), ("tail/truth", lambda r: r["e_tail"]),
        ("probe/truth", lambda r: r["e_probe"]), ("d", lambda r: r["d"])))  # fmt: skip
    st = [r for r in rows if r["probe_settled"]]
    print(
        f"probes settled by the plan's rule: {len(st)}; probe/truth there "
        f"{spread([r['e_probe'] for r in st])}"
    )
    dates = [r["dw_window_start"] for r in rows]
    print(
        "probe window start, drive writes after the 40% discard: "
        f"{min(dates):.2f}-{max(dates):.2f}, "
        f"median {statistics.median(dates):.2f}"
    )


def by_group(rows: list[dict], name: str, key, bins, unit: str, columns) -> None:
    """One line per bin ``[lo, hi)`` of ``key(row)`` (``unit`` "%": a share, printed in %): its
    probes, LUN counts and each column's ``spread``."""
    scale = 100 if unit == "%" else 1
    for lo, hi in bins:
        g = [r for r in rows if lo <= key(r) < hi]
        if g:
            cols = "; ".join(f"{label} {spread([f(r) for r in g])}" for label, f in columns)
            print(f"  {name} {scale * lo:g}-{scale * hi:g}{unit}: {len(g)} probes, LUNs "
                  f"{min(r['luns'] for r in g)}-{max(r['luns'] for r in g)}; {cols}")  # fmt: skip


RUNON = ROOT / "foreign/results/femu40/runon"


def settled_control() -> None:
    """femu40's run-on drives: the plan ran 3 drive writes of QD32 after its 40% level, so its
    probe came after FEMU had settled; the run-on's own 0.025-drive-write steps at QD32 give
    the same window's scatter at QD32, and its first four the WAF where a plain plan's probe
    runs."""
    truths = {}
    for line in (ROOT / "foreign/results/femu40/runon_table.txt").read_text().splitlines()[1:]:
        name, truth = line.split("|")[0].strip(), line.split("|")[1].split(",")
        truths[name] = float(truth[1])
    print(
        "# control: femu40 run-on drives (probe after 3 drive writes at QD32; truth from "
        "runon_table.txt)"
    )
    print(
        "drive | truth | probe (err) after settling | QD32 0.025-dw steps: first 4 after the "
        "level (err) |"
        " last 2 dw: sd, range (rel)"
    )
    errs, sds = [], []
    for p in sorted(RUNON.glob("*.json")):
        if p.name.endswith(".measurement.json"):
            continue
        name = p.stem
        m = json.loads(p.with_name(f"{name}.measurement.json").read_text())
        probe = [lv for lv in m["levels"] if lv.get("queue_depth")][-1]
        steps = [r["waf"] for r in json.loads(p.read_text())["rows"]]
        t = truths[name]
        late = steps[-80:]
        sd = statistics.pstdev(late) / statistics.fmean(late)
        rng = (max(late) - min(late)) / statistics.fmean(late)
        e = probe["waf"] / t - 1
        errs.append(e)
        sds.append(sd)
        first = " ".join(f"{w:.2f}({pct(w / t - 1).strip()})" for w in steps[:4])
        print(
            f"{name} | {t:.3f} | {probe['waf']:.3f} ({pct(e).strip()}%) | {first} | "
            f"{100 * sd:.1f}%, {100 * rng:.1f}%"
        )
    print(
        f"settled probes / truth: {spread(errs)}; QD32 step sd median "
        f"{100 * statistics.median(sds):.1f}%"
    )


if __name__ == "__main__":
    sys.exit(main())
