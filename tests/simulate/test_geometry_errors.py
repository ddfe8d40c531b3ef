"""simulate's geometry refusals name the flag: --extra-op without a size said
"geometry.advertised_bytes: extra_op_percent without a physical size needs advertised_bytes",
--user-bytes 1k said "geometry.physical_blocks: the drive has no blocks"."""

from __future__ import annotations

TRACE = "tests/data/traces/alibaba-block-head.csv"


def test_extra_op_without_a_size_names_the_flags(overprov_cli):
    for extra in ((), ("--trace", TRACE)):
        rc, out, err = overprov_cli("simulate", "--extra-op", "0,20", *extra, "--check")
        assert rc == 2, (out, err)
        assert "--extra-op needs --advertised SIZE or --preset NAME" in err
        assert "extra_op_percent" not in err


def test_a_user_size_too_small_names_the_flag_and_the_minimum(overprov_cli):
    rc, out, err = overprov_cli("simulate", "--user-bytes", "1k", "--check")
    assert rc == 2, (out, err)
    assert "--user-bytes 1 kB: too small for a drive with these settings" in err
    # the minimum is the core's own answer: 15 erase blocks of 1 MiB pass, 14 do not
    assert "at least 15.7 MB (15,728,640 B)" in err
    rc, out, err = overprov_cli("simulate", "--user-bytes", str(15 * 2**20), "--check")
    assert rc == 0, err
    rc, out, err = overprov_cli("simulate", "--user-bytes", str(14 * 2**20), "--check")
    assert rc == 2 and "at least 15.7 MB" in err
