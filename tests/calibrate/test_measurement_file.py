"""``calibrate --from DIR`` on damaged measurement.json files: every one is refused cleanly
(exit 2, one line naming the file and the field) or read as a valid measurement — never a
traceback (exit 70), never a NaN, an infinity or a string taken for a figure."""

from __future__ import annotations

import contextlib
import copy
import json
import math
from pathlib import Path
from typing import Any

import pytest
from overprov import measurement_file
from overprov.calibrate import fit as fitmod
from overprov.calibrate import predict as predmod
from overprov.calibrate.measure import measure
from overprov.calibrate.plan import design, parse_budget
from overprov.cli import main
from overprov.errors import InputError, OverprovError
from overprov.profile.sim_target import SimTarget

FIELDS = [
    "target", "capacity_bytes", "scale_factor", "bs_bytes", "qd", "fob_iops", "bytes_written",
    "io_seconds", "counters", "status", "fill_done", "levels", "rounds", "plan",
    "levels.0.extra_op_percent", "levels.0.steady_iops", "levels.0.iops_rel_sd", "levels.0.waf",
    "levels.0.p99_latency_us", "levels.0.settled", "levels.0.window_rounds",
    "levels.0.drive_writes", "levels.1.steady_iops", "rounds.0.label", "rounds.0.iops",
    "rounds.0.bytes_written", "rounds.0.duration_s", "rounds.0.run", "plan.budget",
    "plan.window_rounds", "plan.segments", "plan.segments.0.extra_op_percent",
]  # fmt: skip
VALUES: list[Any] = [math.nan, -math.inf, "abc", None, -1, 1e308, [], {}, True, "DELETE"]


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("good")
    with SimTarget("sim:consumer-tlc-sata@1GiB") as t:
        m = measure(t, design([0, 40], parse_budget(None)))
    measurement_file.save(m, out / "measurement.json")
    return json.loads((out / "measurement.json").read_text())


def _mutate(doc: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    *parents, last = path.split(".")
    node: Any = doc
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    key: Any = int(last) if isinstance(node, list) else last
    if value == "DELETE":
        del node[key]
    else:
        node[key] = value
    return doc


def _texts(good: dict[str, Any]) -> list[tuple[str, str]]:
    """(what, file text) of every mutation."""
    out = []
    for path in FIELDS:
        for value in VALUES:
            text = json.dumps(_mutate(good, path, value), allow_nan=True)  # NaN, -Infinity
            out.append((f"{path}={value!r}", text))
    whole = json.dumps(good, indent=2)
    for share in (0.0, 0.01, 0.1, 0.33, 0.5, 0.9, 0.999):  # a full disk cuts it anywhere
        out.append((f"truncated at {share:.1%}", whole[: int(len(whole) * share)]))
    out.append(("a list", "[1, 2]"))
    out.append(("nested deep", "[" * 10_000 + "]" * 10_000))
    out.append(("numbers as strings", whole.replace('"steady_iops": ', '"steady_iops": "1"+')))
    return out


def test_every_mutation_is_refused_cleanly_or_read_validly(good, tmp_path, capsys):
    cases = _texts(good)
    assert len(cases) >= 60
    refused = accepted = 0
    for i, (what, text) in enumerate(cases):
        folder = tmp_path / f"m{i}"
        folder.mkdir()
        path = folder / "measurement.json"
        path.write_text(text)
        try:
            m = measurement_file.load(path)
        except InputError as exc:
            refused += 1
            assert str(path) in str(exc), what
            # the command says it in one line and exits 2 (bad input, docs/cli.md)
            rc = main(["calibrate", "--from", str(folder), "--out", str(tmp_path / "o")])
            err = capsys.readouterr().err
            assert rc == 2, (what, err)
            assert err.count("\n") == 1 and str(path) in err, (what, err)
            continue
        accepted += 1
        # read validly: figures are finite numbers of the right type, and the fit takes them
        # or refuses them as bad input
        for lv in m.levels:
            for v in (lv.extra_op_percent, lv.steady_iops, lv.iops_rel_sd, lv.drive_writes):
                assert isinstance(v, int | float) and math.isfinite(v), what
            assert 0 <= lv.extra_op_percent < 100 and lv.steady_iops > 0, what
            assert lv.waf is None or lv.waf >= 1, what
        assert m.capacity_bytes > 0 and 0 < m.scale_factor <= 1, what
        if m.levels:  # the fit takes them, or refuses them as bad input (OverprovError)
            with contextlib.suppress(OverprovError):
                s = fitmod.fit(predmod.points_from(m), fob_iops=m.fob_iops)
                assert math.isfinite(s.native_op), what
    assert refused > 100 and accepted > 0


def test_nan_inf_and_strings_are_named(good, tmp_path):
    for value, said in ((math.nan, "NaN"), (-math.inf, "-Infinity"), ("abc", "'abc'")):
        path = tmp_path / "measurement.json"
        path.write_text(json.dumps(_mutate(good, "levels.0.steady_iops", value)))
        with pytest.raises(InputError, match=said) as exc:
            measurement_file.load(path)
        assert str(path) in str(exc.value)
    path.write_text(json.dumps(_mutate(good, "levels.0.steady_iops", "abc")))
    with pytest.raises(InputError, match=r"levels\[0\]\.steady_iops"):
        measurement_file.load(path)


def test_a_truncated_file_is_refused_with_exit_2(good, tmp_path, capsys):
    """A full disk used to leave measurement.json cut short (it was written once, at the end,
    with a plain write) and --from crashed on it (exit 70)."""
    folder = tmp_path / "cut"
    folder.mkdir()
    whole = json.dumps(good, indent=2)
    (folder / "measurement.json").write_text(whole[: len(whole) // 2])
    assert main(["calibrate", "--from", str(folder), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "not valid JSON" in err and str(folder / "measurement.json") in err
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())


def test_a_valid_file_reads_back_as_written(good, tmp_path):
    path = tmp_path / "measurement.json"
    path.write_text(json.dumps(good))
    m = measurement_file.load(path)
    assert m.to_dict() == good
    # unknown fields (a newer overprov's) are left out, not refused
    path.write_text(json.dumps({**good, "something_new": [1, 2]}))
    assert measurement_file.load(path).to_dict() == good
    assert isinstance(Path(path), Path)
