"""The dry run's estimate said "duration 24 s to 24 s (2 phases, 12–12 rounds)" and "writes
4.95 GB to 4.95 GB" when every phase must run its most rounds (``--max-rounds`` at the
steady-state window, a phase precondition that ends the window late): one figure is said once."""

from __future__ import annotations

from overprov.profile.estimate import estimate_text

EST = {"phases": 2, "precondition_bytes_per_member": 33_554_432, "assumptions": []}


def test_a_range_whose_ends_read_the_same_is_one_figure():
    same = dict(EST, seconds_min=24, seconds_max=24, rounds_min=12, rounds_max=12,
                bytes_per_member_min=4_950_000_000, bytes_per_member_max=4_950_000_000)  # fmt: skip
    text = estimate_text(same, "t.img", "file", 16_777_216, 1)
    assert "  duration 24 s (2 phases, 12 rounds)" in text
    assert "  writes 4.95 GB (precondition" in text
    assert " to " not in text.split("\n", 1)[1].split("(precondition")[0]


def test_a_range_keeps_both_ends():
    wide = dict(EST, seconds_min=24, seconds_max=600, rounds_min=12, rounds_max=50,
                bytes_per_member_min=10**9, bytes_per_member_max=4 * 10**9)  # fmt: skip
    text = estimate_text(wide, "t.img", "file", 16_777_216, 1)
    assert "(2 phases, 12–50 rounds)" in text
    assert "  writes 1 GB to 4 GB (precondition" in text
