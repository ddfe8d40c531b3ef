"""profile --fdp-ranges: fio's FDP options planned on devices, placement simulated on sim:."""

from __future__ import annotations

import json

import jsonschema
from overprov.profile import fdp_fio
from overprov.profile.target_kinds import make_target
from overprov.profile.targets import RoundSpec
from overprov.results import SCHEMA_PATH

RANGES = "0-5=0,5-100=1"


def test_dry_run_on_a_block_device_shows_fio_fdp_options_and_refuses_it(overprov_cli, loop_device):
    dev = loop_device(64 * 1024 * 1024)
    rc, text, err = overprov_cli("profile", dev, "--dry-run", "--fdp-ranges", RANGES)
    assert rc == 0, err
    for opt in ("ioengine=io_uring_cmd", "cmd_type=nvme", "dataplacement=fdp",
                "plid_select=scheme", "dp_scheme=fdp-scheme.txt"):  # fmt: skip
        assert opt in text, opt
    # 5% of 64 MiB rounded to 4 KiB blocks: 3,354,624 bytes
    assert "    0, 3354624, 0\n    3354624, 67108864, 1" in text
    assert f"refused: {dev}: a block device" in text and "/dev/ngXnY" in text
    missing = fdp_fio.missing_fio_options()
    if missing:  # fio before 3.38: the refusal names what it lacks and the version needed
        assert f"lacks {', '.join(missing)}: FDP placement needs fio-3.38 or later" in text


def test_device_run_with_fdp_ranges_is_refused_before_anything_is_written(overprov_cli, tmp_path):
    target, out = tmp_path / "absent.img", tmp_path / "out"
    rc, _, err = overprov_cli("profile", str(target), "--size", "16MiB", "--fdp-ranges", RANGES,
                              "--out", str(out))  # fmt: skip
    assert rc == 2 and "--fdp-ranges:" in err and "not a sim: target" in err
    assert not target.exists() and not out.exists()


def test_malformed_ranges_name_the_flag(overprov_cli, tmp_path):
    for bad, why in (("0-5", "is not START-END=ID"), ("0-5=x", "is not a whole number"),
                     ("0-500=1", "--fdp-ranges")):  # fmt: skip
        rc, _, err = overprov_cli("profile", "sim:consumer-tlc-sata@1GiB", "--dry-run",
                                  "--fdp-ranges", bad)  # fmt: skip
        assert rc == 2 and "--fdp-ranges" in err and why in err, err


def test_char_device_check_names_the_generic_device_of_an_nvme_namespace(tmp_path):
    assert "a character device but not an NVMe generic one" in fdp_fio.char_device_check(
        "/dev/null"
    )
    link = tmp_path / "nvme3n2"
    link.write_bytes(b"")
    assert "nvme3n2: not a device" in fdp_fio.char_device_check(str(link))
    assert "(/dev/ng3n2)" in fdp_fio.char_device_check(str(link))


def test_sim_rounds_write_through_the_handle_of_their_range():
    t = make_target("sim:consumer-tlc-sata@1GiB", None, fdp_ranges="0-25=0,25-100=1")
    t.open()
    try:
        t.run(RoundSpec(label="r", rw="randwrite", bs_bytes=4096, qd=32, jobs=1,
                        span_bytes=t.capacity_bytes, seconds=2))  # fmt: skip
        handles = json.loads(t._sim.report_json())["placement"]["handles"]
    finally:
        t.close()
    share = {h["id"]: h["host_share_percent"] for h in handles}
    assert abs(share[0] - 25.0) < 2.0 and abs(share[1] - 75.0) < 2.0, share


def test_sim_profile_with_fdp_ranges_records_them_and_validates(overprov_cli, tmp_path):
    docs = {}
    for name, extra in (("plain", ()), ("fdp", ("--fdp-ranges", "0-50=0,50-100=1"))):
        out = tmp_path / name
        rc, _, err = overprov_cli("profile", "sim:consumer-tlc-sata@1GiB", "--extra-op", "20",
                                  "--round-seconds", "2500", "--out", str(out), "--no-report",
                                  *extra)  # fmt: skip
        assert rc == 0, err
        docs[name] = json.loads((out / "results.json").read_text())
    schema = json.loads(SCHEMA_PATH.read_text())
    jsonschema.validate(docs["fdp"], schema)
    assert docs["fdp"]["settings"]["fdp_ranges"] == "0-50=0,50-100=1"
    assert docs["fdp"]["target"]["fdp_ranges"] == "0-50=0,50-100=1"
    assert "fdp_ranges" not in docs["plain"]["target"]
    # the same seed and rounds; only the placement differs, and it changes what was measured
    iops = [d["phases"][0]["rounds"][-1]["iops"] for d in docs.values()]
    assert iops[0] != iops[1], iops
