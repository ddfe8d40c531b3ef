"""Every stored held-out figure with a prediction and an 80% interval, pooled: per family and
in all, the share inside and the median width (the interval target: 70–90% inside,
no wider than needed).

Nothing is re-run. Three kinds of stored case are read:

- **corpus**: the held-out cases of the corpus bench and the interval rules' added cases
  (:data:`CORPUS_CASES`, ``bench/corpus_bench.py`` cases, each level held out in turn), their
  intervals rebuilt from the stored readings under the recorded rule (``bench/
  conditioned_intervals.py``: the fit's residual × the scale fitted on the other families, the
  distance rule where the figures leave nothing to miss), as bench/intervals/RULE-2.md's
  "current" column;
- **plan**: calibrate's own cases on foreign truths (:data:`PLAN_SOURCES`; ``bench/foreign/
  evaluate.py``'s evaluation files, its per-run files, or a ``prediction.json`` beside its
  truth), each figure calibrate was not given (its level or its kind not fitted);
- **skew**: the skew path's cases on SSDsim under skewed writes (:data:`SKEW_CASES`).

A case is **stale** where its stored interval predates a change of the interval rule it falls
under: stored (the file's last commit, an upper bound of its run) before calibrate adopted the
conditioned form error (:data:`CONDITIONED_ADOPTED`); a fit without a WAF figure stored before
the IOPS-only term (:data:`IOPS_ONLY_ADOPTED`; corpus cases without a WAF figure, whose rebuilt
interval leaves it out); every skew case (no model-form term: bench/intervals/RULE-skew.md). The
"current" tally counts only the cases that are not stale.

``--now``: the stored cases predicted again with the code as it is (bench/intervals/tally-now/,
:data:`NOW_SOURCES`) read in place of the stored files they stand for; the tally with them is
written beside the stored one (bench/intervals/tally-now/tally-now.md), each family's
current cases then and now.

    PYTHONPATH=python python bench/intervals/tally.py [--out bench/intervals/tally] [--now]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BENCH = ROOT / "bench"
RESULTS = BENCH / "foreign" / "results"
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH / "foreign"))
sys.path.insert(0, str(HERE))
import conditioned_intervals as ci  # noqa: E402  (bench/)
import evaluate  # noqa: E402  (bench/foreign/)
from corpus_bench import read_cases  # noqa: E402
from iops_only_guard import _truth  # noqa: E402  (bench/foreign/)
from iops_only_intervals import family  # noqa: E402  (bench/intervals/)
from width_terms import group_of  # noqa: E402

#: calibrate adopts the conditioned model-form error (commit 4394b4b6, bench/intervals/RULE.md)
CONDITIONED_ADOPTED = datetime.fromisoformat("2026-11-28T09:11:39+00:00")
#: the IOPS-only interval term (commit f34ab7c6, bench/intervals/RULE-iops-only.md)
IOPS_ONLY_ADOPTED = datetime.fromisoformat("2026-11-28T17:44:43+00:00")

#: The corpus bench's held-out cases and those the interval rules added (RULE.md, RULE-2.md).
CORPUS_CASES = (
    "bench/corpus/held-out-cases.jsonl",
    "bench/intervals/unseen-cases.jsonl",
    "bench/corpus/steady-held-out.jsonl",
    "bench/intervals/ssdiq-sim-cases.jsonl",
    "bench/intervals/unseen-cases-2.jsonl",
)

#: calibrate's own cases on foreign truths, under bench/foreign/results/: (glob, the run to read
#: in a file holding several, the family's label). The run read is calibrate's default one.
PLAN_SOURCES: tuple[tuple[str, str | None, str | None], ...] = (
    ("wiscsee/evaluation.json", None, "WiscSim"),
    ("ssdsim/evaluation.json", None, "SSDsim"),
    # the t_cmd bound adopted (bench/foreign/results/tcmd-bound2/RULE.md met): "waf0.9" is
    # calibrate's default
    ("tcmd-bound2/runs/*--waf0.9.json", None, None),
    ("mqsim-retry/eval/*/evaluation.json", None, "MQSim, GC checks retried"),
    # plan.ONSET_FROM_EMPTY off by default: the "-off" runs, predicted again with later code
    ("femu-end-to-end/refit/*-off/prediction.json", None, "FEMU, end to end"),
    # evidence.REPRODUCED_BY_FIGURE on by default (bench/foreign/results/byfig5/RULE.md met):
    # the "on" run
    ("byfig5/unseen-cases/*.json", "on", "FEMU"),
    # FEMU's first drives predicted again with the code of bb7bee6
    # (bench/foreign/results/retally/PLAN.md)
    ("retally/femu/evaluation.json", None, "FEMU"),
    ("retally/units/evaluation.json", None, "FEMU"),
)

#: the stored cases predicted again with the code as it is (``--now``): (glob under
#: :data:`NOW`, the run to read, the family's label, the :data:`PLAN_SOURCES` glob the files
#: stand in for when any is found). FEMU end to end: every stored measurement of calibrate's
#: plan, one a drive, against its truth (tally-now/repredict.sh; the drive's truth in
#: ``femu/truths.txt``), for the stored refits (a diagnosis: the plan's QD32 figures replaced
#: by the truth's). The others: the same command as the stored files' (tally-now/*.sh).
NOW = HERE / "tally-now"
NOW_SOURCES: tuple[tuple[str, str | None, str | None, str], ...] = (
    ("femu/*/prediction.json", None, "FEMU, end to end",
     "femu-end-to-end/refit/*-off/prediction.json"),
    ("mqsim/*/evaluation.json", None, "MQSim, GC checks retried",
     "mqsim-retry/eval/*/evaluation.json"),
    ("femu-units/evaluation.json", None, None, "retally/units/evaluation.json"),
    ("byfig5/*.json", "on", "FEMU", "byfig5/unseen-cases/*.json"),
)  # fmt: skip

#: the skew path's stored cases with an interval (bench/intervals/RULE-skew.md)
SKEW_CASES = ("skewftl/cases.jsonl", "zonescatter/cases.jsonl")

#: a family the corpus bench names otherwise (``corpus_report.family_of``)
SAME_FAMILY = {"DiskSim": "DiskSim SSD"}

KINDS = {"iops": ("iops_true", "iops_pred", "iops_low", "iops_high", "fitted_iops"),
         "waf": ("waf_true", "waf_pred", "waf_low", "waf_high", "fitted_waf")}  # fmt: skip


def committed_at(path: Path) -> datetime:
    """The last commit of a file (its run was no later); not committed: made now."""
    out = subprocess.run(
        ["git", "-C", str(ROOT), "log", "-1", "--format=%cI", "--", str(path)],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    return datetime.fromisoformat(out) if out else datetime.max.replace(tzinfo=UTC)


def stale_why(at: datetime, has_waf: bool) -> str | None:
    """Why an interval stored at ``at`` is not the one calibrate gives now (None: it is)."""
    if at < CONDITIONED_ADOPTED:
        return "stored before the conditioned form error"
    if not has_waf and at < IOPS_ONLY_ADOPTED:
        return "IOPS-only fit stored before the IOPS-only term"
    return None


def row(**kw: Any) -> dict[str, Any]:
    r = dict(kw)
    r["inside"] = r["low"] <= r["true"] <= r["high"]
    r["width"] = r["high"] / r["low"] - 1
    return r


def family_of(truth_path: str) -> str:
    f = family(truth_path)
    return SAME_FAMILY.get(f, f)


def evaluate_rows(case: dict, truth_path: str, src: str, fam: str | None) -> Iterator[dict]:
    """A case of ``bench/foreign/evaluate.py``: each figure it was not given, with its interval."""
    cmd = case["command"] if isinstance(case["command"], str) else " ".join(case["command"])
    has_waf = "--waf-points" in cmd
    for lv in case.get("levels") or []:
        for kind, (t, p, lo, hi, fitted) in KINDS.items():
            if lv.get(fitted) or lv.get(lo) is None or lv.get(t) is None or not lv.get(p):
                continue
            yield row(block="plan", family=fam or family_of(truth_path), source=src,
                      truth=Path(truth_path).stem, case=case["case"], level=lv["extra_op_percent"],
                      kind=kind, predicted=lv[p], low=lv[lo], high=lv[hi], true=lv[t],
                      has_waf=has_waf, command=cmd)  # fmt: skip


def prediction_rows(pred: dict, truth: dict, truth_path: str, src: str, case: str, fam: str | None):
    """A calibrate ``prediction.json`` against its truth's QD32 levels: each figure not fitted."""
    pts = [p for p in pred["fit"]["points"] if not p.get("fresh") and p.get("queue_depth") is None]
    given = {("iops", p["extra_op_percent"]) for p in pts if p.get("iops")}
    given |= {("waf", p["extra_op_percent"]) for p in pts if p.get("waf") is not None}
    has_waf = any(k == "waf" for k, _ in given)
    curve = evaluate.truth_curve(truth, 32)
    for lv in pred["levels"]:
        x = lv["extra_op_percent"]
        t = curve.get(int(x))
        if t is None:
            continue
        for kind, v, lo, hi, true in (
            ("iops", lv.get("steady_iops"), lv.get("steady_iops_low"), lv.get("steady_iops_high"),
             t.get("steady_iops")),
            ("waf", lv.get("waf"), lv.get("waf_low"), lv.get("waf_high"), t.get("steady_waf")),
        ):  # fmt: skip
            if (kind, x) in given or lo is None or hi is None or not v or true is None:
                continue
            yield row(block="plan", family=fam or family_of(truth_path), source=src,
                      truth=Path(truth_path).stem, case=case, level=x, kind=kind, predicted=v,
                      low=lo, high=hi, true=true, has_waf=has_waf)  # fmt: skip


