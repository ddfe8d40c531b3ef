"""The blocking-GC reading with GC relocations in multi-plane programs (``GC_MULTIPLANE``,
the core's ``timing.gc.multiplane``): its two-plane twins carry the key, its predictions run
with it, and the twin file says so."""

from __future__ import annotations

import pytest
from overprov import engine, presets
from overprov.calibrate import fit as fitmod
from overprov.calibrate import gc_blocking, twin

NATIVE_OP = 0.07


def _plan_figures(dies: int, planes: int, domains: int) -> tuple:
    """The plan's figures of a drive the core generates with GC in its planes, at twice the
    twin's size and another seed."""

    def truth(x: float, qd: int) -> float:
        cfg = gc_blocking.config(NATIVE_OP, x, domains, 1000.0, qd, dies, planes=planes,
                                 gc_multiplane=True)  # fmt: skip
        user_bytes = 2 * gc_blocking.USER_PAGES * gc_blocking.PAGE_BYTES
        cfg["geometry"]["advertised_bytes"] = user_bytes
        cfg["geometry"]["physical_bytes"] = int(round(user_bytes * (1 + NATIVE_OP)))
        cfg["run"]["seed"] = 7
        return float(engine.run(cfg)["timed"]["measured"]["iops"])

    qd32 = [fitmod.Point(0.0, truth(0.0, 32), 0.02), fitmod.Point(40.0, truth(40.0, 32), 0.02)]
    qd4 = fitmod.Point(40.0, truth(40.0, 4), 0.02, queue_depth=4)
    fob = gc_blocking.fob_iops(1000.0, 32, dies, planes)
    return qd32, qd4, fitmod.Point(0.0, fob, 0.02, fresh=True)


def test_two_plane_twins_carry_the_key_only_when_asked():
    on = gc_blocking.timing(2, 750.0, 32, 1, 2, gc_multiplane=True)
    assert on["gc"] == {"blocking": "domain", "domains": 2, "multiplane": True}
    # off, or one plane: the key is left out (the twin is the one before the option)
    assert "multiplane" not in gc_blocking.timing(2, 750.0, 32, 1, 2)["gc"]
    assert "multiplane" not in gc_blocking.timing(2, 750.0, 32, 2, 1, gc_multiplane=True)["gc"]


def test_the_reading_predicts_with_gc_in_its_planes_and_its_twin_carries_it(monkeypatch, tmp_path):
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
    # the twin file carries it and names it; the core runs it
    r.gc_multiplane = True
    p = twin.TwinParameters(
        advertised_bytes=2**30, native_op=NATIVE_OP, t_page_us=100.0, t_cmd_us=-10.0,
        uncertainty={}, source="test", gc_timing=r.twin_timing(),
    )  # fmt: skip
    path = twin.write(tmp_path / "twin.toml", p)
    cfg, _ = presets.preset_config(str(path), "0.25")
    assert engine.validate(cfg)["config"]["timing"]["gc"]["multiplane"] is True
    assert "GC relocations in them too" in path.read_text()


@pytest.mark.slow  # two fits of 25 small twins (3 runs each): about a minute on a loaded 2-core VM
def test_the_fit_runs_its_two_plane_cells_with_gc_in_their_planes(monkeypatch):
    """Fitted on the plan's figures (QD32 at 0% and 40%, QD4 at 40%, FOB) of a drive the core
    generates, with the option on and off: the one-plane cells score alike, the two-plane cells
    differ (they were simulated with the key), and the chosen reading records the option for
    its planes."""
    monkeypatch.setattr(gc_blocking, "USER_PAGES", 1 << 15)
    monkeypatch.setattr(gc_blocking, "PLANES_GRID", (1, 2))
    qd32, qd4, fob = _plan_figures(1, 2, 2)
    chi2 = {}
    for on in (False, True):
        monkeypatch.setattr(gc_blocking, "GC_MULTIPLANE", on)
        r = gc_blocking.fit([*qd32, qd4, fob], NATIVE_OP, jobs=1)
        assert r is not None and r.dies_identified and len(r.candidates) == 25
        assert r.gc_multiplane == (on and r.planes > 1)
        chi2[on] = {(c["dies"], c["planes_per_die"], c["domains"]): c["chi2"] for c in r.candidates}
    one = [k for k in chi2[True] if k[1] == 1]
    two = [k for k in chi2[True] if k[1] == 2 and k[2] > 1]  # one domain: nothing to pair
    assert all(chi2[True][k] == pytest.approx(chi2[False][k]) for k in one)
    assert any(abs(chi2[True][k] / chi2[False][k] - 1) > 0.01 for k in two), chi2


def test_every_skipped_default_is_a_known_key():
    """A drive file may set the keys the core leaves out of its reports at their defaults: a
    twin with planes (``planes_per_die``) and GC in them (``gc.multiplane``) was refused by the
    shape check as an unknown key."""
    defaults = engine.default_config()["timing"]
    assert defaults["nand"]["planes_per_die"] == 1
    assert defaults["gc"]["multiplane"] is False
