"""docs/simulate.md's field table is the core's configuration: every field the core has is a
row, every row is a field, each with the core's default, and every flag a row names is one of
``simulate``'s options."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from overprov import cli, engine
from overprov.errors import ConfigError

DOC = Path(__file__).resolve().parents[2] / "docs" / "simulate.md"
ROW = re.compile(r"^\| `([a-z0-9_.]+)` \| (.*?) \| (.*) \|$", re.M)


def rows() -> dict[str, tuple[str, str]]:
    """field → (default as written, meaning) of the table."""
    return {m[1]: (m[2], m[3]) for m in ROW.finditer(DOC.read_text(encoding="utf-8"))}


def leaves(d: dict, prefix: str = "") -> dict[str, object]:
    out: dict[str, object] = {}
    for k, v in d.items():
        if isinstance(v, dict) and v:
            out.update(leaves(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def written(default: str) -> object:
    """A default as the table writes it: a JSON value, a bare word, or — (none)."""
    if default == "—":
        return None
    try:
        return json.loads(default)
    except json.JSONDecodeError:
        return default


def nested(field: str, value: object) -> dict:
    out: dict = {}
    node = out
    *parents, last = field.split(".")
    for k in parents:
        node = node.setdefault(k, {})
    node[last] = value
    return out


def test_the_table_reads_rows():
    table = rows()
    assert table["ftl.policy"][0] == '"greedy"'
    assert written('"greedy"') == "greedy" and written("—") is None and written("free") == "free"
    assert leaves({"a": {"b": 1, "c": {}}}) == {"a.b": 1, "a.c": {}}


def test_every_config_field_is_a_row_with_its_default():
    table = rows()
    defaults = leaves(engine.default_config())
    assert sorted(set(defaults) - set(table)) == [], "fields docs/simulate.md does not list"
    wrong = {f: (table[f][0], v) for f, v in defaults.items() if written(table[f][0]) != v}
    assert wrong == {}, "docs/simulate.md default != the core's (field: (doc, core))"


def test_every_row_is_a_field_the_core_takes():
    """A row the default config leaves out (a field serialised only when not its default) is
    still one the core accepts at the table's default; a misspelt field is refused."""
    table = rows()
    defaults = leaves(engine.default_config())
    for field in sorted(set(table) - set(defaults)):
        value = written(table[field][0])
        engine.validate(engine.merge(engine.default_config(), nested(field, value)))
        with pytest.raises(ConfigError, match="unknown key"):
            engine.validate(engine.merge(engine.default_config(), nested(field + "x", value)))


def test_every_flag_a_row_names_is_a_simulate_option():
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    options = {o for a in sub.choices["simulate"]._actions for o in a.option_strings}
    named = {f for _, meaning in rows().values() for f in re.findall(r"`(--[a-z0-9-]+)", meaning)}
    assert named and sorted(named - options) == []


def text() -> str:
    return " ".join(DOC.read_text(encoding="utf-8").split())


def test_the_default_drive_and_the_knee_rule():
    from overprov import qd_sweep

    resolved = engine.validate(engine.default_config())
    assert resolved["geometry"]["user_pages"] == 2**20
    assert resolved["geometry"]["page_size_bytes"] == 4096
    assert resolved["op_ratio"] == pytest.approx(0.28, abs=0.001)
    assert "(2²⁰ user pages of 4 KiB, ρ = 0.28)" in text()
    assert pytest.approx(0.10) == qd_sweep.IOPS_GAIN_BELOW
    assert pytest.approx(0.50) == qd_sweep.P99_GROWTH_ABOVE
    assert "adds less than 10% IOPS while p99 grows by more than 50%" in text()


@pytest.mark.parametrize(
    ("raid", "members", "ok"),
    [("0", 2, True), ("0", 64, True), ("0", 65, False), ("1", 1, False),
     ("10", 4, True), ("10", 6, True), ("10", 5, False), ("10", 66, False)],
)  # fmt: skip
def test_the_array_sizes_the_table_states(raid, members, ok):
    assert "RAID-0 and RAID-1 2–64, RAID-10 an even 4–64" in text()
    config = engine.merge(
        engine.default_config(),
        {"timing": {"enabled": True, "host": {"array": {"raid": raid, "members": members}}}},
    )
    if ok:
        engine.validate(config)
    else:
        with pytest.raises(ConfigError, match="members"):
            engine.validate(config)


def test_each_flag_of_the_flag_table_is_named_on_its_fields_row():
    """``simulate/run_configs.py``'s ``FLAG_FIELDS`` (flag → config field) and the page agree:
    the row of each field a flag sets names that flag."""
    from overprov.simulate.run_configs import FLAG_FIELDS

    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    by_dest: dict[str, list[str]] = {}
    for a in sub.choices["simulate"]._actions:
        by_dest.setdefault(a.dest, []).extend(a.option_strings)
    table = rows()
    unnamed = []
    for dest, path in FLAG_FIELDS:
        field = ".".join(path)
        named = re.findall(r"`(--[a-z0-9-]+)", table[field][1])
        if not set(by_dest[dest]) & set(named):
            unnamed.append(f"{field}: {by_dest[dest]}")
    assert unnamed == []


@pytest.mark.parametrize("precondition", ["none", "sequential"])
def test_the_table_says_why_no_model_applies(precondition):
    """The analytic models hold for uniform random single-page writes over a drive filled
    first: without the fill no model is shown, and the note says the fill is why (it named
    only the write pattern, which a uniform run already has)."""
    from overprov.simulate import output

    config = engine.merge(
        engine.default_config(),
        {
            "geometry": {"user_bytes": 16 * 2**20, "pages_per_block": 64, "op_ratio": 0.2},
            "precondition": {"kind": precondition},
            "run": {"drive_writes": 0.5, "warmup_drive_writes": 0.5},
        },
    )
    table = output.format_table([engine.run(config)])
    if precondition == "none":
        assert "model: none applies" in table and "filled first" in table
    else:
        assert "model: greedy model" in table