def plan_sources(now: bool = False) -> list[tuple[Path, str, str | None, str | None]]:
    """(folder, glob, run, family) of :data:`PLAN_SOURCES`; ``now``: with :data:`NOW_SOURCES`
    in place of the stored files they stand in for."""
    out = [(RESULTS, pattern, run, fam) for pattern, run, fam in PLAN_SOURCES]
    if not now:
        return out
    for pattern, run, fam, stands_for in NOW_SOURCES:
        if any(NOW.glob(pattern)):
            out = [s for s in out if s[1] != stands_for] + [(NOW, pattern, run, fam)]
    return out


def now_refused() -> list[str]:
    """The re-predicted FEMU cases calibrate refused (no prediction: its ``calibrate.out``)."""
    return sorted(str(d.relative_to(ROOT)) for d in NOW.glob("femu/*/")
                  if not (d / "prediction.json").exists())  # fmt: skip


def stored_of_now(pattern: str = "femu/*/prediction.json") -> list[dict[str, Any]]:
    """The figures of the re-predicted FEMU cases as their stored prediction had them (the
    prediction beside the measurement ``run.json`` names as ``repredicted_from``)."""
    out = []
    for f in sorted(NOW.glob(pattern)):
        stored = ROOT / json.loads((f.parent / "run.json").read_text())["repredicted_from"]
        truth_path = _now_truth(f)
        if truth_path is None or not (stored / "prediction.json").is_file():
            continue
        pred = json.loads((stored / "prediction.json").read_text())
        truth = _truth(truth_path, f.parent, ROOT)
        out += prediction_rows(pred, truth, truth_path, str(stored.relative_to(ROOT)),
                               f.parent.name, "FEMU, end to end")  # fmt: skip
    return out


