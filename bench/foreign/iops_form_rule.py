"""Run and check the rule of results/iops-form/RULE.md: t_cmd held at −0.15·t_page (a GC move
costs more than a host write) where the figures are too few to fit it (``fit.HELD_CMD_SHARE``).

    python bench/foreign/iops_form_rule.py run --truth FILE --case NAME [--case ...] --out DIR
    python bench/foreign/iops_form_rule.py check --dir DIR --fresh STEM,... [--seen STEM,...]
    python bench/foreign/iops_form_rule.py share [--results bench/foreign/results]
    python bench/foreign/iops_form_rule.py once --truth FILE [--truth ...] --case NAME --out FILE

``run`` runs ``overprov calibrate`` on each named case of ``evaluate.py`` (the same command as
``evaluate.py`` builds) twice, with the share on (:data:`SHARE`) and off (0, calibrate's
form before), and keeps both rows of per-level errors (``evaluate.run_case``'s) in
DIR/<truth stem>--<case>.json beside the CPU seconds. ``check`` prints each kept case's figures
on and off and the rule's conditions (bench/foreign/results/iops-form/RULE.md): on the fresh
truths the IOPS-alone WAF errors and the held-out IOPS and WAF medians and worsts, pooled; on
the seen truths each case's figures no worse than off's beyond 1 point and the truth's noise.
Nothing is fitted here: the figures are calibrate's. ``once`` runs one case as calibrate stands
(s = 0) on each truth and writes ``evaluate.evaluate_case``'s rows and CPU seconds (a figure
beside the rule, not part of it). ``share`` works out :data:`SHARE` from the seen truths: per
QD32 curve with WAF, the least-squares line 1/IOPS = t_cmd + WAF·t_page over its levels, and
the median over the simulators of each one's median −t_cmd/t_page.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
import evaluate  # noqa: E402

#: The share weighed (bench/foreign/results/iops-form/RULE.md: the seen FTLs' median −t_cmd/t_page).
SHARE = 0.15
POINT = 0.01


def wrapped(cmd: list[str], share: float) -> list[str]:
    """``evaluate.command``'s calibrate command with ``fit.HELD_CMD_SHARE`` set first."""
    pre = f"from overprov.calibrate import fit; fit.HELD_CMD_SHARE = {share!r}; "
    return [sys.executable, "-c", f"import sys; {pre}from overprov.cli import main; "
            "sys.exit(main())", *cmd[3:]]  # fmt: skip


def _case(cmd: list[str], curve: dict, case: tuple) -> tuple[dict, float]:
    """``evaluate.run_case``'s rows for ``cmd`` and the CPU seconds calibrate took."""
    before = os.times()
    with tempfile.TemporaryDirectory() as tmp:
        res = evaluate.run_case(cmd, curve, case, Path(tmp))
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return res, cpu


def run(truth: Path, case_name: str, out: Path) -> Path:
    doc = json.loads(truth.read_text())
    curve = evaluate.truth_curve(doc, 32)
    case = next(c for c in evaluate.CASES if c[0] == case_name)
    others = [r for r in doc["levels"] if r["queue_depth"] != 32]
    cmd = evaluate.command(doc, curve, case, 1, others)
    t0 = time.time()
    kept: dict = {
        "truth": str(truth.resolve().relative_to(ROOT)),
        "case": case_name,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t0)),
        "cpu_s": 0.0,
    }
    for name, share in (("on", SHARE), ("off", 0.0)):
        res, cpu = _case(wrapped(cmd, share), curve, case)
        if "error" in res:
            raise RuntimeError(f"{truth.name}, {case_name}, {name}: {res['error']}")
        kept[name] = res
        kept["cpu_s"] += cpu
    out.mkdir(parents=True, exist_ok=True)
    stem = truth.stem if truth.parent.name == "results" else f"{truth.parent.name}-{truth.stem}"
    path = out / f"{stem}--{''.join(ch for ch in case_name if ch.isalnum())}.json"
    path.write_text(json.dumps(kept, indent=1) + "\n")
    print(f"{path.name}: {kept['cpu_s']:.0f} CPU s", flush=True)
    return path


def noise(truth_doc: dict) -> float:
    """The truth's noise: the largest half range of a QD32 level's settled rounds."""
    rules = [r.get("steady_window", {}).get("rule", {}) for r in truth_doc["levels"]
             if r["queue_depth"] == 32]  # fmt: skip
    return max((max(r.get("iops_half_range", 0), r.get("waf_half_range", 0)) for r in rules),
               default=0.0)  # fmt: skip


