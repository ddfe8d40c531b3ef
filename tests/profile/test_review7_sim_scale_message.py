"""A simulated drive's scale refused in the words of the option that gave it: profile,
qualify and calibrate take it as TARGET's @SCALE (sim:NAME@SCALE) and have no --scale, yet
'profile sim:consumer-tlc-sata@abc' was refused as '--scale: expected a size like 200GB, 1.5TB
or 500GiB' — an option it has not, asking for a size where a factor (1/32) is the usual
answer. simulate's --scale says what it takes too."""

from __future__ import annotations

import pytest

TAKES = "expected a factor (1/32, 0.05; 1 = full size) or a NAND size (64GiB), got 'abc'"


@pytest.mark.parametrize("command", ["profile", "qualify"])
def test_a_target_s_scale_is_refused_naming_the_target(command, overprov_cli):
    spec = "sim:consumer-tlc-sata@abc"
    rc, _, err = overprov_cli(command, spec, "--dry-run")
    assert rc == 2, err
    assert f"target '{spec}': @SCALE: {TAKES}" in err
    assert "--scale" not in err
    rc, _, err = overprov_cli(command, "sim:consumer-tlc-sata@2", "--dry-run")
    assert rc == 2 and "target 'sim:consumer-tlc-sata@2': @SCALE: must shrink the drive" in err


def test_simulate_s_scale_says_what_it_takes(overprov_cli):
    rc, _, err = overprov_cli("simulate", "--preset", "consumer-tlc-sata", "--scale", "abc")
    assert rc == 2 and f"--scale: {TAKES}" in err, err