def _now_truth(pred_file: Path) -> str | None:
    """A re-predicted FEMU case's truth (``truths.txt`` beside its folder), else None."""
    names = pred_file.parent.parent / "truths.txt"
    if not names.is_file():
        return None
    return dict(line.split() for line in names.read_text().splitlines()).get(pred_file.parent.name)


def plan_rows(now: bool = False) -> list[dict[str, Any]]:
    """Every figure of :data:`PLAN_SOURCES` (``now``: :func:`plan_sources`), a case stored twice
    kept once (the later file). A case is the same where its truth's name, its name and its
    true figures are (two drives' truths each named ``mqsim.json`` are two cases)."""
    found: dict[tuple, tuple[datetime, list[dict]]] = {}
    for base, pattern, run, fam in plan_sources(now):
        for f in sorted(base.glob(pattern)):
            src = str(f.relative_to(RESULTS if base == RESULTS else ROOT))
            at = committed_at(f) if base == RESULTS else datetime.max.replace(tzinfo=UTC)
            doc = json.loads(f.read_text())
            got: dict[tuple[str, str], list[dict]] = {}
            if isinstance(doc, list):  # evaluate.py's evaluation file
                for e in doc:
                    for c in e["cases"]:
                        key = (Path(e["results"]).stem, c["case"])
                        got[key] = list(evaluate_rows(c, e["results"], src, fam))
            elif "result" in doc:  # one evaluate.py case in a file of its own
                key = (Path(doc["truth"]).stem, doc["case"])
                got[key] = list(evaluate_rows(doc["result"], doc["truth"], src, fam))
            else:  # a prediction.json beside its truth, or a run ("on") holding one
                pred = doc[run] if run else doc
                truth_path = doc.get("truth") or _now_truth(f) or _end_to_end_truth(f)
                truth = _truth(truth_path, f.parent, ROOT)
                case = doc.get("case") or f.parent.name
                key = (Path(truth_path).stem, str(case))
                got[key] = list(prediction_rows(pred, truth, truth_path, src, str(case), fam))
            for (stem, case), rows in got.items():
                key = (stem, case, tuple(sorted((r["level"], r["kind"], r["true"]) for r in rows)))
                if key not in found or at >= found[key][0]:
                    found[key] = (at, rows)
    out = []
    for at, rows in found.values():
        for r in rows:
            r["stale"] = stale_why(at, r["has_waf"])
            out.append(r)
    return out


