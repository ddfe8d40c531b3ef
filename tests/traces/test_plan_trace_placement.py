"""``overprov plan --trace FILE --placement fdp|namespaces --fdp-ranges MAP``: the trace replayed
at each OP level without placement and with a handle (or namespace) per LBA range, and the extra
OP the placement gives back (docs/fdp.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from overprov.json_schemas import validate_document

PRESET = ("--preset", "enterprise-tlc-nvme", "--scale", "2GiB", "--jobs", "1")
SAMPLE = Path(__file__).parents[1] / "data" / "traces" / "mqsim-tpcc-small.trace"
MAP = ("--fdp-ranges", "0-4=0,4-100=1")


@pytest.fixture(scope="module")
def cache_trace(tmp_path_factory) -> Path:
    """A flash cache's writes: 60 % random 4 KiB over the first 48 MiB, 40 % a sequential log
    through the next 1,152 MiB (wrapping), 1 ms apart."""
    rng = random.Random(5)
    hot, span, log = 48 << 20, 1200 << 20, 48 << 20
    lines = ["time_ns,op,offset_bytes,len_bytes,device"]
    for i in range(200_000):
        if rng.random() < 0.6:
            offset = rng.randrange(hot // 4096) * 4096
        else:
            offset, log = log, log + 4096 if log + 4096 < span else hot
        lines.append(f"{i * 1_000_000},W,{offset},4096,0")
    path = tmp_path_factory.mktemp("plan_placement") / "cache.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def plan(overprov_cli, *argv: str) -> tuple[int, dict, str]:
    rc, out, err = overprov_cli("plan", *argv, "--json", "-")
    doc = json.loads(out[out.index("{\n") :]) if "{\n" in out else {}
    if doc:
        validate_document(doc, doc["schema"], "plan --trace --placement")
    return rc, doc, out + err


def cache_plan(overprov_cli, trace: Path, mode: str, levels: str) -> tuple[dict, str]:
    """The flash cache's plan for 2 DWPD with ``--placement mode`` over MAP."""
    rc, doc, text = plan(
        overprov_cli, "--trace", str(trace), *PRESET, "--extra-op", levels, "--placement", mode,
        *MAP, "--target-dwpd", "2", "--pe-cycles", "3000",
    )  # fmt: skip
    assert rc == 0, text
    return doc, text


def test_fdp_over_a_range_map_lowers_the_waf_and_gives_back_op(overprov_cli, cache_trace):
    doc, text = cache_plan(overprov_cli, cache_trace, "fdp", "0,10,20")
    p = doc["placement"]
    assert p["mode"] == "fdp" and p["ranges"][0] == {"start_percent": 0, "end_percent": 4, "id": 0}
    with_fdp = [lv["waf"] for lv in doc["trace"]["levels"]]
    without = [lv["waf"] for lv in p["without"]["trace"]["levels"]]
    # the log's pages no longer share erase units with the random writes: at 0 % extra OP the
    # drive without placement relocates, with FDP it does not
    assert without[0] > 1.2 and with_fdp[0] < 1.05, (without, with_fdp)
    assert all(w <= o + 1e-9 for w, o in zip(with_fdp, without, strict=True))
    need = p["without"]["target_dwpd_extra_op_percent"]
    need_fdp = doc["target_dwpd_extra_op_percent"]
    assert need > need_fdp and p["target_dwpd_give_back_percent"] == round(need - need_fdp, 1)
    assert f"FDP lets you give back {p['target_dwpd_give_back_percent']:.1f} % of the drive" in text
    assert "Without data placement:" in text and "With FDP:" in text
    # each level's run with placement reports its two handles; without placement none
    lv = doc["trace"]["levels"][0]["placement"]
    assert lv["isolation"] == "initially-isolated" and [h["id"] for h in lv["handles"]] == [0, 1]
    assert "placement" not in p["without"]["trace"]["levels"][0]


def test_namespaces_are_persistently_isolated_handles_over_the_map(overprov_cli, cache_trace):
    doc, text = cache_plan(overprov_cli, cache_trace, "namespaces", "0,20")
    assert doc["placement"]["mode"] == "namespaces"
    assert doc["placement"]["isolation"] == "persistently-isolated"
    for lv in doc["trace"]["levels"]:
        assert lv["placement"]["isolation"] == "persistently-isolated"
        assert sum(h["host_share_percent"] for h in lv["placement"]["handles"]) == pytest.approx(
            100
        )
    assert "With a namespace per range:" in text
    assert "Per reclaim-unit handle (persistently-isolated;" in text
    assert "A namespace per range lets you give back" in text


