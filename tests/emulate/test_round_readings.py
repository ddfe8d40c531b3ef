"""On a drive ``overprov emulate`` serves, calibrate, profile and qualify read the drive's
status once per round (one refresh of its status file serves the write counters and the
drive's time: ``emulate.counters.read``), record each round's host share, and say once per
level, phase or test that its figures are the host's when the host held most of the request
time (``emulate.host_share.HostBoundNotice``; docs/emulate.md, "When the host cannot keep up").

The server counts the refreshes it was asked for (``status_refreshes`` in its status file), so
the reads are counted where they land, through the real loop device and FUSE mount.

The drive is tests/emulate/small-drive.toml (16 MiB) with programs and erases 400 and 500
times faster (10 µs): a write is taken into its buffer in microseconds and the NAND, garbage
collection included, keeps up with far more than a Python FUSE server can pass it, so most of
every request's time is the host's and the rounds are host-bound by construction. Calibrate's
rounds are also capped at 100 IOPS per job (``RoundSpec.rate_iops``): the host holds the time
idling, at little CPU."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .conftest import SMALL_DRIVE

pytestmark = [pytest.mark.root, pytest.mark.xdist_group("emulated-drive")]

CALIBRATE_ROUNDS = 2
PROFILE_ROUNDS = 2


def fast_drive(folder: Path) -> Path:
    """SMALL_DRIVE with 10 µs programs and erases instead of 4 and 5 ms, in ``folder``."""
    drive = folder / "small-drive-fast-nand.toml"
    text = SMALL_DRIVE.read_text()
    for slow in ("\nprogram_us = 4000.0\n", "\nerase_us = 5000.0\n"):
        assert slow in text
        text = text.replace(slow, slow.split("=")[0] + "= 10.0\n")
    drive.write_text(text)
    return drive


def refreshes(e) -> int:
    """Fresh status files asked of the server so far (its last status file, read as is)."""
    return int(e.status()["status_refreshes"])


@pytest.mark.slow
@pytest.mark.fio
@pytest.mark.timeout(300)
def test_one_status_read_per_round_and_a_host_bound_level_said_once(emulated, tmp_path):
    from overprov.calibrate.measure import SegmentRunner
    from overprov.calibrate.plan import design, parse_budget
    from overprov.emulate.host_share import HOST_BOUND_SHARE
    from overprov.measurement_file import Measurement
    from overprov.profile.cli import host_bound_note
    from overprov.profile.runner import Profile
    from overprov.profile.settings import ProfileSettings
    from overprov.profile.target_kinds import make_target
    from overprov.profile.targets import RoundSpec
    from overprov.qualify import session
    from overprov.qualify.bench import QualifySettings
    from overprov.report.findings import iops_conclusion
    from overprov.report.load_profile import load_profile
    from overprov.report.section_qualify import host_bound_rounds

    if shutil.which("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    e = emulated(drive=fast_drive(tmp_path))
    said = "of its requests' time, the emulated drive"

    # calibrate: the runner reads the target once as it starts, then once after each round
    target = make_target(e.dev, tmp_path / "fio", confirm=[e.dev])
    target.open()
    try:
        cap = target.capacity_bytes
        m = Measurement(target=e.dev, capacity_bytes=cap, scale_factor=1.0, bs_bytes=4096, qd=4,
                        kind=target.kind, status="running", fill_done=False)  # fmt: skip
        lines: list[str] = []
        first = refreshes(e)
        plan = design([0.0], parse_budget(None), write_counters=True)
        runner = SegmentRunner(target, plan, m, progress=lines.append)
        assert runner.counters_ok and runner.emulated
        for n in range(1, CALIBRATE_ROUNDS + 1):
            spec = RoundSpec(f"op0-r{n:03d}", "randwrite", 4096, 4, 1, cap // 2, seconds=1,
                             rate_iops=100)  # fmt: skip
            runner.run(spec, 0.0)
        calibrate_reads = refreshes(e) - first
    finally:
        target.close()
    rounds = m.rounds
    print(f"calibrate: {calibrate_reads} status reads for {len(rounds)} rounds; host shares "
          f"{[r.host_share for r in rounds]}; IOPS {[round(r.iops) for r in rounds]}")  # fmt: skip
    assert calibrate_reads == 1 + CALIBRATE_ROUNDS
    assert all(r.host_bytes and r.nand_bytes for r in rounds), rounds  # the same reading's
    assert all(r.host_share is not None and r.host_share > 0.9 for r in rounds), rounds
    assert sum(said in line for line in lines) == 1, lines  # once for the level, not per round
    assert lines[0].startswith("op0-r001: the host held"), lines

    # profile: one read after the phase's discard, then one after each round. A round's host
    # share is a real-time reading: on a loaded host the Python server's own delays count as
    # the drive's time, and with 100 µs programs rounds read 0.26-0.49 with both cores busy
    # (10 µs: 0.53-0.92 at load average 4), so a profile whose rounds are not all host-bound
    # is run once more, and only the second one's shares must be. No plateau check: its
    # baseline would need 4 rounds before a window of 2 could settle.
    settings = ProfileSettings(extra_op_percents=[0], round_seconds=1, max_rounds=PROFILE_ROUNDS,
                               steady_window_rounds=2, min_phase_drive_writes=0,
                               fob_seconds=0, qd=4,
                               steady_max_decline_fraction=None)  # fmt: skip
    for attempt in (1, 2):
        out = tmp_path / f"profile-{attempt}"
        log: list[str] = []
        before_profile = refreshes(e)
        doc = Profile.create(e.dev, settings, out, confirm=[e.dev], progress=log.append).run()
        profile_reads = refreshes(e) - before_profile
        phase = doc["phases"][0]
        shares = [r["host_share"] for r in phase["rounds"]]
        print(f"profile {attempt}: {profile_reads} status reads for {len(shares)} rounds; host "
              f"shares {shares}, the phase's {phase['host_share']}; IOPS "
              f"{[round(r['iops']) for r in phase['rounds']]}")  # fmt: skip
        assert len(shares) == PROFILE_ROUNDS
        assert profile_reads == 1 + PROFILE_ROUNDS
        assert all(s is not None for s in shares), shares
        if all(s > HOST_BOUND_SHARE for s in shares):
            break
    assert all(s > HOST_BOUND_SHARE for s in shares), shares
    weights = [r["duration_seconds"] for r in phase["rounds"]]
    expected = sum(s * w for s, w in zip(shares, weights, strict=True)) / sum(weights)
    assert phase["host_share"] == pytest.approx(expected, abs=1e-4)
    assert sum(said in line for line in log) == 1, log  # once for the phase
    assert "host-bound" in host_bound_note(phase)  # the summary's line for the phase
    _, findings = iops_conclusion(load_profile(out), doc["recommendation"])
    assert any(f.startswith("Host-bound") and "0% (host " in f for f in findings), findings

    # qualify: the cache test's random fill and write-back round are read, each once after it;
    # its write-through round is not (a flush per write: two requests for one I/O)
    said_q: list[str] = []
    before_qualify = refreshes(e)
    _, verdicts = session.run(e.dev, ["cache"], QualifySettings(round_seconds=1, qd=4),
                              out_dir=tmp_path / "qualify", say=said_q.append,
                              target_options={"confirm": [e.dev]})  # fmt: skip
    qualify_reads = refreshes(e) - before_qualify
    q_shares = verdicts[0].figures["host_share"]
    print(f"qualify: {qualify_reads} status reads for {len(q_shares)} rounds; {q_shares}")
    assert list(q_shares) == ["cache-fill", "cache-wb", "cache-wt"], q_shares
    assert qualify_reads == 1 + len(q_shares)
    assert q_shares["cache-wt"] is None, q_shares
    assert q_shares["cache-fill"] > HOST_BOUND_SHARE, q_shares
    assert sum(said in line for line in said_q) == 1, said_q  # once for the test
    assert "cache: cache-fill (" in host_bound_rounds([verdicts[0].to_dict()])