def figures(res: dict) -> dict[str, float]:
    """|error| median and worst over 0-40% (IOPS, WAF) and the held-out errors' lists."""
    lv = res["levels"]
    i_all = [abs(r["iops_err"]) for r in lv if "iops_err" in r]
    w_all = [abs(r["waf_err"]) for r in lv]
    out = {"iops_median": statistics.median(i_all), "iops_worst": max(i_all),
           "waf_median": statistics.median(w_all), "waf_worst": max(w_all)}  # fmt: skip
    out["iops_held"] = [abs(r["iops_err"]) for r in lv if "iops_err" in r and not r["fitted_iops"]]
    out["waf_held"] = [abs(r["waf_err"]) for r in lv if not r["fitted_waf"]]
    return out


def pooled(rows: list[tuple], side: int, key: str) -> tuple[float, float]:
    vals = [v for r in rows for v in r[side][key]]
    return statistics.median(vals), max(vals)


def corpus_cases(path: Path) -> dict[tuple, float]:
    """A ``corpus_bench.py`` output's published cases: (drive, raw NAND given, held-out
    figure, level) → |relative error|."""
    doc = json.loads(path.read_text())
    return {(c["drive"], c["raw_nand_given"], c["held_out"]["kind"],
             c["held_out"]["extra_op_percent"]): abs(c["rel_error"])
            for c in doc["cases"] if not c.get("foreign")}  # fmt: skip


def check_corpus(on: Path, off: Path) -> list[bool]:
    """B on the published corpus: each held-out case's |error| on ≤ off's + 1 point."""
    a, b = corpus_cases(on), corpus_cases(off)
    if set(a) != set(b):
        raise ValueError(f"{on} and {off} hold different cases")
    out = []
    for k in sorted(a, key=repr):
        ok = a[k] <= b[k] + POINT
        out.append(ok)
        raw = "given" if k[1] else "not given"
        print(
            f"B corpus {k[0]} (raw NAND {raw}), {k[2]} at {k[3]:g}%: "
            f"{100 * b[k]:.1f}% → {100 * a[k]:.1f}%: {'holds' if ok else 'fails'}"
        )
    return out


def check(
    folders: list[Path], fresh: list[str], seen: list[str], corpus: tuple[Path, Path] | None = None
) -> bool:
    rows = []
    for f in sorted(f for folder in folders for f in folder.glob("*--*.json")):
        k = json.loads(f.read_text())
        truth = json.loads((ROOT / k["truth"]).read_text())
        rows.append((f.name.split("--")[0], k["case"], figures(k["on"]), figures(k["off"]),
                     noise(truth), k["on"]["fit"], k["off"]["fit"]))  # fmt: skip
    print("| truth | case | IOPS median / worst (0-40%), off → on | WAF median / worst (0-40%), "
          "off → on | ρ₀, t_cmd / t_page µs, off → on |")  # fmt: skip
    print("|---|---|---|---|---|")
    for t, c, on, off, _, fon, foff in rows:
        print(
            f"| {t} | {c} | {100 * off['iops_median']:.1f}% / {100 * off['iops_worst']:.1f}% → "
            f"{100 * on['iops_median']:.1f}% / {100 * on['iops_worst']:.1f}% | "
            f"{100 * off['waf_median']:.1f}% / {100 * off['waf_worst']:.1f}% → "
            f"{100 * on['waf_median']:.1f}% / {100 * on['waf_worst']:.1f}% | "
            f"{100 * foff['native_op']:.1f}%, {foff['t_cmd_us']:.3g} / {foff['t_page_us']:.3g} → "
            f"{100 * fon['native_op']:.1f}%, {fon['t_cmd_us']:.3g} / {fon['t_page_us']:.3g} |"
        )
    verdict = []
    mine = [r for r in rows if r[0] in fresh]
    if fresh:
        alone = [r for r in mine if r[1].startswith("IOPS ") and "WAF" not in r[1]]
        w_off = statistics.median(r[3]["waf_worst"] for r in alone)
        w_on = statistics.median(r[2]["waf_worst"] for r in alone)
        ok = w_on <= w_off - 0.05
        verdict.append(ok)
        print(
            f"A1 IOPS-alone WAF worst, median over {len(alone)} fresh cases: "
            f"{100 * w_off:.1f}% → {100 * w_on:.1f}%: {'holds' if ok else 'fails'}"
        )
        for key, better in (("waf_held", 0.03), ("iops_held", -POINT)):
            (m_off, x_off), (m_on, x_on) = pooled(mine, 3, key), pooled(mine, 2, key)
            ok = m_on <= m_off - better and x_on <= x_off - better
            verdict.append(ok)
            print(
                f"A2 {key} pooled median / worst: {100 * m_off:.1f}% / {100 * x_off:.1f}% → "
                f"{100 * m_on:.1f}% / {100 * x_on:.1f}%: {'holds' if ok else 'fails'}"
            )
    for t, c, on, off, nz, _, _ in rows:
        if t not in seen:
            continue
        keys = ("iops_median", "iops_worst", "waf_median", "waf_worst")
        why = [k for k in keys if on[k] > off[k] + POINT + nz]
        verdict.append(not why)
        print(
            f"B {t}, {c}: {'fails: ' + ', '.join(why) if why else 'holds'} "
            f"(tolerance {100 * (POINT + nz):.2f} points)"
        )
    if corpus:
        verdict += check_corpus(*corpus)
    print(
        f"rule: {'passes' if verdict and all(verdict) else 'fails'} "
        f"({sum(verdict)} of {len(verdict)} conditions hold)"
    )
    return bool(verdict) and all(verdict)


