"""Which stored cases calibrate refuses today at its plausibility gate that ``reserve_hull.OFFERED``
with ``AT_THE_GATE`` would pass (``plausibility.fit_misses_its_points`` flag off: a reason; flag
on: None): a gate-level scan, milliseconds a case, nothing simulated.

Cases: every stored calibrate measurement (``measurement.json`` under bench/, read as
``calibrate --from`` reads it: ``cli.from_folder``, its workload-QD points, its FOB and its onset)
and every stored typed-figure command (a ``command`` holding ``--points``/``--waf-points``, read
as ``cli.user_points`` reads it), each distinct set of figures once; and FEMU's 14 LUNs × 224
blocks measurement with its onset taken away (the test case of
tests/calibrate/test_plausibility_reserve_gate.py).

    PYTHONPATH=python python bench/intervals/hullgate/gate_scan.py \
        > bench/intervals/hullgate/gate_scan.txt
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
from overprov.calibrate import cli, plausibility, reserve_hull, uncertainty  # noqa: E402
from overprov.calibrate import fit as fitmod  # noqa: E402
from overprov.calibrate import predict as predmod  # noqa: E402
from overprov.calibrate.reserve_reading import onset_from_empty  # noqa: E402

FOURTEEN = "bench/foreign/results/femu-end-to-end/femu-14lun-224blk-thres60-5ms-ns80-on"


def gate(points: list[fitmod.Point], fob: float | None, onset: float | None,
         sim: bool) -> tuple[str | None, str | None]:  # fmt: skip
    """The gate's reason with the flag off and with it on (None: passes)."""
    fig = predmod.PredictionInput(points, [0.0, 10.0, 20.0, 30.0, 40.0], typed=False,
                                  fob_iops=fob,
                                  model_form=uncertainty.model_form_for(points, sim))  # fmt: skip
    out = []
    for on in (False, True):
        reserve_hull.OFFERED = on
        try:
            out.append(plausibility.fit_misses_its_points(fig.points, fob, onset, fig.model_form))
        except Exception as exc:  # noqa: BLE001  (a scan: say it)
            out.append(f"error: {exc}")
    reserve_hull.OFFERED = False
    return out[0], out[1]


def measurements():
    for f in sorted(ROOT.glob("bench/**/measurement.json")):
        if HERE in f.parents:
            continue  # this rule's own runs
        try:
            pts, fob, m = cli.from_folder(f.parent)
        except Exception:  # noqa: BLE001
            continue
        if m is not None and getattr(m, "workload", None) not in (None, {}, {"pattern": "uniform"}):
            continue
        where = str(f.parent.relative_to(ROOT))
        yield where + refused_folder(where), pts, fob, onset_from_empty(m), m.kind == "sim"


def commands_in(doc: Any):
    if isinstance(doc, dict):
        for k, v in doc.items():
            if k == "command" and isinstance(v, (str, list)):
                yield v, doc
            else:
                yield from commands_in(v)
    elif isinstance(doc, list):
        for v in doc:
            yield from commands_in(v)


def typed():
    for f in sorted(ROOT.glob("bench/**/*.json")):
        if HERE in f.parents or f.stat().st_size > 20_000_000:
            continue
        try:
            doc = json.loads(f.read_text())
        except Exception:  # noqa: BLE001
            continue
        for c, holder in commands_in(doc):
            argv = shlex.split(c) if isinstance(c, str) else [str(a) for a in c]
            if "--points" not in argv and "--waf-points" not in argv:
                continue
            opt = {argv[i]: argv[i + 1] for i in range(len(argv) - 1) if argv[i].startswith("--")}
            skewed = any(o in opt for o in ("--hot", "--zones", "--zipf-theta"))
            if "--physical" in opt or "--physical-bytes" in opt or skewed or opt.get(
                "--workload") not in (None, "uniform"):  # fmt: skip
                continue  # the gate and the flag read uniform writes, the gate without raw NAND
            try:
                pts = cli.user_points(opt.get("--points"), opt.get("--waf-points"))
            except Exception:  # noqa: BLE001
                continue
            fob = float(opt["--fob-iops"]) if "--fob-iops" in opt else None
            if fob is not None:
                pts.append(fitmod.Point(0.0, fob, cli.USER_POINT_REL_SD, fresh=True))
            said = " (stored: refused)" if "error" in holder else ""
            yield str(f.relative_to(ROOT)) + said, pts, fob, None, False


