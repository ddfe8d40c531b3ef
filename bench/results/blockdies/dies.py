"""The blocking-GC reading's die grid past 8 (``gc_blocking.WIDE_DIE_GRID``) judged:
bench/results/blockdies/RULE.md.

    PYTHONPATH=python python bench/results/blockdies/dies.py cases T.json ... --out DIR [--wide]
    PYTHONPATH=python python bench/results/blockdies/dies.py gate
    PYTHONPATH=python python bench/results/blockdies/dies.py noharm --out DIR
    PYTHONPATH=python python bench/results/blockdies/dies.py judge

``cases``: each truth's IOPS-only and with-WAF plan cases (bench/results/fobmany/many.py's
``run_cases``: evaluate.py's commands, judged on the truth's QD32 curve), calibrate run with
``fob_check.ENABLED`` off and, with ``--wide``, ``gc_blocking.WIDE_DIE_GRID`` on. ``gate``: for
each drive of the no-harm sample (:data:`SAMPLE`), whether its plan figures open the wide grid's
gate (``gc_blocking.needs_wide_grid``); a case whose gate is closed runs calibrate's code path
unchanged. ``noharm``: the sample's gate-open drives, and :data:`CONFIRM`'s gate-closed ones,
through ``cases`` with the flag off and on. ``judge``: the rule's tables and verdict.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "bench" / "results" / "fobmany"))
import many  # noqa: E402
from overprov.calibrate import gc_blocking  # noqa: E402

#: calibrate with the queue-depth check off and the wide die grid on (``python -c``)
WIDE = (
    "-c",
    "import sys; from overprov.calibrate import fob_check, gc_blocking; "
    "fob_check.ENABLED = False; gc_blocking.WIDE_DIE_GRID = True; "
    "from overprov.cli import main; sys.exit(main())",
)
RESULTS = ROOT / "bench" / "foreign" / "results"
#: the no-harm sample (RULE.md): stored truths whose plan cases carry a QD4 probe, by name
SAMPLE = {
    "femu": RESULTS / "femu.json",
    "femu-16luns": RESULTS / "femu-units" / "femu-16luns.json",
    "femu-36lun": RESULTS / "byfig5" / "unseen" / "femu-36lun-72blk-thres78-300us.json",
    "femu-26lun": RESULTS / "iops-only" / "unseen" / "femu-26lun-84blk-thres70.json",
    "femu-8luns": RESULTS / "femu-midlevel" / "femu-8luns.json",
    "disksim-ssd": RESULTS / "disksim-ssd.json",
    "disksim-12pkg": RESULTS / "qd4-by-figure" / "unseen" / "disksim-12pkg.json",
    "mqsim": RESULTS / "mqsim.json",
    "patched-mqsim": RESULTS / "patched" / "mqsim.json",
    "fresh-2chips-mqsim": RESULTS / "fresh-2chips" / "mqsim.json",
    "wiscsee-b": RESULTS / "wiscsee" / "wiscsee-b.json",
    "wiscsee-c3": RESULTS / "wiscsee3" / "wiscsee-c.json",
    "ssdsim-a": RESULTS / "ssdsim" / "ssdsim-a.json",
    "ssdsim-d": RESULTS / "tcmd-bound" / "ssdsim-d.json",
    "nvmevirt-a": RESULTS / "nvmevirt" / "nvmevirt-a.json",
    "gen-N1": RESULTS / "iops-only2" / "generated" / "gen-N1-greedy-op007.json",
    "gen-R2": RESULTS / "iops-only2" / "generated" / "gen-R2-reserve-sf092-floor10.json",
    "eagletree": RESULTS / "eagletree.json",
}
#: a gate-closed drive also run both ways, to confirm its answers are the same
CONFIRM = ("femu-8luns",)
#: a met target missed, or an error up by more than this, is harm (RULE.md)
HARM_POINTS = 0.01


def gate_pairs(truth: Path) -> list[tuple[float, int, float, int]]:
    """The IOPS-only plan case's figures at two queue depths at one level, as its command
    gives them: ``(iops, qd, iops, qd)`` for ``gc_blocking.needs_wide_grid``."""
    cmd, _ = many.by_figure_rule.case_command(truth, many.CASES[0])
    text = " ".join(cmd)
    points = re.search(r"--points (\S+)", text).group(1).split(",")  # type: ignore[union-attr]
    at: dict[tuple[float, int], float] = {}
    for p in points:
        level, value = p.split(":")
        iops, _, qd = value.partition("@qd")
        at[(float(level), int(qd or 32))] = float(iops)
    return [(v, q, at[(x, 32)], 32) for (x, q), v in at.items() if q != 32 and (x, 32) in at]


def gate(truth: Path) -> tuple[float, bool]:
    """The largest QD32 ÷ other-QD gain of the plan figures and whether the gate opens."""
    pairs = gate_pairs(truth)
    gain = max((b / a for a, _, b, _ in pairs), default=0.0)
    return gain, gc_blocking.needs_wide_grid(pairs)


def run(truths: list[Path], out: Path, wide: bool) -> None:
    """Each truth's two plan cases, the check off, the wide grid on with ``wide``; each case
    file records which (``wide_die_grid``)."""
    saved = many.OFF
    many.OFF = WIDE if wide else saved  # run_cases reads it at each call
    try:
        for t in truths:
            path = many.run_cases(t, out)
            doc = json.loads(path.read_text())
            doc["wide_die_grid"] = wide
            path.write_text(json.dumps(doc, indent=1) + "\n")
    finally:
        many.OFF = saved


def noharm(out: Path) -> None:
    for name, truth in SAMPLE.items():
        gain, opens = gate(truth)
        if not opens and name not in CONFIRM:
            continue
        for wide in (False, True):
            run([truth], out / ("wide" if wide else "off") / name, wide)


def _outcomes_of(path: Path, wide: bool | None = None) -> dict[str, dict]:
    """{case: outcome} of one case file (many.outcome's figures, and the dies chosen); with
    ``wide``, the file must record that setting of the flag."""
    doc = json.loads(path.read_text())  # files run before the flag was recorded lack the key
    if wide is not None and doc.get("wide_die_grid", wide) is not wide:
        raise ValueError(f"{path}: not run with WIDE_DIE_GRID {wide}")
    return {c["case"]: many.outcome(c) | {"dies": (c.get("gc_mechanism") or {}).get("dies")}
            for c in doc["cases"]}  # fmt: skip


def _outcomes(folder: Path, wide: bool) -> dict[str, dict]:
    """{case: outcome} of every case file under ``folder``."""
    return {k: v for f in sorted(folder.glob("*.json")) for k, v in _outcomes_of(f, wide).items()}


def meets(o: dict, with_waf: bool) -> bool:
    """The targets (docs/calibrate.md): IOPS median 10% and worst 20% over 0-40%, WAF 5% where
    the case gives WAF figures."""
    if "refused_off" in o:
        return False
    ok = o["iops_median"] <= many.IOPS_MEDIAN and o["iops_worst"] <= many.IOPS_WORST
    return ok and (not with_waf or o["waf_worst"] <= many.WAF_WORST)


def _fmt(o: dict) -> str:
    if "refused_off" in o:
        return "refused"
    return (f"{100 * o['iops_median']:.1f}% / {100 * o['iops_worst']:.1f}%, "
            f"WAF {100 * o['waf_worst']:.1f}% ({o['dies']} dies)")  # fmt: skip


def _harm(off: dict, on: dict, with_waf: bool) -> list[str]:
    if "refused_off" in off or "refused_off" in on:
        return [] if ("refused_off" in off) == ("refused_off" in on) else ["refusal changed"]
    why = []
    if meets(off, with_waf) and not meets(on, with_waf):
        why.append("met target missed")
    for k in ("iops_median", "iops_worst", "waf_worst"):
        if on[k] - off[k] > HARM_POINTS:
            why.append(f"{k} up {100 * (on[k] - off[k]):.1f} points")
    return why


def judge() -> list[str]:
    out = ["## Fresh drives (judged): flag off | flag on, IOPS median / worst, WAF worst", ""]
    out += ["| drive | case | off | on | targets on | deciding |", "|---|---|---|---|---|---|"]
    fails = []
    for f in sorted((HERE / "fresh" / "wide").glob("*.json")):
        on = _outcomes_of(f, True)
        off = _outcomes_of(HERE / "fresh" / "off" / f.name, False)
        for case, o in on.items():
            with_waf = case.startswith("IOPS+WAF")
            ok = meets(o, with_waf)
            passes = ok or (with_waf and not meets(off[case], with_waf)
                            and not _harm(off[case], o, with_waf))  # fmt: skip
            if not passes:
                fails.append(f"{f.stem}: {case}")
            verdict = "met" if ok else ("missed as with the flag off" if passes else "NOT MET")
            out.append(f"| {f.stem} | {case} | {_fmt(off[case])} | {_fmt(o)} | "
                       f"{'met' if ok else 'not met'} | {verdict} |")  # fmt: skip
    out += ["", "## fobmany's five (seen; reported, not deciding): flag on", ""]
    out += ["| drive | case | off (bench/results/fobmany/cases) | on |", "|---|---|---|---|"]
    for f in sorted((HERE / "fobmany").glob("*.json")):
        on = _outcomes_of(f, True)
        off = _outcomes_of(ROOT / "bench" / "results" / "fobmany" / "cases" / f.name)
        for case, o in on.items():
            out.append(f"| {f.stem} | {case} | {_fmt(off[case])} | {_fmt(o)} |")
    out += ["", "## No harm on the sample (judged)", ""]
    out += ["| drive | gain QD32/QD4 | gate | case | off | on | harm |", "|---" * 7 + "|"]
    harms = []
    for name, truth in SAMPLE.items():
        gain, opens = gate(truth)
        d_off, d_on = HERE / "noharm" / "off" / name, HERE / "noharm" / "wide" / name
        if not d_on.exists():
            out.append(f"| {name} | {gain:.2f} | closed | both | identical (code path "
                       "unchanged) | | none |")  # fmt: skip
            continue
        off, on = _outcomes(d_off, False), _outcomes(d_on, True)
        for case in on:
            why = _harm(off[case], on[case], case.startswith("IOPS+WAF"))
            same = json.dumps(off[case], sort_keys=True) == json.dumps(on[case], sort_keys=True)
            tag = "; ".join(why) or ("none (identical)" if same else "none")
            if why:
                harms.append(f"{name}: {case}: {tag}")
            out.append(f"| {name} | {gain:.2f} | {'open' if opens else 'closed'} | {case} | "
                       f"{_fmt(off[case])} | {_fmt(on[case])} | {tag} |")  # fmt: skip
    out += ["", f"Fresh cases not met: {len(fails)}" + "".join(f"\n  {x}" for x in fails)]
    out += [f"Harm on the sample: {len(harms)}" + "".join(f"\n  {x}" for x in harms)]
    out += [f"Verdict: {'ADOPT' if not fails and not harms else 'NOT ADOPTED'} "
            "(RULE.md: every fresh case met, or missed as with the flag off where it gives WAF, "
            "and no harm)"]  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("cases")
    c.add_argument("truth", type=Path, nargs="+")
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--wide", action="store_true")
    sub.add_parser("gate")
    n = sub.add_parser("noharm")
    n.add_argument("--out", type=Path, default=HERE / "noharm")
    sub.add_parser("judge")
    args = ap.parse_args(argv)
    if args.what == "cases":
        run(args.truth, args.out, args.wide)
    elif args.what == "gate":
        for name, truth in SAMPLE.items():
            gain, opens = gate(truth)
            print(f"{name}: QD32/QD4 {gain:.2f}, gate {'open' if opens else 'closed'}")
    elif args.what == "noharm":
        noharm(args.out)
    else:
        print("\n".join(judge()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
