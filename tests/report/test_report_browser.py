"""The reports rendered in a real headless Chromium (Debian package chromium), driven over
the DevTools protocol: the page loads with no console error and no request leaving the page,
every figure is present and decoded, and a full-page screenshot is kept as a test artifact in
test-artifacts/report/ (looked at by a person while the report was built)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ARTIFACTS
from overprov.report import write_report
from PIL import Image, ImageStat
from report_browser import Chromium, find_chromium
from report_checks import figure_keys

CHROMIUM = find_chromium()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (Debian package chromium)"
)


@pytest.fixture(scope="module")
def browser():
    with Chromium(CHROMIUM, width=1280, height=900) as c:
        yield c


FIGURES_JS = """
Array.from(document.querySelectorAll('figure')).map(f => {
  const img = f.querySelector('img');
  return {id: f.id, complete: img.complete, w: img.naturalWidth, h: img.naturalHeight,
          shownW: img.getBoundingClientRect().width, src: img.src.slice(0, 22),
          caption: f.querySelector('figcaption').textContent.length};
})
"""


def _check_rendered(browser: Chromium, out: Path, name: str) -> dict:
    page = browser.load((out / "report.html").resolve().as_uri())
    assert page.errors == [], page.errors
    # nothing fetched but the page itself and its inline figures
    assert page.requests[0].startswith("file://")
    assert all(u.startswith("data:image/png;base64,") for u in page.requests[1:]), page.requests
    figures = browser.evaluate(FIGURES_JS)
    assert {f["id"] for f in figures} == {f"fig-{k}" for k in figure_keys(out)}
    for f in figures:
        assert f["complete"] and f["src"] == "data:image/png;base64,", f
        assert f["w"] >= 800 and f["h"] >= 300, f  # decoded by the browser
        assert f["shownW"] >= 700, f  # laid out at a readable width
        assert f["caption"] > 20, f
    # the answer and the header are on the page as text
    text = browser.evaluate("document.body.innerText")
    assert "The answer" in text and "What was tested" in text
    shot = ARTIFACTS / f"{name}.png"
    width, height = browser.screenshot(shot)
    with Image.open(shot) as im:
        assert im.size == (width, height)
        gray = im.convert("L")
        stat = ImageStat.Stat(gray)
        assert stat.stddev[0] > 20, "screenshot is (nearly) blank"
        colors = im.convert("RGB").getcolors(maxcolors=1 << 20) or []
        assert len(colors) > 500, "screenshot has too few colours to hold figures"
        # the dark header band is drawn at the top
        assert gray.crop((0, 0, width, 40)).getextrema()[0] < 60
    (ARTIFACTS / f"{name}.dom.html").write_text(browser.dom())
    return {"text": text, "figures": figures}


def test_the_checks_catch_a_broken_page(browser, tmp_path):
    """Negative control: the same checks see console errors, exceptions and a broken image."""
    bad = tmp_path / "bad.html"
    bad.write_text(
        "<!DOCTYPE html><html><body><img src='data:image/png;base64,AAAA'>"
        "<script>console.error('boom'); throw new Error('kaput');</script></body></html>"
    )
    page = browser.load(bad.resolve().as_uri())
    joined = " ".join(page.errors)
    assert "console.error: boom" in joined and "kaput" in joined
    img = browser.evaluate("document.images[0].naturalWidth")
    assert img == 0


def test_simulation_report_in_chromium(browser, sim_json, tmp_path):
    out = tmp_path / "rep"
    write_report([sim_json], out, nand="tlc")
    got = _check_rendered(browser, out, "report-sim")
    assert "less NAND wear at 30% than at 0%" in got["text"]


def test_timed_and_compared_report_in_chromium(browser, timed_real_json, sim_fifo_json, tmp_path):
    """A real timed simulation (consumer TLC preset) beside an untimed FIFO sweep."""
    out = tmp_path / "rep"
    write_report([timed_real_json, sim_fifo_json], out, target_iops=40_000)
    got = _check_rendered(browser, out, "report-timed-vs-fifo")
    assert re.search(r"\d+%\s*recommended extra OP for 40,000 IOPS", got["text"])


def test_fio_profile_report_in_chromium(browser, fio_profile):
    got = _check_rendered(browser, fio_profile, "report-fio-profile")
    assert "fio-3" in got["text"]


def test_sim_profile_report_in_chromium(browser, sim_profile):
    got = _check_rendered(browser, sim_profile, "report-sim-profile")
    assert "profile (simulated drive)" in got["text"]
