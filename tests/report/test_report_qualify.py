"""The report of a qualification: ``overprov report`` on a qualify folder or its JSON shows
each test's verdict and the figures behind it, SIMULATED for a simulated drive."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from matplotlib.colors import to_hex
from overprov.report import write_report
from overprov.report.load import load_inputs
from overprov.report.plots_qualify import VERDICT_COLORS, plot_qualify
from report_checks import check_page
from report_cli import overprov


def test_report_of_a_simulated_qualification_shows_every_verdict(
    qualify_sim, tmp_path, overprov_cli
):
    text = check_page(qualify_sim)  # written by qualify itself
    doc = json.loads((qualify_sim / "qualify.json").read_text())
    for t in doc["tests"]:
        assert t["verdict"].upper() in text and t["test"] in text
    # the figures behind the verdicts, as computed
    cache = doc["tests"][0]["figures"]
    assert f"{cache['write_through']['iops']:,.0f}" in text
    assert f"{cache['write_back']['iops']:,.0f}" in text
    idle = next(t for t in doc["tests"] if t["test"] == "idle_recovery")["figures"]
    for w in idle["waits"]:
        assert f"{w['wait_s']:g} s" in text and f"{w['recovery']:+.0%}" in text
    cons = next(t for t in doc["tests"] if t["test"] == "consistency")["figures"]
    assert f"{cons['latency_p99_99_us']:,.0f}" in text
    assert "SIMULATED" in text and "consumer-tlc-sata" in text
    assert "qualify (simulated drive)" in text and "not fit: failed cache" in text.lower()
    # the same page from the JSON file alone, through `overprov report` (in-process: the
    # command's child-process contract is test_report_build.py's and the refusal's below)
    rc, _, err = overprov_cli("report", str(qualify_sim / "qualify.json"), "--out",
                              str(tmp_path / "r"))  # fmt: skip
    assert rc == 0, err
    again = check_page(tmp_path / "r")
    assert "Qualification" in again and "flushes wait for NAND" in again
    # qualify results carry no WAF per OP level: no (empty) Endurance section
    assert 'id="endurance"' not in again and "No rated endurance" not in again


def test_a_qualify_source_has_no_op_levels_and_keeps_its_document(qualify_sim):
    (source,) = load_inputs([qualify_sim])
    assert source.kind == "qualify" and source.phases == [] and source.simulated
    assert source.sim_tag.startswith("SIMULATED · consumer-tlc-sata · scale 1/")
    assert [t["test"] for t in source.qualify["tests"]][:2] == ["cache", "trim_recovery"]


def test_a_broken_qualify_file_is_refused_naming_the_field(qualify_sim, tmp_path):
    doc = json.loads((qualify_sim / "qualify.json").read_text())
    doc["tests"][0]["verdict"] = "maybe"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    res = overprov("report", str(bad), "--out", str(tmp_path / "r"))
    assert res.returncode == 2 and "verdict" in res.stderr and "bad.json" in res.stderr


@pytest.mark.fio
def test_report_of_a_fio_qualification(qualify_fio, tmp_path):
    text = check_page(qualify_fio)
    assert "qualify (fio)" in text and "SIMULATED" not in text
    doc = json.loads((qualify_fio / "qualify.json").read_text())
    idle = next(t for t in doc["tests"] if t["test"] == "idle_recovery")["figures"]
    assert [w["wait_s"] for w in idle["waits"]] == [1.0, 2.0]


@pytest.mark.fio
def test_a_measured_and_a_simulated_qualification_side_by_side(qualify_fio, qualify_sim, tmp_path):
    out = write_report([qualify_fio, qualify_sim / "qualify.json"], tmp_path / "both")
    text = check_page(tmp_path / "both")
    assert out.name == "report.html" and text.count('id="fig-qualify-') == 2
    section = text[text.index('<section id="qualify">') :]
    assert "<h3>qualify drive.img</h3>" in section
    assert "<h3>qualify sim:consumer-tlc-sata@2GiB</h3>" in section
    # only the simulated one is marked SIMULATED inside the section
    assert section.count("every figure below is computed by the simulator") == 1


def _words(html_text: str) -> str:
    text = re.sub(r"<(style|script)[^>]*>.*?</\1>", "", html_text, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", text)))


def test_a_window_marked_transition_is_never_called_steady(qualify_sim, tmp_path):
    """The simulated drive's last drive write is still in transition (at 2 GiB the run of 3
    drive writes never reaches steady state): the finding, the table, the figure and the
    method name it so, in a document qualify writes now and in one written with the old
    words ("steady window p99 ...")."""
    doc = json.loads((qualify_sim / "qualify.json").read_text())
    cons = next(t for t in doc["tests"] if t["test"] == "consistency")
    assert "transition" in cons["figures"]["window_states"]
    assert "steady" not in cons["figures"]["window_states"]
    words = _words(check_page(qualify_sim))
    assert "steady window" not in words
    assert words.count("last drive write (transition, not steady)") >= 3  # finding, table, card
    # a document of the earlier words is relabelled by its own window_states
    old = json.loads(json.dumps(doc))
    for t in old["tests"]:
        if t["test"] in ("consistency", "write_cliff"):
            t["finding"] = t["finding"].replace(
                "last drive write (transition, not steady): p99", "steady window p99"
            )
            t["method"] = t["method"].split("; latency over")[0] + (
                "; the steady window is the last drive write"
            )
    assert "steady window" in json.dumps(old)
    (tmp_path / "old.json").write_text(json.dumps(old))
    write_report([tmp_path / "old.json"], tmp_path / "r")
    assert "steady window" not in _words(check_page(tmp_path / "r"))
    (src,) = load_inputs([tmp_path / "old.json"])
    fig = plot_qualify(src)
    ax = next(a for a in fig.axes if a.get_title().startswith("IO consistency"))
    assert ax.get_xlabel() == "over the last drive write (transition, not steady)"


def test_one_fresh_figure_per_page_and_it_is_named(qualify_sim):
    """The TRIM test's first pass and the write cliff's fresh-out-of-box level are two
    measurements: only the latter is called fresh, once, by its name."""
    doc = json.loads((qualify_sim / "qualify.json").read_text())
    by = {t["test"]: t["figures"] for t in doc["tests"]}
    fob = by["write_cliff"]["cliff"]["fob_iops"]
    first = by["trim_recovery"]["fresh_iops"]
    assert round(fob) != round(first)  # two different figures
    words = _words(check_page(qualify_sim))
    near_fresh = set(re.findall(r"fresh\b(?:-out-of-box)?(?: IOPS)?\D{0,12}?(\d[\d,]{3,})", words))
    near_fresh |= set(re.findall(r"(\d[\d,]{3,}) IOPS fresh", words))
    assert near_fresh == {f"{fob:,.0f}"}, near_fresh
    assert f"fresh-out-of-box {fob:,.0f} IOPS" in words
    assert f"first pass after the purge {first:,.0f}" in words


def _cache_bar_colors(doc: dict, verdict: str, tmp_path) -> tuple:
    doc = json.loads(json.dumps(doc))
    cache = next(t for t in doc["tests"] if t["test"] == "cache")
    cache["verdict"] = verdict
    path = tmp_path / f"{verdict}.json"
    path.write_text(json.dumps(doc))
    (src,) = load_inputs([path])
    fig = plot_qualify(src)
    ax = next(a for a in fig.axes if a.get_title().startswith("cache"))
    return tuple(to_hex(p.get_facecolor()) for p in ax.patches[:2])


def test_the_write_through_bar_is_red_only_on_a_fail(qualify_sim, tmp_path):
    doc = json.loads((qualify_sim / "qualify.json").read_text())
    red = VERDICT_COLORS["fail"]
    assert _cache_bar_colors(doc, "fail", tmp_path)[1] == red
    wb, wt = _cache_bar_colors(doc, "pass", tmp_path)
    assert wt != red and wt == wb


def test_log_axes_of_the_qualify_figure_read_as_plain_numbers(qualify_sim):
    """The consistency panel's log axis: several ticks, none in scientific notation."""
    (src,) = load_inputs([qualify_sim])
    fig = plot_qualify(src)
    fig.canvas.draw()
    for ax in fig.axes:
        if ax.get_yscale() != "log":
            continue
        lo, hi = ax.get_ylim()
        labels = [
            t.get_text()
            for t in ax.get_yticklabels(which="both")
            if t.get_text() and lo <= t.get_position()[1] <= hi
        ]
        assert len(labels) >= 3, (ax.get_title(), labels)
        assert not any("$" in x or "^" in x or "e+" in x for x in labels), labels
