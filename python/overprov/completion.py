"""``overprov completion bash|zsh``: shell completion generated from the parser (shtab)."""

from __future__ import annotations

import argparse

from overprov.errors import ConfigError

SHELLS = ("bash", "zsh", "tcsh")


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "completion",
        help="print a shell completion script (bash, zsh, tcsh) generated from the parser",
        description="Print the completion script for a shell, generated from overprov's own "
        "argument parser by shtab, so it always knows every command and flag.",
        epilog="examples:\n"
        "  overprov completion bash > ~/.local/share/bash-completion/completions/overprov\n"
        '  overprov completion zsh > "${fpath[1]}/_overprov"',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("shell", choices=SHELLS, help="the shell to complete for")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        import shtab
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise ConfigError("completion: needs the shtab package (pip install shtab)") from exc
    from overprov.cli import build_parser

    print(shtab.complete(build_parser(), shell=args.shell))
    return 0