def line(levels: list[dict]) -> tuple[float, float]:
    """Least squares of 1/IOPS (µs) = t_cmd + WAF·t_page over ``levels``: (t_cmd, t_page)."""
    xs = [r["steady_waf"] for r in levels]
    ys = [1e6 / r["steady_iops"] for r in levels]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )
    return my - slope * mx, slope


def seen_share(results: Path) -> float:
    """Print each seen QD32 curve's −t_cmd/t_page and return the median of the simulators'
    medians (:data:`SHARE` was set from it before the rule's runs)."""
    per: dict[str, list[float]] = {}
    for f in sorted(results.glob("*.json")) + sorted(results.glob("*/*.json")):
        doc = json.loads(f.read_text())
        if not isinstance(doc, dict) or "levels" not in doc or "simulator" not in doc:
            continue
        lv = [r for r in doc["levels"] if r["queue_depth"] == 32 and r.get("steady_iops")
              and r.get("steady_waf")]  # fmt: skip
        if len(lv) < 3:
            continue
        t_cmd, t_page = line(lv)
        per.setdefault(doc["simulator"], []).append(-t_cmd / t_page)
        print(f"{f.relative_to(results)}: t_cmd {t_cmd:.3g} µs, t_page {t_page:.3g} µs, "
              f"−t_cmd/t_page {-t_cmd / t_page:+.2f}")  # fmt: skip
    medians = {k: statistics.median(v) for k, v in per.items()}
    for k, v in medians.items():
        print(f"{k}: median {v:+.2f} over {len(per[k])} curves")
    share = statistics.median(medians.values())
    print(f"median over {len(medians)} simulators: {share:+.3f}")
    return share


def once(truths: list[Path], case_name: str, out: Path) -> None:
    """``case_name`` on each truth with calibrate as it stands; rows and CPU seconds to ``out``."""
    case = next(c for c in evaluate.CASES if c[0] == case_name)
    kept = {}
    for truth in truths:
        doc = json.loads(truth.read_text())
        before = os.times()
        res = evaluate.evaluate_case(doc, evaluate.truth_curve(doc, 32), case, 1, None)
        after = os.times()
        res["cpu_s"] = (after.children_user - before.children_user) + (
            after.children_system - before.children_system
        )
        kept[truth.stem] = res
        iops = " ".join(f"{100 * r['iops_err']:+.1f}%" for r in res["levels"])
        waf = " ".join(f"{100 * r['waf_err']:+.1f}%" for r in res["levels"])
        print(f"{truth.stem}, {case_name}: IOPS {iops}; WAF {waf} ({res['cpu_s']:.0f} CPU s)")
    out.write_text(json.dumps(kept, indent=1) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("run", help="a truth's cases, s on and off")
    r.add_argument("--out", type=Path, required=True, help="folder the cases are kept in")
    r.add_argument("--truth", type=Path, required=True, help="a results file")
    r.add_argument("--case", action="append", required=True, help="evaluate.py's case name")
    c = sub.add_parser("check", help="the rule's verdict on kept cases")
    c.add_argument("--fresh", default="", help="truth stems of the fresh truths (A)")
    c.add_argument("--seen", default="", help="truth stems of the seen truths (B)")
    c.add_argument("--dir", type=Path, action="append", required=True)
    c.add_argument("--corpus-on", type=Path, default=None, help="corpus_bench.json, s on")
    c.add_argument("--corpus-off", type=Path, default=None, help="corpus_bench.json, s off")
    o = sub.add_parser("once", help="one case as calibrate stands, beside the rule")
    o.add_argument("--truth", type=Path, action="append", required=True)
    o.add_argument("--case", required=True)
    o.add_argument("--out", type=Path, required=True)
    h = sub.add_parser("share")
    h.add_argument("--results", type=Path, default=HERE / "results")
    args = ap.parse_args(argv)
    if args.what == "once":
        once(args.truth, args.case, args.out)
        return 0
    if args.what == "share":
        seen_share(args.results)
        return 0
    if args.what == "run":
        for name in args.case:
            run(args.truth, name, args.out)
        return 0
    split = lambda s: [x for x in s.split(",") if x]  # noqa: E731
    pair = (args.corpus_on, args.corpus_off) if args.corpus_on and args.corpus_off else None
    check(args.dir, split(args.fresh), split(args.seen), pair)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
