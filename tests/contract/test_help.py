"""Help, the same for every command: examples in each --help, no "(default: None)", the
subcommand's own usage on its errors, --version, and completion generated from the parser."""

from __future__ import annotations

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
