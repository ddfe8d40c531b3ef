"""apply's refusals of --visible-gb name --visible-gb, and say its unit: they named
'capacity' (the capacity command's argument), and '--visible-gb 0.1' was refused as '0.1 is
100,000,000 bytes, less than 1 GB ... (a bare number is bytes)' — a bare number there is GB,
as its help says and as the same message had just counted it."""

from __future__ import annotations

import pytest

DEVICE = "/dev/no-such-device-review7"  # the value is refused before any device is read


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("0", "--visible-gb: must be > 0, got '0'"),
        ("abc", "--visible-gb: expected a size like"),
        ("0.1", "--visible-gb: '0.1' is 100,000,000 bytes, less than 1 GB"),
    ],
)
def test_visible_gb_refusals_name_the_option(value, said, overprov_cli):
    rc, _, err = overprov_cli("apply", DEVICE, "--visible-gb", value)
    assert rc == 2, err
    assert said in err
    assert "capacity:" not in err


def test_a_bare_number_is_said_to_be_gb_where_it_is(overprov_cli):
    rc, _, err = overprov_cli("apply", DEVICE, "--visible-gb", "0.1")
    assert rc == 2 and "(a bare number is GB)" in err, err
    rc, _, err = overprov_cli("capacity", "0.1")  # capacity's bare number is bytes
    assert rc == 2 and "(a bare number is bytes)" in err, err
