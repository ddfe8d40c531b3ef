"""py_ssd_sim behind calibrate's Target protocol: calibrate's cliff step run on its SLC cache.

    PYTHONPATH=python python bench/foreign/py_ssd_sim_target.py measure --checkout DIR \
        --python PY --work DIR --channels N --slc-superblocks S --out DIR
    PYTHONPATH=python python bench/foreign/py_ssd_sim_target.py predict --case DIR \
        --cliff-workload qd8,read70 [--out FILE]
    PYTHONPATH=python python bench/foreign/py_ssd_sim_target.py judge --prediction FILE \
        --truth TRUTH.json [--out FILE]

calibrate measures any drive through ``overprov.profile.targets.Target`` (``purge``,
``discard_tail``, ``run`` a round). :class:`PySsdSimTarget` is that protocol on py_ssd_sim
(GitHub baramjin92/py_ssd_sim a9f9c73, a clone: no licence, nothing of it here), configured as
bench/foreign/py_ssd_sim_cliff.py configures it (``configure``: channels, SLC super blocks, the
host queue's depth 32) and run with that driver's run-time fixes (its ``RUNNER`` up to where it
starts the simulation: the read path's six fixes, the collection's ids, the host's data check).

- Kind ``sim``: the rounds are in the simulator's time, of any length (calibrate then sizes the
  cliff step's rounds as on ``sim:``); its capacity is the driver's 1 GiB span (the twin's
  advertised bytes, bench/foreign/py_ssd_sim_twin.py); ``buffer_bytes`` its 2 MiB write buffer
  (the twin's, from config/ssd_config.xml), the figure the cliff step reads of a simulated drive.
  No write counters: the step then takes no round as past garbage collection's onset.
- One simulator process from a purge (``purge``: a new process, every page unmapped). Each
  round is one of the simulator's own workloads run in turn, as its main loop runs the next
  workload when asked (``r`` at its end-of-workload prompt: its clock restarts at 0, its
  statistics cleared, the drive's state kept): random 4 KiB-aligned writes over the round's
  span (``randwrite``, timed: the host stops issuing once the simulator's clock passes the
  round's seconds; reads mixed in with ``read_percent``, as the driver mixes them: a read of a
  never-written page answered by the host at once) or sequential writes once over it
  (``write``, untimed); at most ``qd x jobs`` commands outstanding. Its duration is from the
  workload's start to its last completion; its IOPS all completions ÷ that; its reads' mean
  latency those served by the simulator (reads answered at once excluded).
- Not done by the simulator's workloads, so not here: ``discard_tail`` (its host has no trim
  workload: refused), an untimed random round (its generator draws with replacement), rates
  and write-through. Idle time: nothing runs between two workloads (no event left; its
  collection never writes: bench/foreign/README.md), so an idle round's idle time is only said.
- Between rounds the FTL is not flushed (its main loop asks for a flush of the write buffer's
  partial program unit at a workload's end; a drive between two fio rounds keeps it buffered):
  the stub is counted in ``flush_requests_skipped``.

``measure`` runs calibrate's cliff step (``cliff_step.measure_cliff``, as ``measure.measure``
runs it first) on one drive into ``DIR/measurement.json``; calibrate's other steps (the FOB, the
fill, the levels) are not run: they need garbage collection that writes, which py_ssd_sim's
never does, and tens of drive writes (bench/foreign/results/pysimcal/RULE.md). ``predict``:
``cliff_prediction.predict`` on that step, under the workload asked, on the twin of the
simulator's configuration (``py_ssd_sim_twin.twin``, scale 1): calibrate's own prediction with
the configuration's twin in place of a calibrated one. ``judge``: against a truth series of
bench/foreign/py_ssd_sim_cliff.py (``cliff.find_cliff``, ``cliff.errors``, the 25% bound).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import py_ssd_sim_cliff  # noqa: E402
import py_ssd_sim_cliff_eval  # noqa: E402
from overprov import measurement_file  # noqa: E402
from overprov.calibrate import cliff, cliff_prediction  # noqa: E402
from overprov.calibrate import plan as planmod  # noqa: E402
from overprov.calibrate.cliff_step import CliffPlan, measure_cliff, parse_workload  # noqa: E402
from overprov.calibrate.measure import SegmentRunner  # noqa: E402
from overprov.errors import ConfigError, OverprovError  # noqa: E402
from overprov.profile.targets import Figures, RoundResult, RoundSpec, now_iso  # noqa: E402
from piped_target import PipedTarget  # noqa: E402
from py_ssd_sim_twin import SPAN_BYTES, twin  # noqa: E402

PAGE_BYTES = 4096
LATENCY_KEYS = ("mean", "max", "p50", "p90", "p99", "p99_9", "p99_99")
#: the host queue's depth configured (calibrate's plan runs QD32; a round runs at most that)
MAX_QD = 32
#: why a measurement here ends after the cliff step (its status "interrupted")
STOP_REASON = (
    "the cliff step only: calibrate's other steps need a collection that writes "
    "(bench/foreign/py_ssd_sim_target.py)"
)
#: where the driver's runner starts the simulation: the fixes are what comes before
_START = "import sim_main\n"

#: run inside the simulator's copy after the driver's fixes: each round read from stdin (one
#: JSON object a line) is the simulator's next workload; its figures written to the protocol
#: descriptor (the simulator prints to stdout, sent to /dev/null)
SERVER = r"""
import os
import model.ftl as round_ftl
import model.host as round_host
import sim_report
from model.workload import wlm, workload, WL_RAND_WRITE, WL_SEQ_WRITE, WL_TYPE_SIZE
from config.ssd_param import HOST_CMD_IDLE
proto = os.fdopen(os.dup(1), "w", buffering=1)
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
sys.stdout = open(os.devnull, "w")
for name in ("show_result", "build_html", "show_debug_info"):
    setattr(sim_report.report_manager, name, lambda self, *a, **k: None)
