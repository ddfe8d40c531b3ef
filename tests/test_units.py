"""Size and list parsing shared by the commands."""

import pytest
from overprov.errors import ConfigError
from overprov.units import parse_number_list, parse_size_bytes


@pytest.mark.parametrize(
    ("text", "bare", "want"),
    [
        ("512G", "b", 512e9),
        ("480GB", "b", 480e9),
        ("1.92TB", "b", 1.92e12),
        ("64GiB", "b", 64 * 2**30),
        ("4096", "b", 4096),
        ("512", "gb", 512e9),  # a bare number in the caller's unit
        ("1_000", "b", 1000),
    ],
)
def test_sizes(text, bare, want):
    assert parse_size_bytes(text, "--x", bare_unit=bare) == pytest.approx(want)


@pytest.mark.parametrize("text", ["12 parsecs", "", "GB", "-5G", "0"])
def test_bad_sizes_name_the_option(text):
    with pytest.raises(ConfigError, match="^--capacity: "):
        parse_size_bytes(text, "--capacity")


def test_lists():
    assert parse_number_list("0, 10,20%", "--op") == [0.0, 10.0, 20.0]
    with pytest.raises(ConfigError, match="--op: 'x' is not a number"):
        parse_number_list("1,x", "--op")
    with pytest.raises(ConfigError, match="no values"):
        parse_number_list(" , ", "--op")
