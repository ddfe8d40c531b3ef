"""The Grafana dashboard in contrib/grafana/ loaded and checked against what a running exporter
exports and the recording rules of contrib/prometheus/: every metric it queries exists, and
every metric and recorded series has a panel. The drive ratings (--rated-tbw, --rated-dwpd)
are checked on the same scrape."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from exporter_helpers import SMART_FILES, real_sources, scrape, start_exporter, stop
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "contrib" / "grafana" / "overprov-dashboard.json"
RULES = ROOT / "contrib" / "prometheus" / "overprov-rules.yml"
NAME = re.compile(r"\b(overprov[_:][A-Za-z0-9_:]*)")


def dashboard_exprs() -> list[str]:
    dash = json.loads(DASHBOARD.read_text())
    assert dash["panels"] and dash["templating"]["list"][0]["name"] == "device"
    exprs = [t["expr"] for p in dash["panels"] for t in p["targets"]]
    exprs += [v["query"] for v in dash["templating"]["list"]]
    return exprs


def recorded() -> set[str]:
    return set(re.findall(r"^\s*- record: (\S+)$", RULES.read_text(), re.M))


@pytest.fixture(scope="module")
def rated_scrape(tmp_path_factory) -> tuple[str, str, str]:
    """Every real sample, and two written per nvme-cli's print code (no real capture holds
    them: FDP statistics for media bytes erased, an OCP C0h log of version 5 for the average
    erase count), so every metric has a series; and two drives rated by flags."""
    sources, _pair = real_sources(tmp_path_factory.mktemp("dashboard"))
    from_source = ROOT / "tests" / "data" / "nvme-vendor-from-source"
    sources += [str(from_source / "fdp-stats.txt"), str(from_source / "ocp-smart-add-log-v5.txt")]
    with_capacity = next(
        p for p in SMART_FILES if json.loads(p.read_text()).get("user_capacity", {}).get("bytes")
    )
    other = next(p for p in SMART_FILES if p != with_capacity)
    dwpd, tbw = with_capacity.stem, other.stem
    proc, url = start_exporter(
        "--from-files", *sources,
        "--rated-dwpd", f"{dwpd}=0.3:5", "--rated-tbw", f"{tbw}=600",
    )  # fmt: skip
    try:
        return scrape(url), dwpd, tbw
    finally:
        stop(proc)


def test_dashboard_queries_only_what_exists_and_shows_everything(rated_scrape):
    text, _dwpd, _tbw = rated_scrape
    exported = {s.name for f in text_string_to_metric_families(text) for s in f.samples}
    known = exported | recorded()
    used = {n for e in dashboard_exprs() for n in NAME.findall(e)}
    assert used <= known, sorted(used - known)
    assert known <= used, f"no panel for {sorted(known - used)}"


def test_ratings_from_flags(rated_scrape):
    text, dwpd, tbw = rated_scrape
    got = {
        (s.name, s.labels.get("device")): s.value
        for f in text_string_to_metric_families(text)
        for s in f.samples
    }
    capacity = got[("overprov_device_capacity_bytes", dwpd)]
    assert got[("overprov_device_rated_endurance_bytes", dwpd)] == pytest.approx(
        0.3 * capacity * 365 * 5
    )
    assert got[("overprov_device_rated_endurance_bytes", tbw)] == 600e12


@pytest.mark.parametrize(
    "flag", [["--rated-tbw", "nosuch=600"], ["--rated-dwpd", "x=0.3"], ["--rated-tbw", "x=-1"]]
)
def test_bad_ratings_refused(flag, tmp_path, capsys):
    from overprov import cli

    src = tmp_path / "x.json"
    src.write_text(SMART_FILES[0].read_text())
    code = cli.main(["exporter", "--listen", "127.0.0.1:0", "--from-files", str(src), *flag])
    assert code == 2
    assert flag[0] in capsys.readouterr().err
