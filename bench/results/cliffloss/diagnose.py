"""Task 1 of the cliffloss brief (bench/results/cliffloss/DIAGNOSIS.md): on seen 1% cases kept by
bench/results/cliffloss/stored.py, what sets the twin's level past the cliff under the mix.

For each stored case the prediction from purged is made again in-process with
``PROBES_IN_PREDICTION`` on (as bench/results/cliffpool/ ran it), ``read_probes.predict``'s
arguments and chosen twin captured, then on that chosen twin:

- the written-page reads' wait past its fitted cache under the workload when those reads are
  sent to the twin's core (the prediction's loop, ``read_slot_after_ns`` left out), against
  the same twin's wait in the probe past the cliff (``Selection.twin_read_us``): the twin's
  ratio of the two;
- the prediction again with the slot past the cliff set to the truth's wait under the mix
  (:data:`TRUTH_WAIT_US`, from bench/results/cliffsmall/past_windows.json: an oracle, not a
  form) and to the probe's wait times the twin's ratio (the first candidate, rejected);
- the prediction with ``cliff_span.SPAN_FROM_MIX`` on (the twin's series as long as its own
  mix runs it), alone and with the truth's wait.

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffloss/diagnose.py \
        269:0.01 252:0.01 9605:0.01 259:0.01 264:0.01 > bench/results/cliffloss/diagnose.json
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any
from unittest.mock import patch

from cpu_clock import cpu_s
from overprov.calibrate import cliff, cliff_prediction, cliff_span, read_probes, read_slot

HERE = Path(__file__).resolve().parent
#: the truths' written-page reads' mean wait past the cliff under the mix (µs), where measured
TRUTH_WAIT_US = {"269 at 1%": 259.2, "252 at 1%": 668.0, "9605 at 1%": 769.0}


def plateau(name: str) -> ModuleType:
    """bench/results/cliffplateau/``name``.py as a module (its ``HERE`` set to this folder, so
    that it reads and keeps this folder's ``stored/``)."""
    spec = importlib.util.spec_from_file_location(
        f"cliffplateau_{name}", HERE.parent / "cliffplateau" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(HERE.parent / "cliffplateau"))
    spec.loader.exec_module(mod)
    mod.HERE = HERE
    return mod


def load(seed: int, share: float) -> tuple[dict, dict, float]:
    """A stored case's step measurement, twin and scale
    (bench/results/cliffplateau/diagnose.py's ``stored``)."""
    return plateau("diagnose").stored(seed, share)


#: How far the twin's run under the workload goes: the host's writes, in fitted caches
RUN_CACHES = 2.0


def twin_wait_us(drive: dict, fit: cliff.CacheFit, scale: float, mix: dict) -> dict[str, Any]:
    """The workload ``mix`` (``qd``, ``read_percent``, ``read_slot_us``: the slot before the
    cliff, ``unwritten_read_us``, ``command_ceiling_iops``) run from purged on ``drive`` with
    the cache ``fit`` until the host has written :data:`RUN_CACHES` times it, its reads of
    written pages past the cache sent to the core, not in order (as
    ``read_probes.probe_read_us`` runs the probe): their mean wait (µs) and count."""
    cfg = cliff._config(  # noqa: SLF001 - the cliff twin's own configuration of a run
        cliff.fitted_drive(drive, fit), scale, qd=mix["qd"], read_percent=0, seconds=1e3,
        interval_s=1e3, precondition="none",
    )  # fmt: skip
    share = mix["read_percent"] / 100
    cache = fit.cache_bytes * scale
    unwritten, ceiling = mix.get("unwritten_read_us"), mix.get("command_ceiling_iops")
    kinds: list[str] = []
    events, _ = read_slot.request_loop(
        cfg, qd=mix["qd"], read_percent=mix["read_percent"], end_ns=10**15,
        read_slot_ns=round(mix["read_slot_us"] * 1e3), read_slot_until_bytes=cache,
        unwritten_slot_ns=None if unwritten is None else round(unwritten * 1e3),
        command_gap_ns=None if not ceiling else round(1e9 / ceiling), kinds=kinds,
        requests=max(1, int(RUN_CACHES * cache / read_slot.PAGE_BYTES / (1 - share))),
    )  # fmt: skip
    waits = [e[2] for e, k in zip(events, kinds, strict=True) if k == "read_written"]
    return {"read_us": sum(waits) / len(waits) / 1e3 if waits else None, "reads": len(waits)}


def predicted(
    doc: dict, drive: dict, tw: float, slot_after_us: float | None = None, span: bool = False
) -> dict:
    """The prediction from purged with the probes on; with ``slot_after_us`` the slot past the
    cliff set to it instead of the probe's wait; ``calls``: read_probes.predict's arguments."""
    calls: list[dict[str, Any]] = []
    plain = read_probes.predict

    def spy(*a: Any, **kw: Any) -> Any:
        if slot_after_us is not None and kw.get("loop_kw"):
            kw["loop_kw"] = {**kw["loop_kw"], "read_slot_after_ns": round(slot_after_us * 1e3)}
        got = plain(*a, **kw)
        calls.append({"args": a, "kw": kw, "chosen": got[1]})
        return got

    with patch.object(cliff_prediction, "PROBES_IN_PREDICTION", True), \
            patch.object(cliff_span, "SPAN_FROM_MIX", span), \
            patch.object(read_probes, "predict", spy):  # fmt: skip
        pred = cliff_prediction.predict(doc, drive, tw)
    return {"pred": pred, "calls": calls}


def case(seed: int, share: float) -> dict[str, Any]:
    t0 = cpu_s()
    doc, drive, tw = load(seed, share)
    name = f"{seed} at {100 * share:g}%"
    base = predicted(doc, drive, tw)
    row: dict[str, Any] = {"case": name, "now": base["pred"].get("purged")}
    if not base["calls"] or base["calls"][0]["chosen"] is None:
        return {**row, "cpu_s": round(cpu_s() - t0, 1)}
    call = base["calls"][0]
    chosen, kw = call["chosen"], call["kw"]
    mix = {"qd": kw["qd"], "read_percent": kw["read_percent"],
           "read_slot_us": call["args"][2].read_us,
           "unwritten_read_us": kw.get("unwritten_read_us"),
           "command_ceiling_iops": kw.get("command_ceiling_iops")}  # fmt: skip
    wait = twin_wait_us(chosen.drive, chosen.fit, kw["scale"], mix)
    probe_twin = chosen.twin_read_us[chosen.program]
    row.update(
        program=chosen.program, probe_measured_us=chosen.measured_read_us,
        probe_twin_us=probe_twin, mix_twin=wait,
        ratio=wait["read_us"] / probe_twin if wait["read_us"] else None,
        truth_wait_us=TRUTH_WAIT_US.get(name),
    )  # fmt: skip
    if row["ratio"]:
        carried = chosen.measured_read_us * row["ratio"]
        row["carried_us"] = carried
        row["with_carried"] = predicted(doc, drive, tw, carried)["pred"].get("purged")
    row["with_span"] = predicted(doc, drive, tw, span=True)["pred"].get("purged")
    if name in TRUTH_WAIT_US:
        w = TRUTH_WAIT_US[name]
        row["with_truth_wait"] = predicted(doc, drive, tw, w)["pred"].get("purged")
        row["with_span_truth_wait"] = predicted(doc, drive, tw, w, span=True)["pred"].get("purged")
    row["cpu_s"] = round(cpu_s() - t0, 1)
    print(json.dumps(row), file=sys.stderr, flush=True)
    return row


def main() -> int:
    t0 = cpu_s()
    rows = [case(int(s), float(h)) for s, h in (a.split(":") for a in sys.argv[1:])]
    print(json.dumps({"rows": rows, "cpu_s": round(cpu_s() - t0, 1)}, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
