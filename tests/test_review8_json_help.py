"""Every command's ``--json`` says the same in its help (``options.add_json_option``): what
goes to FILE, that '-' is stdout, and that the text then goes to stderr. qualify's said only
"write the results as JSON (- : stdout)", though its text goes to stderr too."""

from __future__ import annotations

import argparse


def test_every_json_option_says_where_the_text_goes(command_parsers):
    said = "('-' for stdout, the text then goes to stderr)"
    odd = {}
    for name, parser in command_parsers.items():
        for action in parser._actions:
            if "--json" not in action.option_strings or action.help == argparse.SUPPRESS:
                continue
            if said not in (action.help or "") or action.metavar != "FILE":
                odd[name] = (action.metavar, action.help)
    assert odd == {}