checks["flush_requests_skipped"] = 0
def no_flush(self):
    checks["flush_requests_skipped"] += 1
round_ftl.ftl_manager.flush_request = no_flush
now = {}
def next_round():
    global read_percent
    line = sys.stdin.readline()
    if not line.strip():
        return None
    r = json.loads(line)
    kib = r["bs"] // 1024
    if r["rw"] == "write":  # its sequential generator wraps at its range, counted from 0
        end_kib = (r["offset"] + r["span"]) // 1024
        w = workload(WL_SEQ_WRITE, r["offset"] // 512, "%dKiB" % end_kib,
                     kib, kib, "%dKiB" % (r["span"] // 1024), WL_TYPE_SIZE, 0, True, False)
    else:
        w = workload(WL_RAND_WRITE, r["offset"] // 512, "%dKiB" % (r["span"] // 1024),
                     kib, kib, "%dKiB" % (1 << 40), WL_TYPE_SIZE, 0, True, False)
    read_percent = r["read_percent"]
    now.clear()
    now.update(r, first=len(events))
    return w
issue = wl.workload_manager.generate_workload
def generate_workload(self, submit_time, group_id=0):
    if now["seconds"] is not None and sim_event.event_mgr.timetick >= now["seconds"] * 1e9:
        self.group[group_id].wl[self.group[group_id].index].workload_done = True
        return HOST_CMD_IDLE, 0, 0
    return issue(self, submit_time, group_id)
wl.workload_manager.generate_workload = generate_workload
new_command = round_host.host_manager.generate_command
def generate_command(self):
    if self.num_pending_cmds >= now["qd"]:
        return self.queue_ids[0], 0, False
    return new_command(self)
round_host.host_manager.generate_command = generate_command
load = wl.workload_manager.load_xml
def load_xml(self, filename, name):
    load(self, filename, name)
    w = next_round()
    if w is None:
        sys.exit(0)
    self.group[0].wl, self.group[0].index = [w], 0
wl.workload_manager.load_xml = load_xml
def report():
    done = events[now["first"]:]
    nand_reads = [e[2] for e in done if e[1] == 0 and e[2] is not None]
    proto.write(json.dumps({
        "end_ns": max((e[0] for e in done), default=0),
        "writes": sum(1 for e in done if e[1] == 1), "nand_reads": len(nand_reads),
        "instant_reads": sum(1 for e in done if e[1] == 0 and e[2] is None),
        "read_latency_ns_sum": sum(nand_reads),
        "pending": get_ctrl("host").get_pending_cmd_num(), **checks}) + "\n")
def answer(*prompt):
    if not prompt:  # the host's data check (the driver's ``answer``)
        checks["verify_errors"] += 1
        return ""
    report()
    w = next_round()
    if w is None:
        return "q"
    wlm.group[0].wl.append(w)
    return "r"
builtins.input = answer
import sim_main
sim_main.sim_main()
"""


class PySsdSimTarget(PipedTarget):
    """One py_ssd_sim drive: ``channels`` dies, ``slc_superblocks`` super blocks of SLC cache,
    run from ``checkout`` by ``python`` in a copy under ``work``."""

    kind = "sim"
    noun = "py_ssd_sim drive"

    def __init__(self, checkout: Path, python: str, work: Path, channels: int,
                 slc_superblocks: int, seed: int = 1):  # fmt: skip
        self.checkout, self.python, self.work = Path(checkout), python, Path(work)
        self.channels, self.slc_superblocks, self.seed = channels, slc_superblocks, seed
        self.capacity_bytes = SPAN_BYTES
        self.buffer_bytes = twin(channels)["config"]["timing"]["buffer"]["bytes"]
        self.spec = f"py_ssd_sim:{channels}ch-{slc_superblocks}slc"
        self.member_names = [self.spec]
        self.last: dict[str, Any] = {}
        self.copy = self.work / "py_ssd_sim"

    # ------------------------------------------------------------------ the simulator process
    def _prepare(self) -> None:
        if self.copy.exists():
            shutil.rmtree(self.copy)
        shutil.copytree(self.checkout, self.copy, ignore=shutil.ignore_patterns(".git"))
        drive = SimpleNamespace(qd=MAX_QD, channels=self.channels,
                                slc_superblocks=self.slc_superblocks,
                                span_mib=self.capacity_bytes >> 20, amount_mib=1)  # fmt: skip
        py_ssd_sim_cliff.configure(self.copy, drive)
        runner = py_ssd_sim_cliff.RUNNER
        (self.copy / "round_server.py").write_text(runner[: runner.index(_START)] + SERVER)

    def _start(self) -> None:
        if not self.copy.exists():
            self._prepare()
        argv = [self.python, "round_server.py", str(self.seed), "1", "/dev/null", "host", "any"]
        argv += [str(self.capacity_bytes >> 20), "0"]
        log = open(self.work / "server.err", "a")  # noqa: SIM115 (kept open with the process)
        self._spawn(argv, cwd=self.copy, stderr=log)
        self.last = {}

    def _round(self, r: dict[str, Any]) -> dict[str, Any]:
        line = self._exchange(json.dumps(r))
        if not line:
            self._stop()
            raise OverprovError(f"{self.spec}: the simulator ended (its log: server.err)")
        self.last = json.loads(line)
        if self.last["pending"]:
            raise OverprovError(f"{self.spec}: {self.last['pending']} commands left pending")
        return self.last

    # ------------------------------------------------------------------ the Target protocol
    def identity(self) -> dict[str, Any]:
        return {"kind": self.kind, "capacity_bytes": self.capacity_bytes,
                "members": [{"name": self.spec, "size_bytes": self.capacity_bytes,
                             "channels": self.channels,
                             "slc_superblocks": self.slc_superblocks}]}  # fmt: skip

    def software(self) -> dict[str, str]:
        return {"py_ssd_sim": "baramjin92/py_ssd_sim a9f9c73 (bench/foreign/py_ssd_sim_cliff.py)"}

    def purge(self) -> str:
        self._start()
        return "a fresh py_ssd_sim process (every page unmapped)"

    def discard_tail(self, start_bytes: int) -> str:
        raise ConfigError(f"{self.spec}: py_ssd_sim's host has no trim workload to discard with")

    def run(self, spec: RoundSpec) -> RoundResult:
        if spec.rate_iops or spec.write_through:
            raise ConfigError(f"{self.spec}: round {spec.label}: no rate or write-through here")
        if spec.bs_bytes % PAGE_BYTES or spec.offset_bytes % PAGE_BYTES:
            raise ConfigError(f"{self.spec}: round {spec.label} is not in whole 4 KiB pages")
        if spec.offset_bytes + spec.span_bytes > self.capacity_bytes or spec.span_bytes < 1:
            raise ConfigError(f"{self.spec}: round {spec.label} runs past the capacity")
        if spec.seconds is None and spec.rw != "write":
            raise ConfigError(f"{self.spec}: an untimed random round is not run here")
        if spec.qd * spec.jobs > MAX_QD:
            raise ConfigError(f"{self.spec}: queue depth over {MAX_QD}")
        started = now_iso()
        got = self._round({
            "rw": spec.rw, "bs": spec.bs_bytes, "qd": spec.qd * spec.jobs,
            "offset": spec.offset_bytes, "span": spec.span_bytes, "seconds": spec.seconds,
            "read_percent": spec.read_percent if spec.rw == "randwrite" else 0,
        })  # fmt: skip
        duration_s = max(got["end_ns"], 1) / 1e9
        ios = got["writes"] + got["nand_reads"] + got["instant_reads"]
        reads = got["nand_reads"]
        fig = Figures(
            name=self.spec,
            iops=ios / duration_s,
            bytes_written=got["writes"] * spec.bs_bytes,
            duration_s=duration_s,
            latency_us=dict.fromkeys(LATENCY_KEYS),
            read_latency_us_mean=got["read_latency_ns_sum"] / reads / 1e3 if reads else None,
        )
        return RoundResult(spec.label, started, now_iso(), fig, [fig])


# ---------------------------------------------------------------------- the three commands
def measure(args: argparse.Namespace) -> int:
    """calibrate's cliff step on one drive, into ``OUT/measurement.json`` (module docstring)."""
    target = PySsdSimTarget(args.checkout, args.python, args.work, args.channels,
                            args.slc_superblocks, args.seed)  # fmt: skip
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    budget, _ = planmod.default_budget(
        write_counters=False, buffer_bytes=target.buffer_bytes, capacity_bytes=target.capacity_bytes
    )
    plan = planmod.design([0.0, 10.0, 20.0, 30.0, 40.0], budget, write_counters=False)
    m = measurement_file.Measurement(
        target=target.spec, capacity_bytes=target.capacity_bytes, scale_factor=1.0,
        bs_bytes=plan.bs_bytes, qd=plan.qd, kind=target.kind, status="running",
        fill_done=False, plan=plan.to_dict(), identity=target.identity(),
    )  # fmt: skip
    path = out / measurement_file.NAME
    lines: list[str] = []

    def say(line: str) -> None:
        lines.append(line)
        print(line, file=sys.stderr)

    wall = time.monotonic()
    target.open()
    try:
        runner = SegmentRunner(target, plan, m, say, lambda mm: measurement_file.save(mm, path))
        measure_cliff(runner, CliffPlan(parse_workload(args.cliff_workload)), 1.0)
        m.status, m.stop_reason = "interrupted", STOP_REASON
        measurement_file.save(m, path)
    finally:
        target.close()
    run = {"command": sys.argv, "simulator_cpu_s": target.cpu_s,
           "wall_s": time.monotonic() - wall, "progress": lines,
           "last_round": target.last}  # fmt: skip
    (out / "run.json").write_text(json.dumps(run, indent=1) + "\n")
    return 0


def predict(args: argparse.Namespace) -> int:
    """calibrate's prediction of the case's cliff step under ``--cliff-workload``."""
    m = measurement_file.load(Path(args.case) / measurement_file.NAME)
    if m.cliff is None:
        raise ConfigError(f"{args.case}: no cliff step measured")
    doc = dict(m.cliff)
    channels = m.identity["members"][0]["channels"]
    # on a simulated target the step's rounds do not depend on the workload (no probes run):
    # the workload is only the prediction's
    doc["plan"] = CliffPlan(parse_workload(args.cliff_workload)).to_dict()
    # as calibrate's twin, no cache: the fit sets it (its SLC read time the fit's default, 30
    # us, the configuration's t_read_slc)
    drive = twin(channels)
    drive["config"]["timing"].pop("slc")
    pred = cliff_prediction.predict(doc, drive, "1")
    pred["twin"] = f"bench/foreign/py_ssd_sim_twin.py twin({channels}), scale 1"
    _emit(pred, args.out)
    return 0


def judge(args: argparse.Namespace) -> int:
    """The prediction's cliff from purged against the truth's, by the rule's 25% bound."""
    pred = json.loads(Path(args.prediction).read_text())
    run, truth = py_ssd_sim_cliff_eval.load(Path(args.truth))
    out: dict[str, Any] = {"prediction": args.prediction, "truth": args.truth,
                           "declined": pred.get("declined"), "true": None,
                           "predicted": pred.get("purged")}  # fmt: skip
    refused = py_ssd_sim_cliff_eval.truth_refused(run)
    true = None if refused else cliff.find_cliff(truth)
    out["true"] = true.to_dict() if true else None
    if refused:
        out["truth_refused"] = refused
    p = pred.get("purged") or {}
    predicted = None
    if "time_s" in p:
        keys = ("time_s", "host_write_bytes_before", "iops_before", "iops_after")
        predicted = cliff.Cliff(**{k: p[k] for k in keys})
    out.update(cliff.errors(predicted, true))
    _emit(py_ssd_sim_cliff_eval._judged(out), args.out)
    return 0


def _emit(doc: dict[str, Any], out: str | None) -> None:
    text = json.dumps(doc, indent=1)
    if out:
        Path(out).write_text(text + "\n")
    print(text)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("measure")
    m.add_argument("--checkout", required=True, type=Path)
    m.add_argument("--python", required=True)
    m.add_argument("--work", required=True, type=Path)
    m.add_argument("--channels", type=int, default=8)
    m.add_argument("--slc-superblocks", type=int, default=2)
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--cliff-workload", default="qd8,read70")
    m.add_argument("--out", required=True)
    pr = sub.add_parser("predict")
    pr.add_argument("--case", required=True)
    pr.add_argument("--cliff-workload", required=True)
    pr.add_argument("--out")
    j = sub.add_parser("judge")
    j.add_argument("--prediction", required=True)
    j.add_argument("--truth", required=True)
    j.add_argument("--out")
    args = p.parse_args(argv)
    return {"measure": measure, "predict": predict, "judge": judge}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
