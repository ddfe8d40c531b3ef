"""docs/cli.md's checkable claims, against the code: the exit codes are errors.py's, every
option the units table and the OP table name is an option of that command (and every command
with ``--extra-op`` is listed), the simulator's choices come from the core, and the limits the
page states (input size and depth, the estimate's thresholds, the dry run's assumed IOPS, the
progress line's period, the Dask address check) are the code's constants."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
from overprov import _core, cli, errors, inputs, progress, sweep_dask
from overprov.profile import dry_run
from overprov.simulate import estimate

DOC = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def table(heading: str) -> list[list[str]]:
    """The rows (cells) of the first table whose header line starts with ``heading``."""
    text = doc()
    lines = text[text.index("\n" + heading) :].strip().split("\n\n")[0].splitlines()
    return [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines[2:]]


def commands() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return dict(sub.choices)


def options(parser: argparse.ArgumentParser) -> set[str]:
    """Every option string of a command (its sub-commands' too) and its positionals in capitals."""
    out: set[str] = set()
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            for p in a.choices.values():
                out |= options(p)
        elif a.option_strings:
            out |= set(a.option_strings)
        else:
            out.add(a.dest.upper())
    return out


def test_the_tables_are_read():
    assert table("| code |")[0][0] == "0"
    assert table("| kind |")[0][0] == "size, SI"
    assert "--allow-hdd" in options(commands()["profile"])


def test_the_exit_codes_are_those_of_errors_py():
    documented = {int(row[0]) for row in table("| code |")}
    constants = {v for k, v in vars(errors).items() if k.startswith("EXIT_")}
    assert documented == constants


def test_every_option_the_units_table_names_is_an_option_of_its_command():
    cmds = commands()
    missing = []
    for row in table("| kind |"):
        for group in re.findall(r"`([^`]+)`", row[-1]):
            words = group.split()
            if words[0] not in cmds:
                continue  # an option of several commands, or an example
            opts = options(cmds[words[0]])
            missing += [f"{words[0]} {w}" for w in words[1:] if w not in opts]
    assert missing == []


def test_the_commands_with_extra_op_are_those_the_page_lists():
    row = next(r for r in table("| option | means | where |") if r[0].startswith("`--extra-op"))
    listed = set(re.findall(r"`(\w[\w-]*)`", row[-1]))
    having = {name for name, p in commands().items() if "--extra-op" in options(p)}
    assert listed == having


def test_the_retired_op_is_refused_by_the_commands_that_had_it(capsys):
    for name in ("simulate", "plan", "profile", "calibrate"):
        with pytest.raises(SystemExit) as exc:
            cli.build_parser().parse_args([name, "--op", "20"])
        assert exc.value.code == errors.EXIT_USAGE
        assert "--extra-op" in capsys.readouterr().err


#: the option of simulate → its field of ``_core.choices()``
CHOICES = {
    "--policy": "ftl.policy",
    "--workload": "workload.pattern",
    "--gc-frontier": "ftl.gc_frontier",
    "--gc-trigger": "ftl.gc_trigger",
    "--streams": "ftl.host_streams",
    "--fdp-isolation": "placement.isolation",
    "--precondition": "precondition.kind",
    "--trace-format": "trace.format",
}


def test_the_simulators_choices_are_the_cores():
    named = re.search(r"The names of the simulator's choices \(([^)]*)\)", doc())
    assert named and set(re.findall(r"`(--[\w-]+)`", named[1])) == set(CHOICES)
    core = _core.choices()
    actions = {o: a for a in commands()["simulate"]._actions for o in a.option_strings}
    for option, field in CHOICES.items():
        assert list(actions[option].choices) == core[field], option


def test_the_limits_the_page_states_are_the_codes():
    text = " ".join(doc().split())
    assert inputs.MAX_INPUT_BYTES == 256 * 2**20 and "at most 256 MiB" in text
    assert inputs.MAX_DEPTH == 64 and "nested at most 64 levels" in text
    assert progress.LINE_EVERY_S == 10 and "one line every 10 s" in text
    assert estimate.LONG_RUN_S == 30 and "estimated over 30 s says so" in text
    assert estimate.HUGE_RUN_S == 2 * 3600 and "estimated over 2 hours" in text
    assert "more than 2²⁴ pages" in text
    assert dry_run.ASSUMED_RANDOM_IOPS == 50_000 and "(50,000 IOPS)" in text
    assert sweep_dask.CONNECT_TIMEOUT_S == 4 and "exit 1 within 4 s" in text


def test_the_estimate_starts_at_the_stated_size():
    """``simulate`` estimates a run that writes 2²⁴ pages or more, and not one below."""
    run = {"precondition": {"kind": "none"}, "run": {"warmup_drive_writes": 0, "drive_writes": 1}}
    assert estimate.worth_estimating(run, {"user_pages": 2**24})
    assert not estimate.worth_estimating(run, {"user_pages": 2**24 - 1})


def test_one_assumed_iops_for_the_dry_run_and_the_estimate():
    """The 50,000 IOPS the page states is one constant, which the dry run, profile's estimate
    and calibrate's plan all read (not a copy per module)."""
    import ast

    package = Path(__file__).resolve().parents[2] / "python" / "overprov"
    assigned = sorted(
        p.relative_to(package).as_posix()
        for p in package.rglob("*.py")
        for n in ast.parse(p.read_text(encoding="utf-8")).body
        if isinstance(n, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "ASSUMED_RANDOM_IOPS" for t in n.targets)
    )
    assert assigned == ["profile/dry_run.py"]


#: other programs' options these pages quote (wipefs, fio, sgdisk, nvme-cli, partx, hdparm,
#: mdadm) and the top-level ones (``overprov --version``, ``scripts/import_graph.py --modules``)
OTHER_OPTIONS = {"--no-act", "--cmdhelp", "--enghelp", "--output-format", "--clear", "--new",
                 "--controllers", "--create", "--flbas", "--ncap", "--nsze", "--update",
                 "--yes-i-know-what-i-am-doing", "--version", "--modules",
                 "--change-name", "--delete", "--typecode", "--grow", "--stop",
                 "--partition-guid"}  # fmt: skip
PAGES = ["README.md", "ARCHITECTURE.md", "docs/cli.md", "docs/simulate.md", "docs/profile.md",
         "docs/apply.md", "docs/safety.md", "docs/json.md"]  # fmt: skip


@pytest.mark.parametrize("page", PAGES)
def test_every_option_a_page_names_is_an_option_of_overprov(page):
    known = set().union(*(options(p) for p in commands().values())) | OTHER_OPTIONS
    text = (DOC.parents[1] / page).read_text(encoding="utf-8")
    assert sorted(set(re.findall(r"(?<![\w-])(--[a-z][\w-]*)", text)) - known) == []


def test_overprov_help_lists_every_exit_code():
    """``overprov --help`` ends with the exit codes: every one of docs/cli.md's table (it left
    out 141 and 70)."""
    text = cli.build_parser().format_help()
    codes = text.split("exit codes:")[1]
    listed = {int(c) for c in re.findall(r"(?:^|[;:])\s*(\d+) [a-z]", codes)}
    assert listed == {int(row[0]) for row in table("| code |")}
