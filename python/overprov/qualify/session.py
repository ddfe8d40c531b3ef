"""Run the qualify tests on one target, in order, and collect their verdicts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from overprov.errors import ConfigError, OverprovError, UnsafeDeviceError
from overprov.profile import no_ftl
from overprov.profile.target_kinds import make_target
from overprov.profile.targets import Target
from overprov.qualify import cache, consistency, idle_recovery, trim_recovery
from overprov.qualify.bench import QualifySettings
from overprov.qualify.round_host_share import RoundHostShare
from overprov.qualify.verdict import FAIL, Verdict

TESTS = ("cache", "trim_recovery", "idle_recovery", "consistency")
"""Test names as ``--tests`` takes them; ``consistency`` also gives the write cliff."""


def parse_tests(text: str) -> list[str]:
    names = [t.strip().replace("-", "_") for t in text.split(",") if t.strip()]
    unknown = [n for n in names if n not in TESTS]
    if unknown or not names:
        raise ConfigError(
            f"--tests: unknown {', '.join(unknown) or '(none)'}; choose from " + ", ".join(TESTS)
        )
    return [t for t in TESTS if t in names]


def plan_lines(spec: str, tests: Sequence[str], s: QualifySettings) -> list[str]:
    """What the run will do, shown before anything is written."""
    sim = spec.startswith("sim:")
    lines = [
        f"qualify {spec}: "
        + (
            "simulated drive, nothing is written"
            if sim
            else "THIS OVERWRITES EVERY TESTED BYTE OF THE TARGET"
        )
    ]
    about = {
        "cache": f"mixed {s.read_percent}/{100 - s.read_percent} read/write, bs={s.bs_bytes}, "
        f"QD{s.qd}: write-back, then write-through",
        "trim_recovery": f"random writes to steady state, discard {s.discard_percent:g}%, "
        "a sequential pass, random writes again",
        "idle_recovery": "random writes to steady state, then per idle time ("
        + ", ".join(f"{w:g}" for w in s.idle_waits_s)
        + f" s) {s.idle_repeats} bursts of {s.idle_burst_seconds} s after it, against "
        "continuous writes",
        "consistency": f"random writes from fresh for {s.cliff_drive_writes:g} drive writes: "
        "write cliff and latency outliers",
    }
    lines += [f"  {i}. {t}: {about[t]}" for i, t in enumerate(tests, 1)]
    return lines


def run(
    spec: str,
    tests: Sequence[str],
    s: QualifySettings,
    *,
    out_dir: Path,
    target_options: dict[str, Any] | None = None,
    say: Callable[[str], None] = lambda _: None,
    on_result: Callable[[dict[str, Any], list[Verdict], list[str]], None] = lambda *_: None,
    stored_target: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], list[Verdict]]:
    """Run ``tests`` on the target ``spec``; returns (target identity, verdicts).

    ``on_result(identity, verdicts so far, tests still to run)`` is called as each test
    finishes, so its result can be kept before the next one starts. A test that stops with an
    error (anything but a refused device or Ctrl-C, which end the run) is reported as failed,
    naming the error, and the next test runs. On a drive ``overprov emulate`` serves, each
    test's figures keep its rounds' host shares (``round_host_share.py``). ``stored_target``:
    the target of the qualification this run resumes (``resume.py``), which this one must be
    (``Target.same_as``) before a test runs."""
    s.validate()
    target: Target = make_target(spec, out_dir / "fio", **(target_options or {}))
    # a simulated drive's tests each simulate their own drive: nothing of its state to resume
    target.open(resuming=stored_target is not None and target.kind != "sim")
    try:
        if stored_target is not None and (why := target.same_as(stored_target)):
            raise UnsafeDeviceError(
                f"--resume: {spec} is not the target the qualification measured: {why}"
            )
        identity = target.identity()
        rounds = RoundHostShare(target, say)
        verdicts: list[Verdict] = []
        for i, name in enumerate(tests):
            say(f"running {name} ...")
            rounds.begin(name)
            try:
                found = _one(name, spec, rounds, s)  # type: ignore[arg-type]
                if rounds.device is not None:
                    for v in found:
                        v.figures["host_share"] = dict(rounds.shares)
                verdicts.extend(found)
            except (UnsafeDeviceError, KeyboardInterrupt):
                raise
            except Exception as exc:  # noqa: BLE001 - one test's error must not lose the others
                verdicts.append(crashed(name, exc))
                say(f"{name}: stopped with an error; reported as failed: {verdicts[-1].finding}")
            on_result(identity, verdicts, list(tests[i + 1 :]))
        return identity, verdicts
    finally:
        target.close()


def crashed(name: str, exc: BaseException) -> Verdict:
    """The verdict of a test that stopped with an error: failed, with the error named."""
    kind = "" if isinstance(exc, OverprovError) else f"{type(exc).__name__}: "
    text = " ".join(str(exc).split())[:300]
    return Verdict(
        name,
        FAIL,
        f"the test stopped with an error and measured nothing: {kind}{text}",
        {"error": f"{kind}{text}"},
        "did not finish",
    )


def _one(name: str, spec: str, target: Target, s: QualifySettings) -> list[Verdict]:
    sim = target.kind == "sim"
    if name == "cache":
        figs, how = cache.measure_sim(spec, s) if sim else cache.measure_fio(target, s)
        where = "" if sim else no_ftl.described(target.identity()["members"])
        return [cache.judge(figs, how, where)]
    if name == "trim_recovery":
        figs, how = trim_recovery.measure(target, s)
        return [trim_recovery.judge(figs, how)]
    if name == "idle_recovery":
        figs, how = idle_recovery.measure(target, s)
        return [idle_recovery.judge(figs, how)]
    figs, how = consistency.measure_sim(spec, s) if sim else consistency.measure_fio(target, s)
    return consistency.judge(figs, how, s.tail_ratio, s.qos_p99_99_us)
