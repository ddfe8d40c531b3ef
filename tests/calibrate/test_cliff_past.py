"""Reads of written pages past the cache holding the probe past the cliff's read time, and
every command after such a read waiting for it (``cliff_past``; with
``cliff_prediction.PROBES_IN_PREDICTION`` only: bench/results/cliffpast/RULE.md)."""

from __future__ import annotations

from overprov.calibrate import cliff, cliff_past, read_slot, validation


def _cfg() -> dict:
    drive = validation.drive(201)
    scale = float(validation.scale_for(drive, 2**30))
    return cliff._config(  # noqa: SLF001
        drive, scale, qd=8, read_percent=0, seconds=1.0, interval_s=1.0, precondition="none"
    )


#: a short mix whose reads are of written pages, slots held until the host has written 2 MiB
_KW = {"qd": 8, "read_percent": 50, "end_ns": 10**12, "requests": 3000, "seed": 5,
       "read_pages": "written", "read_slot_ns": 200_000,
       "read_slot_until_bytes": 2 * 2**20}  # fmt: skip


def test_without_the_new_arguments_the_loop_is_unchanged_and_kinds_follow_its_events():
    cfg = _cfg()
    plain, _ = read_slot.request_loop(cfg, **_KW)
    kinds: list[str] = []
    same, _ = read_slot.request_loop(
        cfg, **_KW, kinds=kinds, read_slot_after_ns=None, reads_in_order=False
    )
    assert same == plain
    assert len(kinds) == len(plain)
    assert {k for k, e in zip(kinds, plain, strict=True) if e[1] == 1} == {"write"}
    assert set(kinds) == {"write", "read_written_slot", "read_written"}  # sent past 2 MiB


def test_past_the_cache_a_written_read_holds_the_slot_measured_after():
    cfg = _cfg()
    kinds: list[str] = []
    events, _ = read_slot.request_loop(cfg, **_KW, kinds=kinds, read_slot_after_ns=700_000)
    assert "read_written" not in kinds  # none sent to the drive
    waits = {e[2] for e, k in zip(events, kinds, strict=True) if k == "read_written_slot"}
    assert waits == {200_000, 700_000}  # before the 2 MiB and after


def test_in_order_no_command_after_a_written_read_completes_before_it():
    cfg = _cfg()
    kw = {**_KW, "read_slot_after_ns": 700_000}
    free, _ = read_slot.request_loop(cfg, **kw)
    kinds: list[str] = []
    ordered, _ = read_slot.request_loop(cfg, **kw, reads_in_order=True, kinds=kinds)
    floor = 0
    for (done, _, _), kind in zip(ordered, kinds, strict=True):  # in issue order
        assert done >= floor
        if kind.startswith("read_written"):
            floor = done
    assert max(e[0] for e in ordered) > max(e[0] for e in free)  # the mix runs slower


def test_the_form_acts_only_with_its_flag_and_a_measured_read(monkeypatch):
    assert cliff_past.loop_kw(None) is None
    assert cliff_past.loop_kw(0.0) is None
    assert cliff_past.loop_kw(640.77) == {"read_slot_after_ns": 640_770, "reads_in_order": True}
    monkeypatch.setattr(cliff_past, "READS_IN_ORDER", False)
    assert cliff_past.loop_kw(640.77) is None


def test_the_slot_series_passes_the_loop_arguments():
    drive = validation.drive(201)
    scale = float(validation.scale_for(drive, 2**30))
    kw = {"qd": 8, "read_percent": 70, "seconds": 0.4 / scale, "interval_s": 0.1 / scale,
          "read_slot_us": 5.0, "unwritten_read_us": 1.0}  # fmt: skip
    free = cliff.read_slot_series(drive, scale, **kw)
    assert cliff.read_slot_series(drive, scale, **kw, loop_kw=None) == free
    slow = cliff.read_slot_series(
        drive,
        scale,
        **kw,
        loop_kw={"read_slot_after_ns": 10**6, "reads_in_order": True},
        read_slot_until_bytes=0.0,
    )
    assert sum(slow.iops) < sum(free.iops)
