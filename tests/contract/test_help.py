"""Help, the same for every command: examples in each --help, no "(default: None)", the
subcommand's own usage on its errors, --version, and completion generated from the parser."""

from __future__ import annotations

import re

import pytest
from overprov import __version__, cli


def _commands() -> list[str]:
    parser = cli.build_parser()
    return sorted(parser._subparsers._group_actions[0].choices)


@pytest.mark.parametrize("command", _commands())
def test_every_help_has_examples_and_no_default_none(overprov_cli, command):
    rc, out, _ = overprov_cli(command, "--help")
    assert rc == 0
    assert "(default: None)" not in out and "default: False" not in out
    assert "examples:\n  overprov " in out, out[-600:]


@pytest.mark.parametrize("command", [c for c in _commands() if c != "completion"])
def test_an_unknown_flag_shows_the_subcommands_usage(overprov_cli, command):
    rc, _, err = overprov_cli(command, "--no-such-flag")
    assert rc == 2
    assert err.startswith(f"usage: overprov {command}"), err[:200]
    assert f"\noverprov {command}: error: " in err  # one line: what is wrong


def test_version(overprov_cli):
    rc, out, _ = overprov_cli("--version")
    assert rc == 0 and out.strip() == f"overprov {__version__}"


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_knows_every_command_and_flag(overprov_cli, shell):
    pytest.importorskip("shtab")
    rc, out, _ = overprov_cli("completion", shell)
    assert rc == 0
    for word in ("simulate", "profile", "--extra-op", "--rho", "--json", "capacity"):
        assert word in out, word


def _every_parser():
    """(name, parser) of `overprov` and each command and subcommand."""
    import argparse

    todo = [("overprov", cli.build_parser())]
    while todo:
        name, parser = todo.pop()
        yield name, parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                todo.extend((f"{name} {n}", sp) for n, sp in action.choices.items())


def test_no_help_shows_a_default_twice_or_a_doubled_percent():
    """`--bs SIZE  block size (4k) (default: 4096)` said the default twice; a description
    with `%%` showed it (argparse formats only the options' help with %)."""
    found = []
    for name, parser in _every_parser():
        text = " ".join(parser.format_help().split())
        if "%%" in text:
            found.append(f"{name}: %%")
        found += [f"{name}: {m}" for m in re.findall(r"\([^()]*\) \(default: [^)]*\)", text)]
    assert found == []


def test_the_top_level_help_ends_with_examples_that_parse(overprov_cli):
    rc, out, _ = overprov_cli("--help")
    assert rc == 0
    examples = out.split("\nexamples")[1].splitlines()[1:]
    lines = [line.split("#")[0].split() for line in examples if line.strip().startswith("overprov")]
    assert {words[1] for words in lines} >= {"capacity", "plan", "profile", "smart", "apply"}
    parser = cli.build_parser()
    for words in lines:
        parser.parse_args(words[1:])  # exits 2 on an example that does not parse


@pytest.mark.parametrize(
    ("argv", "meant"),
    [
        (("simulate", "--extra-ops", "0,20"), "--extra-op"),
        (("simulate", "--extraop", "0,20"), "--extra-op"),
        (("plan", "--target_dwpd", "1"), "--target-dwpd"),
        (("simulate", "--prest", "consumer-tlc-sata"), "--preset"),
        (("simulate", "--dry-run"), "--check"),  # another tool's word for it
        (("profile", "sim:consumer-tlc-sata", "--iops", "20000"), "--target-iops"),
    ],
)
def test_a_mistyped_option_names_the_option_meant(overprov_cli, argv, meant):
    rc, _, err = overprov_cli(*argv)
    assert rc == 2
    last = err.strip().splitlines()[-1]
    unknown = next(word for word in argv[1:] if word.startswith("--"))
    assert last.startswith(f"overprov {argv[0]}: error: unrecognized arguments: {unknown}")
    assert last.endswith(f"(did you mean {meant}?)")


@pytest.mark.parametrize(("word", "meant"), [("simulat", "simulate"), ("smart_nvme", "smart-nvme")])
def test_a_mistyped_command_names_the_command_meant(overprov_cli, word, meant):
    rc, _, err = overprov_cli(word, "--help")
    assert rc == 2
    assert err.strip().splitlines()[-1] == (
        f"overprov: error: argument COMMAND: invalid choice: '{word}': did you mean '{meant}'?"
    )


def test_an_unknown_option_or_command_far_from_any_gets_no_guess(overprov_cli):
    rc, _, err = overprov_cli("simulate", "--no-such-flag")
    assert rc == 2 and "did you mean" not in err
    rc, _, err = overprov_cli("nosuchcmd")
    assert rc == 2 and "did you mean" not in err and "(choose from 'simulate'" in err


@pytest.mark.parametrize(
    ("argv", "joined"),
    [
        (("capacity", "1", "TB"), "1TB, not 1 TB"),
        (("simulate", "--user-bytes", "4", "GiB"), "4GiB, not 4 GiB"),
        (("capacity", "1TB", "--extra-op", "20", "%"), "20%, not 20 %"),
    ],
)
def test_a_unit_written_apart_from_its_number_is_named(overprov_cli, argv, joined):
    rc, _, err = overprov_cli(*argv)
    assert rc == 2
    assert (
        err.strip()
        .splitlines()[-1]
        .endswith(
            f"unrecognized arguments: {argv[-1]} (a number and its unit are one word: {joined})"
        )
    )
