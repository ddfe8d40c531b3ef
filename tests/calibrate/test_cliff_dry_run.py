"""``calibrate --dry-run --cliff`` printed the plan's estimate of drive writes and then the cliff
step's own bound, without saying the two add up: the step's writes come on top of the plan's
(``cliff_step.with_cliff_budget`` raises a drive-write budget by them), while under a time
budget the step's time comes out of it. The dry run says which, and writes nothing."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("budget", "said"),
    [((), "(on top of the estimate above)"), (("--budget", "2h"), "(its time within the budget")],
)
def test_the_dry_run_says_how_the_cliff_steps_writes_count(overprov_cli, tmp_path, monkeypatch,
                                                            budget, said):  # fmt: skip
    monkeypatch.chdir(tmp_path)
    rc, out, err = overprov_cli(
        "calibrate", "sim:consumer-tlc-sata@2GiB", "--dry-run", "--cliff", *budget
    )
    assert rc == 0, out + err
    line = next(x for x in out.splitlines() if x.startswith("cliff step first:"))
    assert "at most 0.5 drive writes" in line
    assert said in line
    assert list(tmp_path.iterdir()) == []
