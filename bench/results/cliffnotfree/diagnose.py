"""Why calibrate --cliff's probe check said ``cache_not_free`` (bench/results/cliffnotfree/
DIAGNOSIS.md): the three seen cases of bench/results/cliffidle/ rerun in-process exactly as
``bench/cliffplan_eval.py --probes-in-prediction`` runs them (same truth drive, same CLI
arguments), with the simulated target's rounds logged: after each round and purge, the truth
core's SLC cache (bytes written to SLC less bytes folded, the core's report), and each round's
IOPS and reads' mean latency. Prints one JSON document (rounds of the cliff step only).

    PYTHONPATH=python:bench nice -n 10 python bench/results/cliffnotfree/diagnose.py \
        > bench/results/cliffnotfree/trace.json
    (--span-fix: the probes' span in the target's bytes, a counterfactual: trace-span-fix.json)
"""

from __future__ import annotations

import contextlib
import json
import random
import sys
import tempfile
from pathlib import Path

from cliffplan_eval import truth_drive  # bench/ on the path
from cpu_clock import cpu_s
from overprov.calibrate import cliff_prediction, cliff_step, validation
from overprov.calibrate import twin as twinmod
from overprov.cli import main as cli_main
from overprov.profile import sim_target

CASES = [(221, 0.01), (223, 0.03), (224, 0.01)]
SHARES = (0.01, 0.03)  # cliffplan_eval draws each seed's shares in this order


def slc_state(target: sim_target.SimTarget) -> dict:
    rep = json.loads(target._need_open().report_json())
    timed = rep.get("timed") or {}
    w, f = timed.get("slc_written_bytes"), timed.get("slc_folded_bytes")
    return {"slc_written_bytes": w, "slc_folded_bytes": f,
            "slc_used_bytes": None if w is None else w - f}  # fmt: skip


LOG: list = []  # the current case's rounds


def traced() -> None:
    """The simulated target's rounds and purges logged into :data:`LOG` (patched once)."""
    run0, purge0 = sim_target.SimTarget.run, sim_target.SimTarget.purge

    def run(self, spec):  # type: ignore[no-untyped-def]
        res = run0(self, spec)
        if spec.label.startswith("cliff"):
            c = res.combined
            LOG.append({"label": spec.label, "sim_seconds": spec.seconds,
                        "idle_sim_seconds": spec.idle_seconds, "qd": spec.qd,
                        "read_percent": spec.read_percent, "span_bytes": spec.span_bytes,
                        "iops": c.iops, "read_us": c.read_latency_us_mean,
                        "duration_s": c.duration_s, "bytes_written": c.bytes_written,
                        **slc_state(self)})  # fmt: skip
        return res

    def purge(self):  # type: ignore[no-untyped-def]
        out = purge0(self)
        if not any(r["label"] == "cliff-probe-before" for r in LOG):  # the step's purges
            LOG.append({"label": "purge", **slc_state(self)})
        return out

    sim_target.SimTarget.run, sim_target.SimTarget.purge = run, purge


def span_in_target_bytes() -> None:
    """Counterfactual (``--span-fix``, not calibrate's code): the probes' span as the step's
    docstring means it, a quarter of the series' bytes before its cliff *in the target's
    bytes* (the full-size figure × the scale), at most 1% of the capacity; calibrate's code
    takes the full-size figure against the scaled drive's capacity."""
    probe0 = cliff_step.probe

    def probe(runner, label, span_bytes, wl, seconds):  # type: ignore[no-untyped-def]
        doc = runner.m.cliff
        s = cliff_step.series(doc)
        fill = doc["buffer_fill_bytes"]
        step = cliff_step.cache_step(s, bs_bytes=doc["bs_bytes"], buffer_bytes=fill)[0]
        before = step.host_write_bytes_before if step is not None else 0.0
        fixed = int(min(cliff_step.PROBE_SPAN_SHARE_OF_CACHE * before * doc["scale_factor"],
                        cliff_step.PROBE_SPAN_MAX_SHARE * runner.m.capacity_bytes))  # fmt: skip
        return probe0(runner, label, fixed, wl, seconds)

    cliff_step.probe = probe


def main() -> int:
    cliff_prediction.PROBES_IN_PREDICTION = True
    traced()
    if "--span-fix" in sys.argv[1:]:
        span_in_target_bytes()
    t0 = cpu_s()
    cases = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed, share in CASES:
            rng = random.Random(seed * 7919)
            for s in SHARES:  # the rng's draws as cliffplan_eval makes them
                truth = truth_drive(seed, s, rng)
                if s == share:
                    break
            scale = validation.scale_for(truth, float(4 * 2**30))
            path = Path(tmp) / f"drive-{seed}-{share:g}.toml"
            path.write_text(twinmod.to_toml(truth) + "\n")
            out = Path(tmp) / f"out-{seed}-{share:g}"
            LOG.clear()
            with contextlib.redirect_stdout(sys.stderr):  # calibrate's own output
                rc = cli_main(["calibrate", f"sim:{path}@{scale}", "--cliff", "--extra-op", "0,20",
                               "--no-progress", "--out", str(out)])  # fmt: skip
            m = json.loads((out / "measurement.json").read_text())
            pred = json.loads((out / "prediction.json").read_text())["cliff"]
            c = m["cliff"]
            cases.append({
                "case": f"{seed} at {100 * share:g}%", "exit": rc, "scale": scale,
                "true_cache_bytes": truth["config"]["timing"]["slc"]["max_bytes"],
                "true_slc_program_us": truth["config"]["timing"]["slc"]["program_us"],
                "true_timing": {k: truth["config"]["timing"].get(k) for k in ("slc", "buffer")},
                "idle_seconds": c.get("idle_seconds"), "probe_drain_s": c.get("probe_drain_s"),
                "probes": c.get("probes"), "probes_not_used": pred.get("probes_not_used"),
                "log": list(LOG),
            })  # fmt: skip
    doc = {"span_fix": "--span-fix" in sys.argv[1:], "cases": cases,
           "cpu_s": round(cpu_s() - t0, 1)}  # fmt: skip
    json.dump(doc, sys.stdout, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