def refused_folder(folder: str) -> str:
    run = ROOT / folder / "run.json"
    try:
        return " (stored: refused)" if json.loads(run.read_text()).get("calibrate_exit") else ""
    except Exception:  # noqa: BLE001
        return ""


def offered_past_the_gate(pts: list[fitmod.Point], onset: float | None, sim: bool) -> bool:
    """Figures the gate passes today to which the flag offers a reserve reading
    (``reserve_hull.applies`` on uniform writes: no onset, a floor in the WAF, called for)."""
    if onset is not None:
        return False
    fig = predmod.PredictionInput(pts, [0.0, 40.0], typed=False,
                                  model_form=uncertainty.model_form_for(pts, sim))  # fmt: skip
    reserve_hull.OFFERED = True
    try:
        return bool(reserve_hull.forms(fig, uncertainty.weighing_rel_sd(fig.model_form)))
    except Exception:  # noqa: BLE001
        return False
    finally:
        reserve_hull.OFFERED = False


def key(pts: list[fitmod.Point], fob: float | None, onset: float | None) -> tuple:
    return (tuple((p.extra_op_percent, p.iops and round(p.iops, 3), p.waf and round(p.waf, 4),
                   p.queue_depth, p.fresh) for p in pts), fob, onset)  # fmt: skip


def main() -> None:
    seen: dict[tuple, list[str]] = {}
    hits: list[tuple[tuple, str, str]] = []
    later: list[tuple] = []
    n = 0
    cases = list(measurements()) + list(typed())
    _, pts14, fob14, _, _ = next(c for c in cases if c[0].startswith(FOURTEEN))
    cases.append((FOURTEEN + " (its onset taken away)", pts14, fob14, None, False))
    for where, pts, fob, onset, sim in cases:
        k = key(pts, fob, onset)
        if k in seen:
            seen[k].append(where)
            continue
        seen[k] = [where]
        n += 1
        off, on = gate(pts, fob, onset, sim)
        if off is not None and on is None:
            hits.append((k, off, where))
        elif off is None and offered_past_the_gate(pts, onset, sim):
            later.append(k)
    print(f"{n} distinct stored figure sets scanned; {len(hits)} refused at the gate today and "
          "passed with reserve_hull.OFFERED + AT_THE_GATE:")  # fmt: skip
    for k, off, _ in hits:
        print(f"\n- figures {k[0]} FOB {k[1]} onset {k[2]}\n  refused today: {off}")
        for w in seen[k]:
            print(f"  stored at: {w}")
    undated: dict[tuple, list[str]] = {}
    for where, pts, fob, onset, sim in measurements():
        if onset is None:
            continue
        k = key(pts, fob, None)
        if k in undated:
            undated[k].append(where)
            continue
        undated[k] = [where]
        off, on = gate(pts, fob, None, sim)
        said = {None: "passes"}
        undated[k].insert(0, f"onset {onset:.3f}; without it: off {said.get(off, 'refused')}, "
                             f"on {said.get(on, 'refused')}")  # fmt: skip
    print(f"\nSeen, not stored cases: the {len(undated)} distinct stored measurements with an "
          "onset from empty, their onset taken away:")  # fmt: skip
    for ws in undated.values():
        print(f"- {ws[1]}: {ws[0]}" + (f" (+{len(ws) - 2} copies)" if len(ws) > 2 else ""))
    said = [k for k in later if any("refused" in w for w in seen[k])]
    print(f"\n{len(later)} more pass the gate today and are offered the reserve reading with the "
          f"flag (bench/intervals/RULE-hullres2.md's C judged the answered ones); stored refused: "
          f"{len(said)}")  # fmt: skip
    for k in said:
        print(f"\n- figures {k[0]} FOB {k[1]} onset {k[2]}")
        for w in seen[k]:
            print(f"  stored at: {w}")


if __name__ == "__main__":
    main()