def _end_to_end_truth(pred_file: Path) -> str:
    """femu-end-to-end/refit/DRIVE-off/prediction.json → femu-end-to-end/DRIVE.json."""
    drive = pred_file.parent.name.rsplit("-", 1)[0]
    return str((RESULTS / "femu-end-to-end" / f"{drive}.json").relative_to(ROOT))


NO_IOPS_ONLY_TERM = "no WAF figure: the IOPS-only term not applied"


def corpus_cases() -> list[dict[str, Any]]:
    """The corpus bench's held-out cases, each interval rebuilt under the recorded rule
    (``conditioned``; the module's text)."""
    cases = [{**c, "_file": p} for p in CORPUS_CASES for c in read_cases(ROOT / p)]
    ci.run(cases, set())
    return cases


def corpus_rows(cases: list[dict[str, Any]] | None = None, key: str = "conditioned"):
    """The rows of the corpus cases (:func:`corpus_cases` unless given), each with its
    interval ``key``."""
    out = []
    for c in corpus_cases() if cases is None else cases:
        if "log_error" not in c:
            continue
        lo, hi = c[key]
        has_waf = any(f["kind"] == "waf" for f in c["fitted"])
        h = c["held_out"]
        out.append(row(block="corpus", family=group_of(c), source=c["_file"],
                       truth=c["drive"], case="held out in turn", level=h["extra_op_percent"],
                       kind=h["kind"], predicted=float(c["predicted"]), low=lo, high=hi,
                       true=float(h["value"]), has_waf=has_waf,
                       stale=None if has_waf else NO_IOPS_ONLY_TERM))  # fmt: skip
    return out


def skew_rows() -> list[dict[str, Any]]:
    """The skew path's stored cases with an interval (all stale: no model-form term)."""
    out = []
    for name in SKEW_CASES:
        for line in (RESULTS / name).read_text().splitlines():
            c = json.loads(line)
            if c.get("low") is None:
                continue
            fit = c.get("fit") or "iops+waf"
            fam = "SSDsim" if c["drive"].startswith("ssdsim") else "Micron 7450 (SSD-iq)"
            out.append(row(block="skew", family=f"{fam}, skewed writes", source=name,
                           truth=c["drive"], case=f"{c['workload']} ({c.get('prediction', fit)})",
                           level=c["extra_op_percent"], kind=c["kind"], predicted=c["predicted"],
                           low=c["low"], high=c["high"], true=c["measured"],
                           has_waf=fit == "iops+waf",
                           stale="skew path: no model-form term"))  # fmt: skip
    return out


def stats(rows: list[dict[str, Any]]) -> dict[str, Any]:
    if not rows:
        return {"n": 0}
    return {
        "n": len(rows),
        "inside": sum(r["inside"] for r in rows) / len(rows),
        "median_width": statistics.median(r["width"] for r in rows),
        "median_abs_error": statistics.median(abs(r["predicted"] / r["true"] - 1) for r in rows),
    }


