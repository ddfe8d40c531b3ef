"""Size and list parsing shared by the commands."""

import pytest
from overprov.errors import ConfigError
from overprov.units import parse_percent_list, parse_size_bytes


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


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("4Gb", "write 4GB or 4GiB"),
        ("4gb", "write 4GB or 4GiB"),
        ("4Gib", "write 4GB or 4GiB"),
        ("64kb", "write 64kB or 64KiB"),
        ("1.2Tb", "write 1.2TB or 1.2TiB"),
    ],
)
def test_a_lowercase_b_after_a_prefix_is_bits_and_refused(text, hint):
    with pytest.raises(ConfigError, match=f"^--scale: '{text}': b is bits; {hint}$"):
        parse_size_bytes(text, "--scale")
    # the byte forms of the same size are read as documented
    assert parse_size_bytes(text.replace("b", "B"), "--scale") > 0


def test_gigabits_given_to_simulate_scale_are_refused(overprov_cli):
    rc, out, err = overprov_cli("simulate", "--preset", "consumer-tlc-sata", "--scale", "4Gb")
    assert rc == 2 and out == ""
    assert err.strip() == "overprov simulate: --scale: '4Gb': b is bits; write 4GB or 4GiB"


def test_lists():
    assert parse_percent_list("0, 10,20%", "--op") == [0.0, 10.0, 20.0]
    with pytest.raises(ConfigError, match="--op: expected a percentage like 20 or 20%, got 'x'"):
        parse_percent_list("1,x", "--op")
    with pytest.raises(ConfigError, match="no values"):
        parse_percent_list(" , ", "--op")


def test_block_sizes_follow_fio():
    from overprov.units import parse_block_size

    assert parse_block_size("4k", "--bs") == parse_block_size("4KiB", "--bs") == 4096
    assert parse_block_size("1m", "--bs") == 2**20 and parse_block_size("512", "--bs") == 512
    with pytest.raises(ConfigError, match="^--bs: "):
        parse_block_size("4q", "--bs")


def test_durations_and_percentages():
    from overprov.units import parse_duration_seconds, parse_percent

    assert parse_duration_seconds("90", "--d") == 90
    assert parse_duration_seconds("10min", "--d") == 600
    assert parse_duration_seconds("2h", "--d") == 7200
    assert parse_duration_seconds("1d", "--d") == 86400
    with pytest.raises(ConfigError, match="^--d: expected a duration"):
        parse_duration_seconds("5 fortnights", "--d")
    assert parse_percent("20%", "--x") == parse_percent(20, "--x") == 20.0
    with pytest.raises(ConfigError, match="^--x: "):
        parse_percent("nan", "--x")


def test_one_human_bytes():
    from overprov.units import human_bytes

    assert human_bytes(999_998_976) == "1 GB"  # 3 significant digits, decimal units
    assert human_bytes(19.95e12, decimals=2) == "19.95 TB"
    assert human_bytes(512) == "512 B" and human_bytes(None) == "—"
