"""Figures at a second queue depth: the ``--points`` syntax (``40:762@qd4``), the blocking-GC
reading fitting the die count from them, and the plan that measures one."""

from __future__ import annotations

import json

import pytest
from overprov import engine, measurement_file
from overprov.calibrate import cli as calcli
from overprov.calibrate import fit as fitmod
from overprov.calibrate import gc_blocking
from overprov.calibrate import predict as predmod
from overprov.calibrate.measure import measure
from overprov.calibrate.plan import PROBE_QUEUE_DEPTH, design, parse_budget
from overprov.cli import main
from overprov.errors import ConfigError
from overprov.profile.sim_target import SimTarget

# ------------------------------------------------------------------------------ the syntax


def test_a_figure_names_its_queue_depth():
    pairs = calcli.parse_pairs("0:126, 40%:988, 40:762@qd4, 20:441@QD4", "--points", 1e7,
                               queue_depth=True)  # fmt: skip
    assert pairs == [(0.0, 126.0, None), (40.0, 988.0, None), (40.0, 762.0, 4), (20.0, 441.0, 4)]
    points = calcli.user_points("0:126,40:988,40:762@qd4,20:437@qd32", "0:8.3")
    main_qd = [(p.extra_op_percent, p.iops, p.waf) for p in points if p.queue_depth is None]
    assert main_qd == [(0.0, 126.0, 8.3), (20.0, 437.0, None), (40.0, 988.0, None)]
    assert [(p.extra_op_percent, p.iops, p.queue_depth) for p in points if p.queue_depth] == [
        (40.0, 762.0, 4)
    ]
    # the analytic fit is given the workload's figures alone
    main, other = fitmod.split_queue_depths(points, fitmod.WORKLOAD_QD)
    assert len(main) == 3 and [p.queue_depth for p in other] == [4]


@pytest.mark.parametrize(
    ("option", "text", "bad"),
    [
        ("--points", "0:126,40:762@4", "'4'"),
        ("--points", "0:126,40:762@qd0", "40:762@qd0"),
        ("--points", "0:126,40:762@qdx", "40:762@qdx"),
        ("--points", "0:126,40:762@qd2.5", "40:762@qd2.5"),
        ("--waf-points", "0:8.3@qd4", "0:8.3@qd4"),
    ],
)
def test_a_bad_queue_depth_is_refused_naming_the_option_and_the_text(option, text, bad):
    with pytest.raises(ConfigError) as exc:
        if option == "--points":
            calcli.user_points(text, None)
        else:
            calcli.user_points("0:126", text)
    msg = str(exc.value)
    assert "\n" not in msg and msg.startswith(option) and bad in msg, msg


