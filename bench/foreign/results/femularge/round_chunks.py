"""Diagnosis (c), the harness's side: J3 (gate14's femu-23lun-118blk-thres58-4300us-ns85, seen)
measured again exactly as gate14's runs.sh measured it, each 0% round's chunks logged: the
seconds calibrate asked, the seconds it ran, the rate its first chunk was sized at, and its
chunks (pages, seconds since the round's start). With ``--round-rate`` the harness's
``femu_target.ROUND_RATE`` is on (the chunks sized at the round's own rate so far).

    PYTHONPATH=python python bench/foreign/results/femularge/round_chunks.py \
        HARNESS WORK [--round-rate] > bench/foreign/results/femularge/round_chunks[-round-rate].txt
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

sys.path.insert(0, "bench/foreign")
import femu_end_to_end  # noqa: E402
import femu_target  # noqa: E402

J3 = "--nchs 1 --luns-per-ch 23 --blks-per-pl 118 --namespace-mb 2306 --gc-thres-pcent 58"
J3_ARGS = [*J3.split(" "), "--program-ns", "4300000"]
_timed = femu_target.FemuTarget._timed
LINES: list[str] = []


def logged(self, spec, first, pages, deadline_ns) -> None:  # noqa: ANN001
    start, rate, chunks = self.last, self._rate, []
    phase = self.phase

    def counted(line: str):  # noqa: ANN202
        got = phase(line)
        chunks.append((int(line.split()[-1]), round((got.t_ns - start.t_ns) / 1e9, 2)))
        return got

    self.phase = counted
    try:
        _timed(self, spec, first, pages, deadline_ns)
    finally:
        del self.phase
    if spec.label.startswith("op0-"):
        LINES.append(f"{spec.label}: asked {(deadline_ns - start.t_ns) / 1e9:.0f} s, ran "
              f"{(self.last.t_ns - start.t_ns) / 1e9:.1f} s; first chunk sized at "
              f"{rate * 1e9 if rate else 0:.0f} pages/s; chunks {chunks}")  # fmt: skip


def main() -> None:
    harness, work, *rest = sys.argv[1:]
    femu_target.FemuTarget._timed = logged
    with contextlib.redirect_stdout(io.StringIO()):  # the case's document: in WORK's folder
        femu_end_to_end.main(["measure", "--binary", harness, "--out",
                              str(Path(work) / ("j3-chunks" + "".join(rest))),
                              "--onset-from-empty", "--spare-from-onset", "--reserve-gate",
                              *rest, *J3_ARGS])  # fmt: skip
    print(f"# {' '.join(sys.argv)}")
    print("\n".join(LINES))


if __name__ == "__main__":
    main()
