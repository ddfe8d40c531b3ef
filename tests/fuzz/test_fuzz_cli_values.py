"""Fuzz: values typed on the command line. Three classes, each generated from the parsers
themselves (every option of every command), so a new option is covered when it is added:

- **NaN everywhere**: NaN, infinity and overflowing numbers in every numeric option, in the
  numbers inside compound values (``--points``, ``--hot``, ``--zones``, a capacity);
- **unit confusions**: the same value written in the ways the rules allow gives the same value
  (``20`` and ``20%``, ``1G`` and ``1000000000``, ``60`` and ``1min``, ``600`` and ``600TB``),
  and a way that means something else is refused (``--rho 28%``);
- **ignored flags**: a flag that the command would drop (every drive, workload and run option
  beside ``simulate --demo``, a shape flag under another ``--workload``) is refused by name.

A silent success is exit 0 where a refusal is due: the count must be 0.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

import pytest
from overprov import units
from test_units_flags import IGNORED  # tests/ is on the path: the fuzz package's parent

from .mutate import SEED, assert_clean, run_cli

#: NaN, infinity and overflow, as users and scripts produce them.
NOT_FINITE = ["nan", "NaN", "inf", "-inf", "+inf", "Infinity", "1e999", "-1e999", "nan%", "nan,10"]


def unit_options(parsers: dict[str, argparse.ArgumentParser]) -> list[tuple[str, Any]]:
    """(command, action) of every option read by a units rule."""
    return [
        (name, a)
        for name, p in parsers.items()
        for a in p._actions
        if a.option_strings and isinstance(a.type, units.Arg)
    ]


def refused_by_name(argv: list[str], option: str) -> str | None:
    """None when ``overprov ARGV`` is refused (exit 2) naming ``option``, else what happened."""
    rc, out, err = run_cli(argv)
    assert_clean(rc, err, " ".join(argv))
    last = err.strip().splitlines()[-1] if err.strip() else ""
    if rc == 2 and option in last:
        return None
    return f"{' '.join(argv)}: exit {rc}: {last or out[-200:]}"


# ------------------------------------------------------------------------- NaN everywhere


def test_nan_everywhere_in_options(command_parsers):
    """Every numeric option, every way of writing a number that is not one (parsing refuses
    it before any work: no positional is needed)."""
    rng = random.Random(SEED)
    silent = []
    cases = 0
    for name, action in unit_options(command_parsers):
        option = action.option_strings[0]
        for bad in rng.sample(NOT_FINITE, 4):
            cases += 1
            problem = refused_by_name([name, option, bad], option)
            if problem:
                silent.append(problem)
    assert cases > 250
    assert silent == [], f"{len(silent)} of {cases} not refused:\n" + "\n".join(silent)


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["calibrate", "--points", "0:nan,20:200"], "--points"),
        (["calibrate", "--points", "nan:100"], "--points"),
        (["calibrate", "--points", "0:1e308,20:inf"], "--points"),
        (["calibrate", "--waf-points", "0:inf"], "--waf-points"),
        (["capacity", "nan"], "capacity"),
        (["capacity", "infGB"], "capacity"),
        (["plan", "--capacity", "nan"], "--capacity"),
        (["simulate", "--hot", "nan/20", "--check"], "--hot"),
        (["simulate", "--zones", "50/inf:50/95", "--check"], "--zones"),
        (["simulate", "--scale", "nan", "--check"], "--scale"),
    ],
)
def test_nan_everywhere_in_compound_values(argv, option, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a case that ran would write here
    assert refused_by_name(argv, option) is None


# ------------------------------------------------------------------------- unit confusions

#: Ways of writing one value that the rules make equal, by the kind of rule.
SAME_VALUE: dict[str, list[list[str]]] = {
    "percent": [["20", "20%", " 20 %"]],
    "percent_list": [["0,20", "0%,20%", "0, 20%"]],
    "size": [["1G", "1GB", "1000000000", "1_000_000_000"], ["1GiB", "1073741824"]],
    "block_size": [["4k", "4KiB", "4096"]],
    "duration_seconds": [["60", "60s", "1min"]],
    "tbw_bytes": [["600", "600TB", "0.6PB", "600000000000000B"]],
    "tbw_tb": [["600", "600TB", "0.6PB"]],
}


def test_unit_confusions_one_value_many_spellings(command_parsers):
    silent = []
    for name, action in unit_options(command_parsers):
        option, kind = action.option_strings[0], action.type.kind
        for spellings in SAME_VALUE.get(kind, []):
            values = []
            for text in spellings:
                try:
                    values.append(action.type(text))
                except argparse.ArgumentTypeError as exc:
                    values.append(f"refused ({exc})")
            if len({repr(v) for v in values}) != 1:
                silent.append(f"{name} {option}: {dict(zip(spellings, values, strict=True))}")
    assert silent == []


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["simulate", "--rho", "28%", "--check"], "--rho"),  # it simulated ρ = 28
        (["simulate", "--rho", "0.07,28%", "--check"], "--rho"),
        (["simulate", "--rho", "28", "--check"], None),  # a fraction of 28 is allowed: ρ = 2800 %
    ],
)
def test_unit_confusions_refused(argv, option):
    if option is None:
        rc, _, err = run_cli(argv)
        assert rc in (0, 1), err  # accepted as the fraction it is (or refused for memory)
        return
    assert refused_by_name(argv, option) is None


def test_unit_confusions_tbw_in_plan(tmp_path):
    """``plan --rated-tbw 600`` was 600 bytes (DWPD 0.00); now the same plan as 600TB."""
    docs = []
    for text in ("600", "600TB", "0.6PB"):
        out = tmp_path / f"plan-{text}.json"
        rc, _, err = run_cli(["plan", "--capacity", "960GB", "--rated-tbw", text, "--json",
                              str(out)])  # fmt: skip
        assert rc == 0, err
        docs.append(json.loads(out.read_text()))
    assert docs[0] == docs[1] == docs[2]
    assert all(row["dwpd"] > 0.1 for row in docs[0]["rows"])


# ------------------------------------------------------------------------- ignored flags


def sample_value(action: argparse.Action) -> list[str]:
    """The option with a value it accepts."""
    option = action.option_strings[0]
    if action.nargs == 0:
        return [option]
    if action.choices:
        return [option, str(list(action.choices)[-1])]
    samples = {"percent": "10", "size": "1G", "block_size": "4k", "duration_seconds": "2"}
    kind = getattr(action.type, "kind", None)
    text = samples.get(kind or "", "1")
    text = {"bssplit": "4k/100", "hot": "80/20", "zones": "50/50:50/50"}.get(action.dest, text)
    return [option, text]


def test_ignored_flags_beside_demo(command_parsers):
    """Every flag that describes the drive, its workload or its run is refused with --demo."""
    from overprov.simulate.run_configs import FLAG_FIELDS

    p = command_parsers["simulate"]
    by_dest: dict[str, Any] = {a.dest: a for a in p._actions}
    dests = [d for d, _ in FLAG_FIELDS] + ["preset", "config", "hot", "zones", "zipf_theta",
                                           "workload", "rho", "extra_op", "trace"]  # fmt: skip
    silent = []
    for dest in dests:
        option = by_dest[dest].option_strings[0]
        argv = ["simulate", "--demo", *sample_value(by_dest[dest]), "--check"]
        problem = refused_by_name(argv, option)
        if problem:
            silent.append(problem)
    assert silent == [], f"{len(silent)} of {len(dests)}:\n" + "\n".join(silent)


def test_ignored_flags_shape_under_another_pattern():
    from overprov import engine

    shapes = {"--hot": ("hot-cold", "80/20"), "--zones": ("zoned", "50/5:50/95"),
              "--zipf-theta": ("zipf", "0.9")}  # fmt: skip
    silent = []
    for command in ("simulate", "calibrate"):
        for option, (own, value) in shapes.items():
            for pattern in engine.choices("workload.pattern"):
                if pattern == own:
                    continue
                argv = [command, "--workload", pattern, option, value]
                argv += ["--check"] if command == "simulate" else ["--points", "0:1000"]
                problem = refused_by_name(argv, option)
                if problem:
                    silent.append(problem)
    assert silent == []


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        *IGNORED,  # tests/test_units_flags.py: --demo, user sizes, shapes, --qd 0, --ioengine
        (["calibrate", "--points", "0:11000,20:25000", "--target-iops", "-5"], "--target-iops"),
        (["plan", "--capacity", "960GB", "--years", "nan"], "--years"),
    ],
)
def test_ignored_flags_listed(argv, option, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a command that ran would write here
    assert refused_by_name(argv, option) is None
