"""One drive description, one answer (the drive-model issue): ``overprov profile sim:DRIVE``
and ``overprov simulate --preset DRIVE`` agree within 2% on steady IOPS and on steady-window
WAF for the same drive, OP level and workload (4 KiB random writes, QD32), and a preset named
by its name or written out as a drive file is the same drive.

The two paths measure differently: the profile runs fixed-length rounds and its own steady-state
rule (window of 5 rounds after the phase precondition); simulate runs one write saturation and
takes the core's SNIA window of intervals. Both figures are computed here, not recorded.
"""

from __future__ import annotations

import json

import pytest
from overprov import cli, presets
from overprov.calibrate.twin import to_toml

DRIVE = "consumer-tlc-sata"
SCALE = "1GiB"  # the smallest scale the preset accepts (256 erase blocks)
LEVELS = (0, 20, 40)
TOLERANCE = 0.02


def _profile(overprov_cli, tmp_path, spec: str) -> dict[float, tuple[float, float]]:
    out = tmp_path / "prof"
    rc, _, err = overprov_cli(
        # 20 s of simulated time per round at scale 1/1000 (rounds scale, docs/profile.md): the
        # longest round of test_profile_plateau.py; 60 s rounds gave the same figures to 0.1%
        # at three times the CPU (docs/testing.md, "Round 5 cuts")
        "profile", spec, "--extra-op", ",".join(map(str, LEVELS)), "--round-seconds", "20000",
        "--out", str(out), "--no-report",
    )  # fmt: skip
    assert rc == 0, err
    doc = json.loads((out / "results.json").read_text())
    figures = {}
    for phase in doc["phases"]:
        assert phase["steady"], phase["verdict"]["reason"]
        first = phase["verdict"]["window_first_round"]
        window = phase["rounds"][first - 1 :]
        waf = sum(r["nand_bytes_written"] for r in window) / sum(r["bytes_written"] for r in window)
        figures[phase["extra_op_percent"]] = (phase["steady_iops"], waf)
    return figures


def _simulate(overprov_cli, drive: str) -> dict[float, tuple[float, float]]:
    rc, text, err = overprov_cli(
        "simulate", "--preset", drive, "--scale", SCALE,
        "--extra-op", ",".join(map(str, LEVELS)), "--json", "-",
    )  # fmt: skip
    assert rc == 0, err
    return _figures(json.loads(text))


@pytest.fixture(scope="module")
def simulated_by_name(tmp_path_factory) -> dict[float, tuple[float, float]]:
    """``simulate --preset DRIVE`` (the preset by its name), read by both tests."""
    out = tmp_path_factory.mktemp("one-drive") / "simulate.json"
    rc = cli.main(["simulate", "--preset", DRIVE, "--scale", SCALE,
                   "--extra-op", ",".join(map(str, LEVELS)), "--json", str(out)])  # fmt: skip
    assert rc == 0
    return _figures(json.loads(out.read_text()))


def _figures(doc: dict) -> dict[float, tuple[float, float]]:
    figures = {}
    for level, run in zip(LEVELS, doc["runs"], strict=True):
        window = run["timed"]["steady_window_figures"]
        assert window["steady"], window["text"]
        figures[float(level)] = (run["timed"]["steady_iops"], window["waf"])
    return figures


@pytest.mark.slow
def test_profile_and_simulate_give_one_answer_for_one_drive(
    overprov_cli, tmp_path, simulated_by_name
):
    profiled = _profile(overprov_cli, tmp_path, f"sim:{DRIVE}@{SCALE}")
    simulated = simulated_by_name
    assert set(profiled) == set(simulated) == {float(x) for x in LEVELS}
    for level, (p_iops, p_waf) in profiled.items():
        s_iops, s_waf = simulated[level]
        assert p_iops == pytest.approx(s_iops, rel=TOLERANCE), (level, p_iops, s_iops)
        assert p_waf == pytest.approx(s_waf, rel=TOLERANCE), (level, p_waf, s_waf)
    # the curve has its shape on both paths (not two flat lines agreeing by accident)
    assert simulated[0.0][0] * 3 < simulated[20.0][0] < simulated[40.0][0]


def test_a_preset_written_as_a_drive_file_is_the_same_drive(
    overprov_cli, tmp_path, simulated_by_name
):
    path = tmp_path / "drive.toml"
    path.write_text(to_toml(presets.get(DRIVE)) + "\n")
    by_file = _simulate(overprov_cli, str(path))
    assert by_file == simulated_by_name
