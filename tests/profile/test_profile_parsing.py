"""fio output parsed by field presence, across fio versions (no fio needed)."""

from __future__ import annotations

import pytest
from overprov import fio as fiomod
from overprov.errors import ToolError

# fio 3.x prints this on Ctrl-C before the JSON, and bare -nan for a one-sample slope.
FIO3_TEXT = """fio: terminating on signal 2
{
  "fio version" : "fio-3.33",
  "jobs" : [
    {
      "jobname" : "m0", "groupid" : 0, "error" : 0,
      "write" : {
        "io_bytes" : 8192, "io_kbytes" : 8, "iops" : 2.0, "runtime" : 1000,
        "clat_ns" : {"mean" : 1500.5, "max" : 4000,
                     "percentile" : {"50.000000" : 1024, "99.000000" : 4000, "99.900000" : 4000},
                     "bins" : {"1024" : 1, "4000" : 1}},
        "lat_ns" : {"mean" : 1600.0}
      },
      "steadystate" : {"ss" : "iops_slope:10.000000%", "duration" : 1, "attained" : 1,
                       "criterion" : "-nan%", "slope" : -nan,
                       "data" : {"iops" : [2], "bw" : [8]}}
    }
  ]
}
"""

# fio 2.x: latencies in µs under "clat"/"lat", no io_bytes, percentiles under clat.
FIO2_TEXT = """{
  "fio version" : "fio-2.2.10",
  "jobs" : [
    {"jobname" : "j", "groupid" : 0, "error" : 0,
     "write" : {"io_kbytes" : 400, "bw" : 400, "iops" : 100.5, "runtime" : 1000,
                "clat" : {"min" : 10, "max" : 900, "mean" : 50.25,
                          "percentile" : {"50.000000" : 40, "99.000000" : 800}},
                "lat" : {"mean" : 55.0}}}
  ]
}
"""


def test_fio3_output_with_leading_text_and_nan():
    doc = fiomod.parse_json_output(FIO3_TEXT)
    g = fiomod.write_figures(doc["jobs"][0])
    assert g.bytes_written == 8192 and g.iops == 2.0 and g.runtime_s == 1.0
    assert g.latency_us["mean"] == pytest.approx(1.5005)
    assert g.latency_us["p50"] == pytest.approx(1.024)
    assert g.latency_us["p99_9"] == pytest.approx(4.0)
    assert g.latency_us["p90"] is None  # not asked of fio: unknown, not invented
    assert g.latency_bins_ns == {1024: 1, 4000: 1}
    assert g.steadystate["attained"] is True
    assert g.steadystate["criterion_percent"] is None and g.steadystate["slope"] is None


def test_fio2_output_latency_in_microseconds_and_kbytes():
    doc = fiomod.parse_json_output(FIO2_TEXT)
    g = fiomod.write_figures(doc["jobs"][0])
    assert g.bytes_written == 400 * 1024
    assert g.iops == pytest.approx(100.5)
    assert g.latency_us["mean"] == pytest.approx(50.25)
    assert g.latency_us["p99"] == pytest.approx(800)
    assert g.latency_us["max"] == pytest.approx(900)
    assert g.steadystate is None
    assert g.latency_bins_ns == {}


def test_missing_write_section_and_garbage_are_errors():
    with pytest.raises(ToolError):
        fiomod.write_figures({"jobname": "x", "read": {}})
    with pytest.raises(ValueError):
        fiomod.parse_json_output("fio: no json here\n")


def test_iops_log_columns_vary_and_reads_are_ignored(tmp_path):
    log = tmp_path / "x_iops.1.log"
    log.write_text(
        "1000, 500, 1, 4096\n"  # old: 4 columns
        "1000, 77, 0, 4096, 0, 0\n"  # a read sample: ignored
        "2001, 510, 1, 4096, 0, 0\n"  # new: 6 columns
        "garbage line\n"
        "2999, 490, 1, 0, 0\n"
    )
    assert fiomod.parse_iops_log(log) == {1: 500.0, 2: 510.0, 3: 490.0}
    assert fiomod.iops_logs(tmp_path, "x") == [log]


def test_series_sum_uses_seconds_present_in_every_log():
    a = {1: 100.0, 2: 110.0, 3: 90.0}
    b = {1: 50.0, 2: 55.0}  # its last second was not logged
    assert fiomod.sum_series([a, b]) == [150.0, 165.0]
    assert fiomod.sum_series([]) == []


def test_percentiles_from_bins():
    bins = {1000: 90, 2000: 9, 50_000: 1}
    p = fiomod.percentiles_from_bins_us(bins, (50, 90, 99, 99.9))
    assert p == {"p50": 1.0, "p90": 1.0, "p99": 2.0, "p99_9": 50.0}
    assert fiomod.percentiles_from_bins_us({}, (50,)) == {"p50": None}


def test_job_file_rendering_and_filename_escaping():
    text = fiomod.render_job_file(
        {"rw": "randwrite", "direct": True},
        [
            ("m0", {"filename": fiomod.escape_filename("/dev/disk/by-path/pci-0000:00:1f.2")}),
            ("m1", {"new_group": None}),
        ],
        comment="two\nlines",
    )
    assert text.splitlines() == [
        "# two",
        "# lines",
        "[global]",
        "rw=randwrite",
        "direct=1",
        "",
        "[m0]",
        "filename=/dev/disk/by-path/pci-0000\\:00\\:1f.2",
        "",
        "[m1]",
        "new_group",
    ]
