"""The blocking-GC reading with GC relocations in multi-plane programs (``GC_MULTIPLANE``,
the core's ``timing.gc.multiplane``): its two-plane twins carry the key and its predictions run
with it (the fit: tests/calibrate/test_queue_depth.py; the twin file:
tests/calibrate/test_gc_blocking.py)."""

from __future__ import annotations

from overprov import engine
from overprov.calibrate import gc_blocking

NATIVE_OP = 0.07


def test_two_plane_twins_carry_the_key_only_when_asked():
    on = gc_blocking.timing(2, 750.0, 32, 1, 2, gc_multiplane=True)
    assert on["gc"] == {"blocking": "domain", "domains": 2, "multiplane": True}
    # off, or one plane: the key is left out (the twin is the one before the option)
    assert "multiplane" not in gc_blocking.timing(2, 750.0, 32, 1, 2)["gc"]
    assert "multiplane" not in gc_blocking.timing(2, 750.0, 32, 2, 1, gc_multiplane=True)["gc"]


def test_the_reading_predicts_with_gc_in_its_planes(monkeypatch):
    """A two-plane reading with the option records it, its twin carries it, and its
    predictions are the twin's with GC paired: above the unpaired twin's at a level of heavy
    GC (the core's effect, crates/overprov-sim/tests/gc_multiplane.rs)."""
    monkeypatch.setattr(gc_blocking, "USER_PAGES", 1 << 15)  # 128 MiB twins: seconds
    monkeypatch.setattr(gc_blocking, "GC_MULTIPLANE", True)
    monkeypatch.setattr(gc_blocking, "PLANES_GRID", (1, 2))
    r = gc_blocking.BlockingReading(2, 750.0, 1.0, 32, NATIVE_OP, dies=1, planes=2,
                                    dies_identified=True, gc_multiplane=True)  # fmt: skip
    assert r.to_dict()["gc_multiplane"] is True
    assert r.twin_timing()["gc"]["multiplane"] is True
    paired = gc_blocking.predict(r, [0.0], jobs=1)[0.0][0]
    r.gc_multiplane = False
    unpaired = gc_blocking.predict(r, [0.0], jobs=1)[0.0][0]
    assert paired > 1.1 * unpaired, (paired, unpaired)


def test_every_skipped_default_is_a_known_key():
    """A drive file may set the keys the core leaves out of its reports at their defaults: a
    twin with planes (``planes_per_die``) and GC in them (``gc.multiplane``) was refused by the
    shape check as an unknown key."""
    defaults = engine.default_config()["timing"]
    assert defaults["nand"]["planes_per_die"] == 1
    assert defaults["gc"]["multiplane"] is False
    assert defaults["gc"]["multiplane_offsets"] == 0


def test_a_reading_at_one_page_offset_carries_the_key_and_pairs_less_at_low_queue_depth(
    monkeypatch,
):
    """``GC_MULTIPLANE_OFFSETS``: the two-plane twin carries ``multiplane_offsets`` and its
    predictions run with it: at QD4 it gains less over one plane than the twin that takes any
    free plane does (the core's effect, crates/overprov-sim/tests/gc_multiplane.rs)."""
    monkeypatch.setattr(gc_blocking, "USER_PAGES", 1 << 15)  # 128 MiB twins: seconds
    monkeypatch.setattr(gc_blocking, "GC_MULTIPLANE", True)
    monkeypatch.setattr(gc_blocking, "PLANES_GRID", (1, 2))
    assert gc_blocking.timing(2, 750.0, 4, 1, 2, True, 32)["gc"]["multiplane_offsets"] == 32
    assert "multiplane_offsets" not in gc_blocking.timing(2, 750.0, 4, 1, 2, True)["gc"]

    def iops(planes: int, offsets: int) -> float:
        r = gc_blocking.BlockingReading(2, 750.0, 1.0, 4, 0.6, dies=1, planes=planes,
                                        dies_identified=True, gc_multiplane=True,
                                        multiplane_offsets=offsets)  # fmt: skip
        if planes > 1 and offsets:
            assert r.to_dict()["multiplane_offsets"] == offsets
            assert r.twin_timing()["gc"]["multiplane_offsets"] == offsets
        return gc_blocking.predict(r, [0.0], jobs=1)[0.0][0]

    one, any_plane, one_offset = iops(1, 0), iops(2, 0), iops(2, 32)
    assert any_plane > 1.3 * one, (any_plane, one)
    assert one_offset - one < 0.5 * (any_plane - one), (one, any_plane, one_offset)
