"""The runs of bench/foreign/results/erasefloor/RULE.md, one step at a time, each logged to
runs.log with the CPU seconds it took (bench/cpu_clock.py: this process's waited-for children).

    PYTHONPATH=python python bench/foreign/results/erasefloor/run.py STEP [STEP ...]

Steps:
- ``truth-X`` (X in u, v): the fresh NVMeVirt drive (bench/foreign/nvmevirt.py);
- ``fresh-STATE-SPREAD-X`` (STATE on/off, SPREAD 5/2): the plan case with WAF on drive X by
  evaluate.py, with the rule's flags (on: :data:`ON_FLAGS`) set in calibrate's process, typed
  figures at evaluate.py's 5% or at 2% a figure (``cli.USER_POINT_REL_SD``);
- ``check-CASE``: erasecheck's ``both-off`` arm again for one case (the stored runs still hold);
- ``check2-CASE``: erasecheck's run of one case with the rule's flags on, into ``check2/``;
- ``gate-STEM``: erasegate's cases of a stored truth (``STORED`` of
  bench/foreign/results/erasegreedy/run.py) with the rule's flags on, into ``gate-on/STEM``;
  ``gate-off-nvmevirt-a``: A's plan case off, to check the stored off runs still hold.
Run from the worktree root.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2]))  # bench/foreign: common.py
from common import load_script  # noqa: E402

HERE = Path(__file__).resolve().parent
R = "bench/foreign/results"
OUT = f"{R}/erasefloor"
NICE = ["nice", "-n", "10"]
PY = [sys.executable]
PLAN = "IOPS+WAF 0+40 QD32 + 40 QD4"
#: the rule's flags, on (all else the code's defaults)
ON_FLAGS = {"OFFERED": True, "WHEN_IMPLIED_FAILS": True, "WITHOUT_FLOOR": True}
OFF_FLAGS = {"OFFERED": False, "WHEN_IMPLIED_FAILS": False, "WITHOUT_FLOOR": False}
DRIVES = {  # name: (capacity MB, harness options); blocks of 128 4 KiB pages
    # 4 LUNs on 2 channels, programs of 4 pages in 200 µs (50 µs a page), erase 3 ms
    # (23.4 µs a page): erase ÷ program 0.47
    "u": (768, "--partitions 1 --nchs 2 --luns-per-ch 2 --blks-per-pln 384 --flash-page-kb 16 "
               "--oneshot-page-kb 16 --prog-ns 200000 --erase-ns 3000000 --op-area 0.11"),
    # 4 LUNs on 4 channels, one-shot programs of 8 pages in 300 µs (37.5 µs a page), erase 9 ms
    # (70.3 µs a page): erase ÷ program 1.88
    "v": (768, "--partitions 1 --nchs 4 --luns-per-ch 1 --blks-per-pln 384 --flash-page-kb 16 "
               "--oneshot-page-kb 32 --prog-ns 300000 --erase-ns 9000000 --op-area 0.08"),
}  # fmt: skip


def flags_text(flags: dict[str, bool], rel_sd: float | None) -> str:
    sets = "from overprov.calibrate import erase_reading; "
    sets += "".join(f"erase_reading.{k} = {v}; " for k, v in flags.items())
    if rel_sd is not None:
        sets += f"from overprov.calibrate import cli; cli.USER_POINT_REL_SD = {rel_sd}; "
    return sets


def evaluate_in_process(folder: str, stem: str, cases: str, out: str, flags: dict, sd) -> None:
    """evaluate.py's main with ``flags`` (and the typed spread ``sd``) set in each calibrate
    process it starts (its prelude, ``evaluate.closed_loop_on``, extended)."""
    sys.path.insert(0, str(Path(R).resolve().parent))
    import evaluate

    plain = evaluate.closed_loop_on

    def with_flags() -> tuple[str, str]:
        opt, code = plain()
        head, _, main = code.rpartition("from overprov.cli import main")
        return opt, head + flags_text(flags, sd) + "from overprov.cli import main" + main

    evaluate.closed_loop_on = with_flags
    # --erase-reading makes evaluate.py start calibrate through its prelude; the flags set after
    # it there (``flags``) are the ones that hold
    rc = evaluate.main(["--results", folder, "--only", stem, "--parallel", "1",
                        "--cases", cases, "--erase-reading", "--out", out])  # fmt: skip
    sys.exit(rc)


def command(step: str) -> list[str]:
    kind, _, name = step.partition("-")
    if kind == "truth":  # erasegreedy's truth step with these drives, into this folder (its
        # scratch folder /tmp/erasegreedy-runs/X; the runs logged used /tmp/erasefloor-runs/X)
        eg = load_script("eg_run", HERE.parent / "erasegreedy" / "run.py")
        eg.DRIVES.update(DRIVES)
        eg.OUT = OUT
        return eg.command(step)
    if kind in ("fresh", "gate", "check", "check2"):
        return [*NICE, *PY, __file__, "_inner", step]
    raise SystemExit(f"unknown step {step}")


def inner(step: str) -> None:
    kind, _, rest = step.partition("-")
    if kind == "fresh":
        state, spread, x = rest.split("-")
        flags = ON_FLAGS if state == "on" else OFF_FLAGS
        sd = 0.02 if spread == "2" else None
        evaluate_in_process(OUT, f"nvmevirt-{x}", PLAN, f"{OUT}/fresh-{state}-{spread}/{x}",
                            flags, sd)  # fmt: skip
    if kind == "gate":
        eg = load_script("eg_run", Path(R) / "erasegreedy" / "run.py")
        if rest == "off-nvmevirt-a":
            evaluate_in_process(f"{R}/nvmevirt", "nvmevirt-a", PLAN,
                                f"{OUT}/gate-off/nvmevirt-a", OFF_FLAGS, None)  # fmt: skip
        folder, cases = eg.STORED[rest]
        evaluate_in_process(folder, rest, cases, f"{OUT}/gate-on/{rest}", ON_FLAGS, None)
    if kind in ("check", "check2"):
        ec = load_script("ec_run", Path(R) / "erasecheck" / "run.py")
        ec.RUNS = Path(OUT) / ("check" if kind == "check" else "check2")
        if kind == "check2":
            ec.ARMS["floor-on"] = (True, True)
            plain = ec.prelude

            def prelude(arm: str, typed: bool) -> str:
                text = plain(arm, typed)
                extra = "erase_reading.WITHOUT_FLOOR = True; " if arm == "floor-on" else ""
                return text.replace("from overprov.cli import main", extra + "from overprov.cli "
                                    "import main")  # fmt: skip

            ec.prelude = prelude
            ec.run_one("floor-on", rest)
        else:
            ec.run_one("both-off", rest)


def main() -> int:
    if sys.argv[1:2] == ["_inner"]:
        inner(sys.argv[2])
        return 0
    # erasegreedy's step loop (runs.log, CPU s by bench/cpu_clock.py) with this rule's steps
    eg = load_script("eg_run", HERE.parent / "erasegreedy" / "run.py")
    eg.HERE, eg.command = HERE, command
    return eg.main()


if __name__ == "__main__":
    raise SystemExit(main())