def tally(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per family and in all: the current cases, the stale ones, and all together."""
    fams = sorted({r["family"] for r in rows})
    cur = [r for r in rows if not r["stale"]]

    def three(rs: list[dict[str, Any]]) -> dict[str, Any]:
        return {"current": stats([r for r in rs if not r["stale"]]),
                "stale": stats([r for r in rs if r["stale"]]), "all": stats(rs)}  # fmt: skip

    return {
        "pooled": three(rows),
        "blocks": {
            b: three([r for r in rows if r["block"] == b]) for b in ("corpus", "plan", "skew")
        },
        "families": {f: three([r for r in rows if r["family"] == f]) for f in fams},
        "stale_why": {
            w: sum(1 for r in rows if r["stale"] == w)
            for w in sorted({r["stale"] for r in rows if r["stale"]})
        },  # fmt: skip
        "current_cases": len(cur),
    }


def pct(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.0f}%"


def cell(s: dict[str, Any]) -> str:
    if not s["n"]:
        return "–"
    return f"{s['n']}: {pct(s['inside'])} at {pct(s['median_width'])}"


def markdown(t: dict[str, Any]) -> str:
    lines = [
        "| cases | current: n: inside at median width | stale: n: inside at median width | all |",
        "|---|---|---|---|",
        f"| **pooled** | {cell(t['pooled']['current'])} | {cell(t['pooled']['stale'])} | "
        f"{cell(t['pooled']['all'])} |",
    ]
    lines += [f"| block: {b} | {cell(s['current'])} | {cell(s['stale'])} | {cell(s['all'])} |"
              for b, s in t["blocks"].items()]  # fmt: skip
    lines += [f"| {f} | {cell(s['current'])} | {cell(s['stale'])} | {cell(s['all'])} |"
              for f, s in t["families"].items()]  # fmt: skip
    lines += [
        "",
        "Stale cases, by why: " + "; ".join(f"{w}: {n}" for w, n in t["stale_why"].items()),
    ]
    return "\n".join(lines)


def all_rows(now: bool = False) -> list[dict[str, Any]]:
    return corpus_rows() + plan_rows(now) + skew_rows()


def then_and_now(stored: dict[str, Any], now: dict[str, Any]) -> str:
    """Each family's current cases in the stored tally and with the re-predicted cases."""
    lines = [
        "| cases | stored: n: inside at median width | now: n: inside at median width |",
        "|---|---|---|",
        f"| **pooled** | {cell(stored['pooled']['current'])} | {cell(now['pooled']['current'])} |",
    ]
    for f in sorted(set(stored["families"]) | set(now["families"])):
        s, n = (t["families"].get(f, {}).get("current", {"n": 0}) for t in (stored, now))
        if s["n"] or n["n"]:
            lines.append(f"| {f} | {cell(s)} | {cell(n)} |")
    if now.get("same_cases_stored"):
        lines += ["", "The re-predicted FEMU end-to-end cases, their stored predictions: "
                  + cell(now["same_cases_stored"])]  # fmt: skip
    if now.get("refused"):
        lines += ["", "Refused by calibrate now (no prediction): " + ", ".join(now["refused"])]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="a folder for the tally (markdown, JSON) and its rows")
    ap.add_argument("--now", action="store_true",
                    help="also the tally with the re-predicted cases (tally-now/)")  # fmt: skip
    args = ap.parse_args(argv)
    corpus, skew = corpus_rows(), skew_rows()
    rows = corpus + plan_rows() + skew
    t = tally(rows)
    text = markdown(t)
    print(text)
    if args.out:
        write(args.out, "tally", text, t, rows)
    if args.now:
        now_rows = corpus + plan_rows(now=True) + skew
        tn = tally(now_rows) | {
            "refused": now_refused(),
            "same_cases_stored": stats(stored_of_now()),
        }
        text_now = markdown(tn) + "\n\n" + then_and_now(t, tn)
        print("\n" + text_now)
        if args.out:
            write(args.out, "tally-now", text_now, tn, now_rows, "rows-now.jsonl")
    return 0


def write(out: Path, name: str, text: str, doc: dict[str, Any], rows: list[dict[str, Any]],
          rows_name: str = "rows.jsonl") -> None:  # fmt: skip
    """``NAME.md``, ``NAME.json`` and the rows (``rows_name``; paths as text) in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.md").write_text(text + "\n")
    (out / f"{name}.json").write_text(json.dumps(doc, indent=1) + "\n")
    with (out / rows_name).open("w") as fh:
        for r in rows:
            fh.write(json.dumps({k: str(x) if isinstance(x, Path) else x for k, x in r.items()}))
            fh.write("\n")


if __name__ == "__main__":
    raise SystemExit(main())
