"""docs/cli.md, "Dry runs" and "Flags that would be ignored are refused": a dry run of
``profile`` or ``calibrate`` shows a plan only when the run would accept it. A setting the run
refuses (a contradiction, a flag a simulated drive ignores) is refused by the dry run too, with
the same one line; it printed an estimate and exit 0 for a plan the run then refused."""

from __future__ import annotations

import pytest

TARGET = "sim:consumer-tlc-sata@1GiB"

#: (command, flags, what the refusal names)
REFUSED = [
    ("profile", ["--stop-at-target"], "--stop-at-target: needs --target-iops"),
    # the levels as typed, not Python's list ("([10.0, 20.0])")
    ("profile", ["--extra-op", "20,10"], "in ascending order (10,20, not 20,10)"),
    ("profile", ["--extra-op", "10,10"], "--extra-op: a level is repeated in 10,10"),
    ("profile", ["--bs", "1000"], "--bs: must be a multiple of 512 bytes"),
    ("profile", ["--max-rounds", "3"], "--max-rounds: must be at least the steady-state window"),
    ("profile", ["--ioengine", "psync"], "--ioengine: a simulated drive (sim:) runs no fio"),
    ("calibrate", ["--hot", "80/20"],
     "--workload/--hot/--zones/--zipf-theta: for figures given with --points"),
    ("calibrate", ["--physical", "1GiB"], "--physical: give --advertised too"),
    ("calibrate", ["--advertised", "1GB", "--physical", "4GB"], "is not a drive's raw NAND"),
]  # fmt: skip


@pytest.mark.parametrize(("command", "flags", "message"), REFUSED)
def test_the_dry_run_refuses_what_the_run_refuses(overprov_cli, tmp_path, command, flags, message):
    rc, out, err = overprov_cli(command, TARGET, *flags, "--dry-run")
    assert rc == 2 and message in err and "estimate" not in out
    rc, _, err_run = overprov_cli(command, TARGET, *flags, "--out", str(tmp_path / "out"))
    assert rc == 2 and message in err_run


def test_a_plan_the_run_accepts_is_shown(overprov_cli):
    rc, out, err = overprov_cli("profile", TARGET, "--extra-op", "0,20", "--dry-run")
    assert rc == 0, err
    assert "estimate for" in out and "nothing is written" in out
