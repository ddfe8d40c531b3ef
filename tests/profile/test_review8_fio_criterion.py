"""profile.log said "fio iops_slope:10.000000%: attained" for every round: fio's criterion as
its json+ output spells it. It now reads "fio iops_slope 10%: attained"."""

from __future__ import annotations

import pytest
from overprov.profile.phase import fio_criterion


@pytest.mark.parametrize(
    ("ss", "said"),
    [
        ("iops_slope:10.000000%", "iops_slope 10%"),
        ("iops:2.500000%", "iops 2.5%"),
        ("bw_slope:1048576", "bw_slope 1048576"),
        ("iops:0.500000%", "iops 0.5%"),
        ("something else", "something else"),
    ],
)
def test_fio_s_criterion_is_written_as_a_person_writes_it(ss, said):
    assert fio_criterion(ss) == said
