"""Reproduces tests/emulate/test_real_path.py's calibrate comparison and keeps both runs'
outputs: ``calibrate /dev/loopN`` on ``overprov emulate`` of the test's drive (32 KiB buffer),
then ``calibrate sim:`` of the same drive file with the test's arguments (the default budget:
the graded plan) into OUT/sim and with the emulated run's ``--budget 30dw`` (its random plan)
into OUT/sim-same, one after the other (not beside each other, so none slows another). Prints
the CPU seconds of each.

Run from the worktree root as root:
``PYTHONPATH=python /work/main/.venv/bin/python bench/results/emu0/reproduce.py OUT [EXTRA...]``
(EXTRA: arguments given to both calibrate runs)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[3] / "bench"))
sys.path.insert(0, str(Path(__file__).parents[3] / "tests"))

from cpu_clock import cpu_s  # noqa: E402
from emulate.conftest import overprov_env, small_drive_with_buffer  # noqa: E402
from loop_lock import attach_lock  # noqa: E402

LEVELS = "0,10,20,30,40"


def overprov(*argv: str) -> None:
    subprocess.run([sys.executable, "-m", "overprov", *argv], check=True, env=overprov_env())


def main() -> None:
    out = Path(sys.argv[1]).resolve()
    extra = sys.argv[2:]
    out.mkdir(parents=True, exist_ok=True)
    drive = small_drive_with_buffer(out, 32768)
    work = out / "emulate"
    with attach_lock():
        proc = subprocess.Popen(
            [sys.executable, "-m", "overprov", "emulate", str(drive), "--size", "16MiB",
             "--dir", str(work), "--quiet"],
            stdout=subprocess.PIPE, text=True, env=overprov_env(),
        )  # fmt: skip
        line = proc.stdout.readline()
    assert line.startswith("device "), line
    dev = line.split()[1]
    before = cpu_s()
    started = time.monotonic()
    try:
        overprov("calibrate", dev, "--extra-op", LEVELS, "--out", str(out / "dev"),
                 "--budget", "30dw", "--i-understand-this-destroys-data", dev, *extra)  # fmt: skip
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    print(f"dev: {cpu_s() - before:.0f} CPU s (calibrate, fio, the emulator), "
          f"{time.monotonic() - started:.0f} s wall", flush=True)  # fmt: skip
    for name, budget in (("sim", ()), ("sim-same", ("--budget", "30dw"))):
        before = cpu_s()
        overprov("calibrate", f"sim:{drive}@1", "--extra-op", LEVELS, "--out", str(out / name),
                 "--jobs", "1", *budget, *extra)  # fmt: skip
        print(f"{name}: {cpu_s() - before:.0f} CPU s", flush=True)


if __name__ == "__main__":
    main()