def test_the_cli_refuses_a_bad_queue_depth_with_exit_2(capsys):
    rc = main(["calibrate", "--points", "0:126,40:988,40:762@qd-1", "--fob-iops", "2177"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2
    assert "--points" in err[-1] and "40:762@qd-1" in err[-1], err


def test_a_queue_depth_figure_under_a_skewed_workload_is_refused(capsys):
    rc = main(["calibrate", "--points", "0:126,40:988,40:762@qd4", "--fob-iops", "2177",
               "--hot", "80/20"])  # fmt: skip
    assert rc == 2
    assert "@qd" in capsys.readouterr().err


# --------------------------------------------------------------- the die count from two QDs

NATIVE_OP = 0.1
TRUE_PROGRAM_US = 1000.0
TRUE_DIES, TRUE_DOMAINS = 2, 1


def _plan_figures(dies: int, planes: int, domains: int, gc_multiplane: bool = False) -> tuple:
    """The plan's figures (QD32 at 0% and 40%, QD4 at 40%, FOB) of a drive the core generates
    with the blocking mechanism (GC relocations in its multi-plane programs with
    ``gc_multiplane``), at twice the twin's size and another seed."""

    def truth(x: float, qd: int) -> float:
        cfg = gc_blocking.config(NATIVE_OP, x, domains, TRUE_PROGRAM_US, qd, dies, planes=planes,
                                 gc_multiplane=gc_multiplane)  # fmt: skip
        user_bytes = 2 * gc_blocking.USER_PAGES * gc_blocking.PAGE_BYTES
        cfg["geometry"]["advertised_bytes"] = user_bytes
        cfg["geometry"]["physical_bytes"] = int(round(user_bytes * (1 + NATIVE_OP)))
        cfg["run"]["seed"] = 7
        return float(engine.run(cfg)["timed"]["measured"]["iops"])

    qd32 = [fitmod.Point(0.0, truth(0.0, 32), 0.02), fitmod.Point(40.0, truth(40.0, 32), 0.02)]
    qd4 = fitmod.Point(40.0, truth(40.0, 4), 0.02, queue_depth=4)
    fob_iops = gc_blocking.fob_iops(TRUE_PROGRAM_US, 32, dies, planes)
    return qd32, qd4, fitmod.Point(0.0, fob_iops, 0.02, fresh=True)


@pytest.mark.slow  # 18 small twin runs and 3 truths: 2 s on a quiet 2-core VM, 13 s loaded
def test_two_queue_depths_identify_the_die_count(monkeypatch):
    """A drive the core generates with the blocking mechanism on 2 dies (1 GC domain), at twice
    the twin's size and another seed: fitted on 0% and 40% at QD32, 40% at QD4 and FOB, the
    reading finds its 2 dies and 1 domain; fitted without the QD4 figure it keeps 8 dies and
    says the parallelism is not identified."""
    monkeypatch.setattr(gc_blocking, "USER_PAGES", 1 << 15)  # 128 MiB twins: seconds

    qd32, qd4, fob = _plan_figures(TRUE_DIES, 1, TRUE_DOMAINS)
    r = gc_blocking.fit([*qd32, qd4, fob], NATIVE_OP, jobs=1)
    assert r is not None and r.dies_identified
    assert (r.dies, r.planes, r.domains) == (TRUE_DIES, 1, TRUE_DOMAINS), r.candidates
    assert abs(r.program_us / TRUE_PROGRAM_US - 1) < 0.1
    assert r.to_dict()["parallelism"].startswith("fitted")
    one_qd = gc_blocking.fit([*qd32, fob], NATIVE_OP, jobs=1)
    assert one_qd is not None and not one_qd.dies_identified
    assert one_qd.dies == gc_blocking.DIES
    assert one_qd.to_dict()["parallelism"].startswith("not identified")


@pytest.mark.slow  # 75 small twin runs and 3 truths: about 40 s on a loaded 2-core VM
def test_the_plan_figures_do_not_tell_planes_from_dies(monkeypatch):
    """A drive the core generates with one die of 2 planes (multi-plane host programs) and a GC
    domain per plane: fitted on 0% and 40% at QD32, 40% at QD4 and FOB, the planes cells are
    tried, and 1 die × 2 planes and 2 dies × 1 plane fit its figures alike (χ² within 5%): QD4
    already fills both planes, so the plan's probe does not separate them (a lower queue depth
    would not either: one write at a time uses one plane or one die alike)."""
    monkeypatch.setattr(gc_blocking, "USER_PAGES", 1 << 15)
    monkeypatch.setattr(gc_blocking, "PLANES_GRID", (1, 2))  # the grid evaluated on MQSim

    qd32, qd4, fob = _plan_figures(1, 2, 2)
    r = gc_blocking.fit([*qd32, qd4, fob], NATIVE_OP, jobs=1)
    assert r is not None and r.dies_identified
    chi2 = {(c["dies"], c["planes_per_die"]): c["chi2"] for c in r.candidates if c["domains"] == 1}
    assert len(r.candidates) == len(gc_blocking.grid(True)) == 25
    assert (r.dies * r.planes) == 2, r.candidates
    assert abs(chi2[(1, 2)] / chi2[(2, 1)] - 1) < 0.05, chi2


@pytest.mark.slow  # two fits of 25 small twins (3 runs each): about a minute on a loaded 2-core VM
def test_the_fit_runs_its_two_plane_cells_with_gc_in_their_planes(monkeypatch):
    """Fitted on the plan's figures of a drive the core generates with GC relocations in its
    planes, with ``GC_MULTIPLANE`` on and off: the one-plane cells score alike, the two-plane
    cells differ (they were simulated with ``timing.gc.multiplane``), and the chosen reading
    records the option for its planes."""
    monkeypatch.setattr(gc_blocking, "USER_PAGES", 1 << 15)
    monkeypatch.setattr(gc_blocking, "PLANES_GRID", (1, 2))
    qd32, qd4, fob = _plan_figures(1, 2, 2, gc_multiplane=True)
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


def test_the_twin_keeps_the_fitted_planes(monkeypatch):
    monkeypatch.setattr(gc_blocking, "PLANES_GRID", (1, 2))
    r = gc_blocking.BlockingReading(2, 900.0, 1.0, 32, NATIVE_OP, dies=1, planes=2,
                                    dies_identified=True)  # fmt: skip
    assert r.to_dict()["planes_per_die"] == 2
    assert r.twin_timing()["nand"]["planes_per_die"] == 2
    assert r.n_parameters() == gc_blocking.N_PARAMETERS + 2
    # one plane: the key is left out, the twin is the single-plane one
    assert "planes_per_die" not in gc_blocking.timing(2, 900.0, 32, 2)["nand"]
    assert gc_blocking.fob_iops(1000.0, 32, 1, 2) == gc_blocking.fob_iops(1000.0, 32, 2, 1)
    # the grid calibrate uses: one plane, the 13 single-plane twins
    monkeypatch.setattr(gc_blocking, "PLANES_GRID", (1,))
    assert len(gc_blocking.grid(True)) == 13 and {pl for _, pl, _ in gc_blocking.grid(True)} == {1}
    assert r.n_parameters() == gc_blocking.N_PARAMETERS + 1


def test_the_analytic_reading_is_scored_at_another_queue_depth_by_its_own_figure():
    """The analytic form has no queue-depth term: its prediction at QD4 is its QD32 figure, a
    residual it cannot fit away (and predicted as it is, in its held-out term)."""
    from overprov.calibrate import evidence

    points = [fitmod.Point(0.0, 126.0, 0.05, 8.29, 0.05), fitmod.Point(40.0, 988.0, 0.05, 1.43)]
    form = evidence.ReadingForm(fitmod.waf_at)
    flat = evidence.assess(form, points, 0.1, other_qd=[fitmod.Point(40.0, 988.0, 0.05,
                                                                     queue_depth=4)])  # fmt: skip
    apart = evidence.assess(form, points, 0.1, other_qd=[fitmod.Point(40.0, 494.0, 0.05,
                                                                      queue_depth=4)])  # fmt: skip
    assert apart["n_figures"] == flat["n_figures"] == 5
    # a figure half the QD32 one costs (ln 2 / 0.05)² in the residuals
    assert apart["residual_chi2"] - flat["residual_chi2"] == pytest.approx(
        (0.6931 / 0.05) ** 2, rel=0.02
    )
    assert apart["chi2"] > apart["residual_chi2"] + 10


# ---------------------------------------------------------------------- the plan measures it


def test_the_plan_adds_a_short_second_queue_depth_within_two_drive_writes():
    graded = design([0, 10, 20, 30, 40], parse_budget("2dw"))
    probe = graded.probe
    assert probe is not None and (probe.extra_op_percent, probe.queue_depth) == (40, 4)
    assert PROBE_QUEUE_DEPTH == 4 and [s.extra_op_percent for s in graded.segments] == [0, 40]
    assert graded.window_drive_writes(probe) == pytest.approx(0.025)
    assert graded.minimum_drive_writes() <= graded.planned_drive_writes() <= 2.0
    assert "then QD4 at 40%" in graded.text()
    without = design([0, 10, 20, 30, 40], parse_budget("2dw"), second_queue_depth=None)
    assert graded.minimum_drive_writes() - without.minimum_drive_writes() == pytest.approx(0.025)
    # a budget that holds the levels but not the probe: the levels keep it (the plan without
    # the graded fill, whatever plan.ONSET_FROM_EMPTY is: the fill comes after the probe)
    bare = design([0, 40], parse_budget("2dw"), second_queue_depth=None, onset_from_empty=False)
    tight = design([0, 40], parse_budget(f"{bare.minimum_drive_writes() + 0.01}dw"),
                   onset_from_empty=False)  # fmt: skip
    assert tight.probe is None and [s.extra_op_percent for s in tight.segments] == [0, 40]


def test_a_simulated_drive_is_measured_at_the_second_queue_depth(tmp_path):
    """The plan end to end on a small simulated drive, within 2 drive writes: the probe's level
    is kept with its queue depth in measurement.json, read back checked, and becomes a figure
    at that queue depth."""
    plan = design([0, 40], parse_budget("2dw"))
    with SimTarget("sim:older-mlc-sata@1GiB") as t:
        m = measure(t, plan)
    assert m.drive_writes <= 2.0  # the 40% window ends at the budget, leaving the probe its own
    assert [(lv.extra_op_percent, lv.queue_depth) for lv in m.levels] == [
        (0, None), (40, None), (40, PROBE_QUEUE_DEPTH)
    ]  # fmt: skip
    probe = m.levels[-1]
    assert probe.window_rounds == 4 and probe.steady_iops > 0
    qd4_rounds = [r for r in m.rounds if "-qd4-" in r.label]
    assert len(qd4_rounds) >= 4  # until settled or its window's share is written
    written = sum(r.bytes_written for r in qd4_rounds) / m.capacity_bytes
    seg = plan.probe
    assert seg is not None
    assert seg.max_drive_writes == pytest.approx(0.025)  # 4 rounds of 0.00625 (graded plan)
    assert written <= seg.max_drive_writes + 1.25 * seg.round_drive_writes
    path = tmp_path / "measurement.json"
    measurement_file.save(m, path)
    back = measurement_file.load(path)
    assert back.levels[-1].queue_depth == PROBE_QUEUE_DEPTH
    assert json.loads(path.read_text())["plan"]["probe"]["queue_depth"] == 4
    points = predmod.points_from(back)
    assert [p.queue_depth for p in points] == [None, None, PROBE_QUEUE_DEPTH]


def test_a_queue_depth_figure_no_reading_can_use_is_said_not_used(tmp_path, capsys):
    """WAF figures and one IOPS figure at QD4: no IOPS at the workload's queue depth, so no
    blocking-GC reading; the prediction says the QD4 figure was not used."""
    out = tmp_path / "pred.json"
    rc = main(["calibrate", "--waf-points", "0:8.3,40:1.43", "--points", "40:762@qd4",
               "--extra-op", "0,40", "--json", str(out), "--jobs", "1"])  # fmt: skip
    assert rc == 0, capsys.readouterr().err
    pred = json.loads(out.read_text())
    assert "1 figure at another queue depth not used" in pred["prediction_source"]
    assert [p["queue_depth"] for p in pred["fit"]["points_other_queue_depth"]] == [4]
    assert "gc_mechanism" not in pred["fit"]


def test_a_probe_at_the_lowest_level_too_costs_its_window_alone(monkeypatch):
    """``plan.PROBE_AT_LOWEST``: the probe after the lowest level's segment as well, measured
    right after it (before the next level's discard), the graded plan within two drive writes."""
    from overprov.calibrate import plan as planmod

    one = design([0, 10, 20, 30, 40], parse_budget("2dw"))
    monkeypatch.setattr(planmod, "PROBE_AT_LOWEST", True)
    both = design([0, 10, 20, 30, 40], parse_budget("2dw"))
    assert one.low_probe is None and both.low_probe is not None
    order = [(s.extra_op_percent, s.queue_depth) for s in both.all_segments()]
    assert order == [(0, None), (0, 4), (40, None), (40, 4)]
    assert both.minimum_drive_writes() - one.minimum_drive_writes() == pytest.approx(0.025)
    assert both.minimum_drive_writes() <= both.planned_drive_writes() <= 2.0
    assert "then QD4 at 0%" in both.text() and "then QD4 at 40%" in both.text()
    assert planmod.MeasurementPlan.from_dict(json.loads(json.dumps(both.to_dict()))) == both
    # one level: one probe
    single = design([20], parse_budget("2dw"))
    assert single.low_probe is None and single.probe is not None
