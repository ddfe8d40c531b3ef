"""userpass2: ``profile /dev/loopN --extra-op 0,20 --round-seconds 2 --max-rounds 10
--target-iops 5000`` said "writes 5.01 GB to 5.42 GB" and wrote 18.5 GB: the estimate took the
target (a floor the user asks for) as the drive's speed, and its "at most" was no limit. The
speed is now never below the assumption, and where it is assumed the estimate states a true
bound at a stated maximum speed; the log's "earliest end" counts the plateau's baseline."""

from __future__ import annotations

import math

import pytest
from overprov.profile import phase_precondition
from overprov.profile.dry_run import ASSUMED_RANDOM_IOPS
from overprov.profile.estimate import BOUND_RANDOM_IOPS, estimate, estimate_text
from overprov.profile.settings import ProfileSettings
from overprov.profile.steady import SNIA, assess

CAP = 1 << 30


def _settings() -> ProfileSettings:
    return ProfileSettings(
        extra_op_percents=[0, 20], round_seconds=2, max_rounds=10, target_iops=5000
    )


def _written_at(s: ProfileSettings, iops: float) -> float:
    """What a drive writing at ``iops`` writes in the longest run: precondition, FOB, each
    phase's precondition in whole rounds, then --max-rounds rounds."""
    per_s = iops * s.bs_bytes
    total = s.precondition_passes * CAP + s.fob_s * per_s
    plan = phase_precondition.plan(
        s.extra_op_percents, CAP, s.bs_bytes, min_phase_drive_writes=s.min_phase_drive_writes
    )
    for pre in plan:
        rounds = math.ceil(pre.bytes / (per_s * s.round_seconds))
        total += (rounds + s.max_rounds) * per_s * s.round_seconds
    return total


def test_the_target_is_not_taken_for_the_drives_speed():
    est = estimate(_settings(), CAP, 1)
    assert est["assumptions"][0] == (
        f"random writes at an assumed {ASSUMED_RANDOM_IOPS:,.0f} IOPS per member"
    )
    fast = ProfileSettings(extra_op_percents=[0], target_iops=2 * ASSUMED_RANDOM_IOPS)
    assert f"{2 * ASSUMED_RANDOM_IOPS:,.0f} IOPS" in estimate(fast, CAP, 1)["assumptions"][0]


def test_the_bound_holds_for_any_speed_up_to_the_stated_one():
    s = _settings()
    est = estimate(s, CAP, 1)
    bound = est["bound"]
    assert bound["random_iops"] == BOUND_RANDOM_IOPS
    for iops in (5000, ASSUMED_RANDOM_IOPS, 200_000, BOUND_RANDOM_IOPS):
        assert _written_at(s, iops) <= bound["bytes_per_member"]
    assert est["bytes_per_member_max"] < bound["bytes_per_member"]
    text = estimate_text(est, "/dev/loop9", "block", CAP, 1)
    assert "  writes about " in text
    assert "  at most " in text and "if the drive writes no faster than 1,000,000 IOPS" in text
    assert "--max-rounds 10 rounds of 2.0 s past its precondition" in text


def test_a_measured_speed_has_no_stated_bound():
    est = estimate(_settings(), CAP, 1, random_iops=80_000, seq_bytes_per_s=5e8)
    assert est["bound"] is None
    assert "writes about" not in estimate_text(est, "/dev/loop9", "block", CAP, 1)


def test_the_earliest_end_counts_the_plateau_baseline():
    """Window 5, window may start at round 3: the window alone ends at round 7 at the
    earliest, but the plateau check compares it with the 5 rounds before it: round 10."""
    profile = ProfileSettings().criteria()  # a profile's: with the plateau check
    assert profile.max_decline_fraction is not None
    verdict = assess([100.0] * 6, profile, first_eligible_round=3)
    assert "round 10 is the earliest end" in verdict.reason
    verdict = assess([100.0] * 12, profile, first_eligible_round=9)
    assert "round 13 is the earliest end" in verdict.reason
    # without the plateau check the window alone decides
    assert "round 7 is the earliest end" in assess([1.0] * 6, SNIA, first_eligible_round=3).reason


def test_a_tiny_size_with_long_rounds_hints_at_round_seconds():
    """--size 16 MiB, 60 s rounds at the assumed 50,000 IOPS: each round writes about 732
    drive writes of the span; the estimate says so and how long a round should be."""
    s = ProfileSettings(extra_op_percents=[0], size_bytes=16 * 2**20)
    est = estimate(s, 16 * 2**20, 1)
    assert est["round_drive_writes"] == pytest.approx(60 * 50_000 * 4096 / 2**24)
    text = estimate_text(est, "t.img", "file", 16 * 2**20, 1)
    assert (
        "each round writes about 732 drive writes of the tested span: a shorter --round-seconds "
        "(1 s: about 12.2 drive writes a round)" in text
    )
    # of the tested span (review8): at 50% extra OP a round covers half as many bytes
    two = estimate(ProfileSettings(extra_op_percents=[0, 50], size_bytes=2**24), 2**24, 1)
    per_phase = [p["round_drive_writes"] for p in two["per_phase"]]
    assert per_phase == pytest.approx([60 * 50_000 * 4096 / x for x in (2**24, 2**23)])
    assert two["round_drive_writes"] == per_phase[1]
    big = estimate(s, 64 * 2**30, 1)
    assert "each round writes" not in estimate_text(big, "t.img", "file", 64 * 2**30, 1)
