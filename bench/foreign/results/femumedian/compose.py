"""The stored scoreboard cases several readings carry, run once with the flags of EVALUATE_FLAGS
(today's defaults when unset) and composed post-hoc with mixture_centre's median
(bench/foreign/results/femumedian/RULE.md), from the worktree root:

    PYTHONPATH=python python bench/foreign/results/femumedian/compose.py run CASE-FILE OUT
    PYTHONPATH=python python bench/foreign/results/femumedian/compose.py truth DIR STEM FAMILY OUT
    PYTHONPATH=python python bench/foreign/results/femumedian/compose.py recompose OUT
    PYTHONPATH=python python bench/foreign/results/femumedian/compose.py uncomposed OUT
    PYTHONPATH=python python bench/foreign/results/femumedian/compose.py list

``run`` (a stored case file's truth) and ``truth`` write OUT/<case>.json (the scoreboard's case
file, bench/foreign/results/scoreboard/run.py ``one``), OUT/<case>.readings.json (each
reading's levels and weight, and the combined levels, from calibrate's JSON) and
OUT/<case>.median.json (the case file with the centre at each level recomposed as
``mixture_centre.median`` of the readings that keep ``evidence.SPAN_MIN_WEIGHT`` of the largest
weight, as ``spare_readings.combine`` with ``mixture_centre.ON`` would, its interval widened to
hold it; a figure a step after ``spare_readings.combine`` set is not composed: ``medians``).
``recompose``: OUT's cases composed again from their readings; ``uncomposed``: the stored case
files of OUT's cases with a figure not composed (to be run with the flag on). ``list``: the 72 cases
(bench/foreign/results/scoreboard/cases-mix/) with two readings or more at weight ≥ 0.1.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scoreboard"))
import run as scoreboard  # noqa: E402
from overprov.calibrate import evidence, mixture_centre, spare_readings  # noqa: E402

evaluate = scoreboard.evaluate
STORED = HERE.parent / "scoreboard" / "cases-mix"
_FIGS = (("steady_iops", "steady_iops_low", "steady_iops_high"), ("waf", "waf_low", "waf_high"))


def carried() -> list[Path]:
    """The stored cases with two readings or more at weight ≥ 0.1."""
    out = []
    for f in sorted(STORED.glob("*.json")):
        weights = json.loads(f.read_text()).get("readings") or {}
        if sum(w >= 0.1 for w in weights.values()) >= 2:
            out.append(f)
    return out


def _capturing_run():
    """``evaluate``'s subprocess.run, keeping calibrate's stdout (its JSON) in ``got``."""
    real, got = evaluate.subprocess.run, {}

    def wrapped(*a, **k):
        res = real(*a, **k)
        got["stdout"] = res.stdout
        return res

    evaluate.subprocess.run = wrapped
    return got


def readings_of(pred: dict) -> dict:
    """Each reading's weight and levels (figures and intervals), and the combined levels."""
    keep = ("extra_op_percent", *(n for f in _FIGS for n in f))
    return {
        "readings": {
            k: {"weight": r.get("weight"),
                "levels": [{n: lv.get(n) for n in keep} for lv in r["levels"]]}
            for k, r in (pred.get("readings") or {}).items()
        },
        "levels": [{n: lv.get(n) for n in keep} for lv in pred["levels"]],
    }  # fmt: skip


#: A final figure is the readings' weighted mean (combine's, before any later step) within this
SAME_REL = 1e-9


def medians(readings: dict) -> dict[int, dict[str, float | None]]:
    """Per level, the median of the mixed readings' IOPS and WAF (None: fewer than two mixed, or
    the final figure is not the readings' weighted geometric mean: a step after
    ``spare_readings.combine`` set it, e.g. ``bend_between``'s line, and the median cannot be
    composed there)."""
    rs = [r for r in readings["readings"].values() if r["weight"]]
    if not rs:
        return {}
    top = max(r["weight"] for r in rs)
    mixed = [r for r in rs if r["weight"] >= evidence.SPAN_MIN_WEIGHT * top]
    out = {}
    for i, lv in enumerate(readings["levels"]):
        got = {}
        for f in _FIGS:
            mean = spare_readings.weighted_geomean(
                [r["levels"][i][f[0]] for r in rs], [r["weight"] for r in rs]
            )
            final = lv[f[0]]
            rows = [tuple(r["levels"][i][n] for n in f) for r in mixed]
            mid = mixture_centre.median(rows, [r["weight"] for r in mixed])
            combined_here = mean and final and abs(final / mean - 1) <= SAME_REL
            got[f[0]] = mid if combined_here else None
            got[f[0] + "_not_composed"] = bool(mid is not None and not combined_here)
        out[int(lv["extra_op_percent"])] = got
    return out


