"""``exporter --listen HOST:PORT``: a port above 65535 was refused as not HOST:PORT at all
("expected HOST:PORT (e.g. 127.0.0.1:9633), got '127.0.0.1:99999'"), which it is; the refusal
names the port now. Nothing is served: these are the parser's answers."""

from __future__ import annotations

import pytest
from overprov.errors import ConfigError
from overprov.exporter.cli import parse_listen


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("127.0.0.1:9633", ("127.0.0.1", 9633)),
        ("[::1]:0", ("::1", 0)),
        ("host:65535", ("host", 65535)),
    ],
)
def test_host_and_port(text, expected):
    assert parse_listen(text) == expected


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("127.0.0.1:99999", "--listen: port 99999 is above 65535, the largest"),
        ("127.0.0.1:123456", "--listen: port 123456 is above 65535"),
        ("9633", "--listen: expected HOST:PORT"),
        ("host:", "--listen: expected HOST:PORT"),
    ],
)
def test_refusals_say_what_is_wrong(text, said):
    with pytest.raises(ConfigError) as got:
        parse_listen(text)
    assert str(got.value).startswith(said)
