"""docs/cli.md, "Dry runs" and "Flags that would be ignored are refused": a dry run of
``profile`` or ``calibrate`` shows a plan only when the run would accept it. A setting the run
refuses (a contradiction, a flag a simulated drive ignores) is refused by the dry run too, with
the same one line; it printed an estimate and exit 0 for a plan the run then refused."""

from __future__ import annotations

import pytest

TARGET = "sim:consumer-tlc-sata@1GiB"

#: (flags, what the refusal names)
REFUSED = [
    (["--stop-at-target"], "--stop-at-target: needs --target-iops"),
    (["--extra-op", "20,10"], "--extra-op: give levels in ascending order"),
    (["--extra-op", "10,10"], "--extra-op: a level is repeated"),
    (["--bs", "1000"], "--bs: must be a multiple of 512 bytes"),
    (["--max-rounds", "3"], "--max-rounds: must be at least the steady-state window"),
    (["--ioengine", "psync"], "--ioengine: a simulated drive (sim:) runs no fio"),
]


@pytest.mark.parametrize(("flags", "message"), REFUSED)
def test_the_dry_run_refuses_what_the_run_refuses(overprov_cli, tmp_path, flags, message):
    rc, out, err = overprov_cli("profile", TARGET, *flags, "--dry-run")
    assert rc == 2 and message in err and "estimate" not in out
    rc, _, err_run = overprov_cli("profile", TARGET, *flags, "--out", str(tmp_path / "p"))
    assert rc == 2 and message in err_run


def test_a_plan_the_run_accepts_is_shown(overprov_cli):
    rc, out, err = overprov_cli("profile", TARGET, "--extra-op", "0,20", "--dry-run")
    assert rc == 0, err
    assert "estimate for" in out and "nothing is written" in out


CALIBRATE_REFUSED = [
    (["--hot", "80/20"], "--workload/--hot/--zones/--zipf-theta: for figures given with --points"),
    (["--physical", "1GiB"], "--physical: give --advertised too"),
    (["--advertised", "1GB", "--physical", "4GB"], "is not a drive's raw NAND"),
]


@pytest.mark.parametrize(("flags", "message"), CALIBRATE_REFUSED)
def test_calibrates_dry_run_refuses_what_its_run_refuses(overprov_cli, tmp_path, flags, message):
    rc, out, err = overprov_cli("calibrate", TARGET, *flags, "--dry-run")
    assert rc == 2 and message in err and "estimate" not in out
    rc, _, err_run = overprov_cli("calibrate", TARGET, *flags, "--out", str(tmp_path / "c"))
    assert rc == 2 and message in err_run