def recompose(case: dict, readings: dict) -> dict:
    """The case file with the medians as its centres (figures, errors, interval, summary); the
    levels where a figure could not be composed (``medians``) named in ``not_composed``."""
    out = copy.deepcopy(case)
    mids = medians(readings)
    kept = []
    for row in out.get("levels", []):
        x = row["extra_op_percent"]
        mid = mids.get(x, {})
        kept += [f"{f} {x}%" for f in ("steady_iops", "waf") if mid.get(f + "_not_composed")]
        if mid.get("steady_iops") and "iops_pred" in row:
            v = mid["steady_iops"]
            row |= {"iops_pred": v, "iops_err": v / row["iops_true"] - 1,
                    "iops_low": min(row["iops_low"], v),
                    "iops_high": max(row["iops_high"], v)}  # fmt: skip
            row["iops_in_80"] = row["iops_low"] <= row["iops_true"] <= row["iops_high"]
        if mid.get("waf"):
            v = mid["waf"]
            row |= {"waf_pred": v, "waf_err": v / row["waf_true"] - 1}
            if "waf_low" in row:
                row["waf_low"], row["waf_high"] = min(row["waf_low"], v), max(row["waf_high"], v)
                row["waf_in_80"] = row["waf_low"] <= row["waf_true"] <= row["waf_high"]
    out["summary"] = scoreboard.summary(out) | {"composed": "mixture_centre.median, post-hoc"}
    out["not_composed"] = kept
    return out


def recompose_folder(folder: Path) -> None:
    """Every case of ``folder`` with its readings recomposed again (no calibrate run)."""
    for rd in sorted(folder.glob("*.readings.json")):
        case_file = rd.with_name(rd.name.replace(".readings.json", ".json"))
        case = json.loads(case_file.read_text())
        if "levels" in case:
            composed = recompose(case, json.loads(rd.read_text()))
            case_file.with_suffix(".median.json").write_text(json.dumps(composed, indent=1) + "\n")


def run(folder: str, stem: str, family: str, out_dir: Path) -> None:
    """The scoreboard's case of truth FOLDER/STEM.json into ``out_dir``, its readings beside it
    and, where it is answered, the case recomposed with the median."""
    got = _capturing_run()
    scoreboard.CASES_DIR = str(out_dir.resolve())
    scoreboard.one(folder, stem, family)
    out = scoreboard.case_path(family, folder, stem)
    if "stdout" in got and got["stdout"].strip():
        readings = readings_of(json.loads(got["stdout"]))
        out.with_suffix(".readings.json").write_text(json.dumps(readings) + "\n")
        case = json.loads(out.read_text())
        if "levels" in case:
            composed = recompose(case, readings)
            out.with_suffix(".median.json").write_text(json.dumps(composed, indent=1) + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "list":
        print("\n".join(str(f) for f in carried()))
    elif sys.argv[1] == "uncomposed":  # OUT: the stored case files of its cases not composed
        for f in sorted(Path(sys.argv[2]).glob("*.median.json")):
            if json.loads(f.read_text())["not_composed"]:
                print(STORED / f.name.replace(".median.json", ".json"))
    elif sys.argv[1] == "recompose":  # OUT: the folder's cases composed again
        recompose_folder(Path(sys.argv[2]))
    elif sys.argv[1] == "run":  # a stored case file's truth
        stored = json.loads(Path(sys.argv[2]).read_text())
        folder, stem = stored["truth"].removesuffix(".json").rsplit("/", 1)
        run(folder, stem, stored["family"], Path(sys.argv[3]))
    else:  # truth FOLDER STEM FAMILY OUT-DIR
        run(*sys.argv[2:5], Path(sys.argv[5]))