@pytest.fixture(scope="module")
def three_streams(tmp_path_factory) -> Path:
    """Writes over 1.8 GiB: 60 % random over the first tenth, 30 % a sequential log through the
    next three tenths, 10 % random over the rest (a noisy-handle workload, docs/fdp.md)."""
    rng = random.Random(7)
    pages = int(1.8 * (1 << 30)) // 4096
    hot, log_end, log = pages // 10, pages // 10 + 3 * pages // 10, pages // 10
    lines = ["time_ns,op,offset_bytes,len_bytes,device"]
    for i in range(400_000):
        r = rng.random()
        if r < 0.6:
            page = rng.randrange(hot)
        elif r < 0.9:
            page, log = log, log + 1 if log + 1 < log_end else hot
        else:
            page = rng.randrange(log_end, pages)
        lines.append(f"{i * 100_000},W,{page * 4096},4096,0")
    path = tmp_path_factory.mktemp("plan_placement") / "three.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_namespaces_keep_the_cold_range_from_the_hot_ones_gc(overprov_cli, three_streams):
    wafs = {}
    for mode in ("fdp", "namespaces"):
        rc, doc, text = plan(
            overprov_cli, "--trace", str(three_streams), "--preset", "consumer-tlc-sata",
            "--scale", "2GiB", "--jobs", "1", "--extra-op", "0", "--placement", mode,
            "--fdp-ranges", "0-9.7=0,9.7-38.6=1,38.6-100=2",
        )  # fmt: skip
        assert rc == 0, text
        handles = doc["trace"]["levels"][0]["placement"]["handles"]
        wafs[mode] = (doc["rows"][0]["waf"], handles[2]["ftl_waf"])
        wafs["none"] = (doc["placement"]["without"]["rows"][0]["waf"], None)
    # initially isolated, GC mixes the cold range's data with the hot range's and relocates
    # it again and again; a namespace's data stays in its own erase units
    assert wafs["none"][0] > wafs["fdp"][0] > wafs["namespaces"][0], wafs
    assert wafs["fdp"][1] > 2 * wafs["namespaces"][1], wafs


def test_a_trace_samples_writes_are_routed_by_the_range_map(overprov_cli):
    rc, doc, text = plan(
        overprov_cli, "--trace", str(SAMPLE), *PRESET, "--extra-op", "0",
        "--placement", "fdp", "--fdp-ranges", "0-50=0,50-100=1",
    )  # fmt: skip
    assert rc == 0, text
    handles = doc["trace"]["levels"][0]["placement"]["handles"]
    # MQSim's TPC-C writes, folded onto the drive, land in both halves
    assert [h["id"] for h in handles] == [0, 1]
    assert all(h["host_pages"] > 0 for h in handles), handles
    assert sum(h["host_share_percent"] for h in handles) == pytest.approx(100)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--placement", "fdp"), "--placement fdp: give the placement IDs with --fdp-ranges"),
        (
            ("--placement", "namespaces"),
            "--placement namespaces: give the placement IDs with --fdp-ranges",
        ),
        (MAP, "--fdp-ranges: only with --placement fdp or namespaces"),
        (("--placement", "none", *MAP), "--fdp-ranges: only with --placement"),
        (("--fdp-isolation", "persistently-isolated"), "--fdp-isolation: only with --placement"),
        (
            ("--placement", "namespaces", *MAP, "--fdp-isolation", "initially-isolated"),
            "--fdp-isolation: not with --placement namespaces",
        ),
        (("--placement", "fdp", *MAP, "--zones", "60/5:40/95"), "--zones: not with --trace"),
        (("--placement", "fdp", "--fdp-ranges", "0-60=0,50-100=1"), "placement.ranges[1]"),
    ],
)
def test_trace_placement_flags_are_refused_by_name(overprov_cli, args, needle):
    rc, _, err = overprov_cli("plan", "--trace", str(SAMPLE), *PRESET, "--extra-op", "0", *args)
    assert rc == 2 and needle in err, err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--simulate", *MAP), "--fdp-ranges: only with --trace"),
        (("--simulate", "--placement", "namespaces", "--zones", "60/5:40/95"),
         "--placement namespaces: only with --trace"),
    ],
)  # fmt: skip
def test_simulate_placement_refuses_the_trace_only_flags(overprov_cli, args, needle):
    rc, _, err = overprov_cli("plan", "--capacity", "960GB", "--extra-op", "0", *args)
    assert rc == 2 and needle in err, err
