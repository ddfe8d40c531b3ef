"""Which stored plan cases of the pooled tally (``tally.plan_sources(now=True)``) would be
offered the GC-reserve reading without an onset (``reserve_hull.floor_in_waf`` and
``gc_reserve.ReserveForm(onset=None).called_for`` on the case's typed figures, per uniform GC
design): a surrogate-level scan,
milliseconds a case, nothing simulated. A case not listed is read as before under the flag
(its readings and weights unchanged), so only the listed ones need predicting again."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import tally  # noqa: E402  (bench/intervals/)
from overprov.calibrate import (  # noqa: E402
    cli,
    evidence,  # noqa: E402
    gc_designs,
    gc_reserve,
    uncertainty,  # noqa: E402
)
from overprov.calibrate import fit as fitmod  # noqa: E402
from overprov.calibrate.reserve_hull import floor_in_waf  # noqa: E402


def points_of(command: str | list) -> tuple[list[fitmod.Point], bool]:
    """The workload-QD typed figures of a calibrate command (FOB included), and whether it
    gives the raw NAND (``--physical``)."""
    argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    opt = {argv[i]: argv[i + 1] for i in range(len(argv) - 1) if argv[i].startswith("--")}
    pts = cli.user_points(opt.get("--points"), opt.get("--waf-points"))
    pts = [p for p in pts if p.queue_depth is None]
    if "--fob-iops" in opt:
        pts.append(fitmod.Point(0.0, float(opt["--fob-iops"]), cli.USER_POINT_REL_SD, fresh=True))
    return pts, "--physical" in opt or "--physical-bytes" in opt


def offered(pts: list[fitmod.Point]) -> list[str]:
    """The uniform designs whose reserve reading the figures call for."""
    mf = uncertainty.model_form_for(pts, False) or uncertainty.recorded_model_form(False)
    cv_sd = evidence.model_form_rel_sd(mf)
    out = []
    for design in gc_designs.UNIFORM_DESIGNS:
        form = gc_reserve.ReserveForm(gc_designs.curve(design) or fitmod.waf_at, cv_sd)
        try:
            if form.called_for(pts):
                out.append(design)
        except Exception as exc:  # noqa: BLE001  (a scan: say it and go on)
            out.append(f"error: {exc}")
    return out


def cases():
    for base, pattern, _run, _fam in tally.plan_sources(now=True):
        for f in sorted(base.glob(pattern)):
            doc = json.loads(f.read_text())
            if isinstance(doc, list):
                for e in doc:
                    for c in e["cases"]:
                        yield f, e["results"], c["case"], c.get("command")
            elif "result" in doc:
                yield f, doc["truth"], doc["case"], doc["result"].get("command")
            else:
                yield f, "", str(doc.get("case") or f.parent.name), None


def main() -> None:
    n = hit = 0
    for f, truth, case, command in cases():
        n += 1
        if not command or ("--points" not in command and "--waf-points" not in command):
            continue
        pts, _raw = points_of(command)
        got = offered(pts) if floor_in_waf(pts) else []
        if got:
            hit += 1
            print(f"{f.relative_to(tally.ROOT)} | {Path(truth).stem} | {case} | {', '.join(got)}")
    print(f"{hit} of {n} stored plan cases offered the reserve reading without an onset")


def corpus_points(c: dict) -> list[fitmod.Point]:
    """A corpus case's fitted figures as points (each figure's own spread where it has one,
    else calibrate's for a typed figure)."""
    by: dict[float, dict] = {}
    pts = []
    for f in c["fitted"]:
        sd = f.get("rel_sd") or cli.USER_POINT_REL_SD
        if f["kind"] == "fob_iops":
            pts.append(fitmod.Point(0.0, f["value"], sd, fresh=True))
        else:
            d = by.setdefault(float(f["extra_op_percent"]), {})
            d[f["kind"]], d[f["kind"] + "_sd"] = f["value"], sd
    for x, d in sorted(by.items()):
        pts.append(fitmod.Point(x, d.get("iops"), d.get("iops_sd", cli.USER_POINT_REL_SD),
                                d.get("waf"), d.get("waf_sd", cli.USER_POINT_REL_SD)))  # fmt: skip
    return pts


def corpus_main() -> None:
    """The corpus block's cases (``tally.CORPUS_CASES``) likewise: uniform, a WAF figure at the
    lowest fitted level and another, and the reading called for."""
    from corpus_bench import read_cases  # bench/ (tally put it on the path)

    n = hit = 0
    for src in tally.CORPUS_CASES:
        for c in read_cases(tally.ROOT / src):
            n += 1
            if c.get("workload", "uniform") != "uniform":
                continue
            pts = corpus_points(c)
            if floor_in_waf(pts) and (got := offered(pts)):
                hit += 1
                print(f"{src} | {c['drive']} | held out {c['held_out']['kind']} at "
                      f"{c['held_out']['extra_op_percent']}% | {', '.join(got)}")  # fmt: skip
    print(f"{hit} of {n} stored corpus cases offered the reserve reading without an onset")


if __name__ == "__main__":
    corpus_main() if sys.argv[1:] == ["corpus"] else main()
