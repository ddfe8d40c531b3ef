"""The reports rendered in a real headless Chromium (Debian package chromium), driven over
the DevTools protocol: the page loads with no console error and no request leaving the page,
every figure is present and decoded, and a full-page screenshot is kept as a test artifact in
test-artifacts/report/ (looked at by a person while the report was built)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from overprov.report import write_report
from PIL import Image, ImageStat
from report_browser import TEXT_OVERLAPS_JS, Chromium, find_chromium
from report_checks import figure_keys
from report_cli import ARTIFACTS, made_in_process

CHROMIUM = find_chromium()
PDFTOPPM = shutil.which("pdftoppm")
PDFTOTEXT = shutil.which("pdftotext")
pytestmark = [
    pytest.mark.skipif(
        CHROMIUM is None, reason="chromium is not installed (Debian package chromium)"
    ),
    pytest.mark.slow,  # a real browser renders every page
]
DESKTOP, PHONE = 1400, 390  # CSS px: a desktop window and a phone (iPhone 12–15 width)


@pytest.fixture(scope="module")
def browsers():
    with (
        Chromium(CHROMIUM, width=DESKTOP, height=900) as wide,
        Chromium(CHROMIUM, width=PHONE, height=844) as narrow,
    ):
        yield {DESKTOP: wide, PHONE: narrow}


@pytest.fixture(scope="module")
def browser(browsers):
    return browsers[DESKTOP]


FIGURES_JS = """
Array.from(document.querySelectorAll('figure')).map(f => {
  const art = f.querySelector('.art > svg, .art > img');
  const box = f.querySelector('.art');
  const r = art.getBoundingClientRect();
  const fr = f.getBoundingClientRect();
  const out = {id: f.id, kind: art.tagName.toLowerCase(), shownW: r.width, shownH: r.height,
               right: fr.right, boxW: box.clientWidth, boxScrollW: box.scrollWidth,
               caption: f.querySelector('figcaption').textContent.length};
  if (out.kind === 'img') {
    let sd = -1;
    if (art.complete && art.naturalWidth > 0) {
      // decoded and not blank: the luminance spread of the image drawn small on a canvas
      const c = document.createElement('canvas'); c.width = 200; c.height = 120;
      const g = c.getContext('2d'); g.drawImage(art, 0, 0, 200, 120);
      const d = g.getImageData(0, 0, 200, 120).data;
      let s = 0, s2 = 0;
      for (let i = 0; i < d.length; i += 4) {
        const y = 0.3 * d[i] + 0.59 * d[i + 1] + 0.11 * d[i + 2]; s += y; s2 += y * y;
      }
      const n = d.length / 4; sd = Math.sqrt(Math.max(0, s2 / n - (s / n) ** 2));
    }
    Object.assign(out, {complete: art.complete, w: art.naturalWidth, h: art.naturalHeight,
                        sd: sd, src: art.currentSrc.slice(0, 22)});
  } else {
    Object.assign(out, {texts: art.querySelectorAll('text').length,
                        paths: art.querySelectorAll('path').length,
                        label: art.getAttribute('aria-label') || ''});
  }
  return out;
})
"""

LAYOUT_JS = """
({scrollWidth: document.scrollingElement.scrollWidth, viewport: window.innerWidth,
  answerTop: document.getElementById('answer').getBoundingClientRect().top,
  testedTop: document.getElementById('tested').getBoundingClientRect().top,
  wideBoxes: Array.from(document.querySelectorAll('table')).filter(
      t => t.getBoundingClientRect().right > window.innerWidth + 1
        && !t.closest('.scroll')).length})
"""


def _check_rendered(browsers: dict, out: Path, name: str) -> dict:
    """The page at a desktop and a phone width: no console error and nothing fetched, no
    sideways scroll of the page, every figure embedded once (inline SVG or a decoded,
    non-blank PNG) at a readable width (on a phone in a box of its own that scrolls), no text
    over text (HTML and figure text, by their boxes), and the answer first on a phone.
    Screenshots kept in test-artifacts/."""
    got = {}
    for width, browser in browsers.items():
        page = browser.load((out / "report.html").resolve().as_uri())
        assert page.errors == [], (width, page.errors)
        # nothing fetched but the page itself and its inline figures
        assert page.requests[0].startswith("file://")
        assert all(u.startswith("data:image/png;base64,") for u in page.requests[1:]), page.requests
        layout = browser.evaluate(LAYOUT_JS)
        assert layout["viewport"] == width
        assert layout["scrollWidth"] <= width, (width, layout)  # no sideways scroll
        assert layout["wideBoxes"] == 0, layout  # wide tables scroll inside their box
        figures = browser.evaluate(FIGURES_JS)
        assert {f["id"] for f in figures} == {f"fig-{k}" for k in figure_keys(out)}
        for f in figures:
            assert f["caption"] > 20, f
            assert f["right"] <= width + 0.5, f  # the figure's box stays on the page
            # laid out at a readable width: on a phone it keeps 760 px in a box that scrolls
            assert f["shownW"] >= 700, f
            if width == PHONE:
                assert f["boxW"] < width and f["boxScrollW"] >= f["shownW"] - 1, f
            if f["kind"] == "img":
                assert f["complete"] and f["src"] == "data:image/png;base64,", f
                assert f["sd"] > 8, f  # decoded and not blank
                assert f["w"] >= 800 and f["h"] >= 300, f
            else:
                assert f["texts"] >= 5 and f["paths"] >= 5 and f["label"], f
        overlaps = browser.evaluate(TEXT_OVERLAPS_JS)
        assert overlaps["boxes"] > 50 and overlaps["svgBoxes"] >= 5 * len(
            [f for f in figures if f["kind"] == "svg"]
        )
        assert overlaps["overlaps"] == [], (width, overlaps["overlaps"])
        if width == PHONE:
            assert layout["answerTop"] < layout["testedTop"], layout  # the answer first
        text = browser.evaluate("document.body.innerText")
        assert "The answer" in text and "What was tested" in text
        shot = ARTIFACTS / f"{name}-{width}.png"
        shot_w, shot_h = browser.screenshot(shot)
        with Image.open(shot) as im:
            assert im.size == (shot_w, shot_h)
            gray = im.convert("L")
            stat = ImageStat.Stat(gray)
            assert stat.stddev[0] > 20, "screenshot is (nearly) blank"
            # more than 500 colours: Pillow's count stops (None) once it passes the bound
            many = im.convert("RGB").getcolors(maxcolors=500) is None
            assert many, "screenshot has too few colours to hold figures"
            # the dark header band is drawn at the top
            assert gray.crop((0, 0, shot_w, 40)).getextrema()[0] < 60
        (ARTIFACTS / f"{name}-{width}.dom.html").write_text(browser.dom())
        got[width] = {"text": text, "figures": figures}
    _check_pdf(browsers[DESKTOP], out, name)
    return got[DESKTOP]


def _check_pdf(browser, out: Path, name: str) -> None:
    """The page printed by Chromium as its own --print-to-pdf prints it (the print stylesheet
    applies; the desktop browser already running prints the page it has loaded and checked,
    over the DevTools protocol, rather than a browser started for it), rendered page by page
    with pdftoppm (poppler-utils) and kept as PNGs beside the screenshots."""
    pdf = ARTIFACTS / f"{name}.pdf"
    pdf.unlink(missing_ok=True)
    assert browser.evaluate("location.href") == (out / "report.html").resolve().as_uri()
    browser.print_pdf(pdf)
    assert pdf.is_file()
    assert pdf.read_bytes()[:5] == b"%PDF-"
    if PDFTOPPM is None:
        return  # the PDF exists; rendering it needs poppler-utils
    for old in ARTIFACTS.glob(f"{name}-pdf-*.png"):
        old.unlink()
    subprocess.run(
        [PDFTOPPM, "-r", "45", "-png", str(pdf), str(ARTIFACTS / f"{name}-pdf")],
        check=True,
        timeout=180,
    )
    if PDFTOTEXT is not None:  # page 1 carries the answer (and its table, when it has one)
        first = subprocess.run(
            [PDFTOTEXT, "-f", "1", "-l", "1", "-layout", str(pdf), "-"],
            capture_output=True, text=True, timeout=60, check=True,
        ).stdout  # fmt: skip
        assert "The answer" in first, first[:2000]
        if 'class="decision"' in (out / "report.html").read_text():
            assert "meets" in first, first[:2000]  # the decision table's last column
    pages = sorted(ARTIFACTS.glob(f"{name}-pdf-*.png"))
    assert len(pages) >= 2, pages  # a report is several printed pages
    for page_png in pages[:2]:
        with Image.open(page_png) as im:
            w, h = im.size
            assert 1.3 < h / w < 1.5, (w, h)  # A4 portrait
            assert ImageStat.Stat(im.convert("L")).stddev[0] > 10, f"{page_png} is blank"


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


def test_the_overlap_check_sees_text_over_text(browser, tmp_path):
    """Negative control of TEXT_OVERLAPS_JS: HTML text placed over other text and an SVG label
    drawn over another are found; the same words side by side are not."""
    page = tmp_path / "overlap.html"
    page.write_text(
        "<!DOCTYPE html><html><body style='font:16px sans-serif'>"
        "<p>first paragraph of text</p><p>a second, separate paragraph</p>"
        "<div style='position:relative'><span>label one</span>"
        "<span style='position:absolute;left:8px;top:2px'>label two</span></div>"
        "<svg viewBox='0 0 400 100' width='400' height='100'>"
        "<text x='10' y='50' style='font:16px sans-serif'>10,000 IOPS</text>"
        "<text x='30' y='52' style='font:16px sans-serif'>fresh-out-of-box</text>"
        "<text x='200' y='50' style='font:16px sans-serif'>apart</text></svg>"
        "</body></html>"
    )
    browser.load(page.resolve().as_uri())
    found = browser.evaluate(TEXT_OVERLAPS_JS)["overlaps"]
    pairs = {frozenset((o["a"], o["b"])) for o in found}
    assert pairs == {
        frozenset(("label one", "label two")),
        frozenset(("10,000 IOPS", "fresh-out-of-box")),
    }, found


def test_simulation_report_in_chromium(browsers, sim_report):
    """``overprov report`` of a simulation with ``--nand tlc`` (conftest.sim_report, the page
    test_report_build.py reads)."""
    got = _check_rendered(browsers, sim_report, "report-sim")
    assert "less NAND wear at 30% than at 0%" in got["text"]


def test_timed_and_compared_report_in_chromium(browsers, timed_real_json, sim_fifo_json, tmp_path):
    """A real timed simulation (consumer TLC preset) beside an untimed FIFO sweep."""
    out = tmp_path / "rep"
    write_report([timed_real_json, sim_fifo_json], out, target_iops=40_000)
    got = _check_rendered(browsers, out, "report-timed-vs-fifo")
    assert re.search(r"\d+%\s*recommended extra OP for 40,000 IOPS", got["text"])


def test_fio_profile_report_in_chromium(browsers, fio_profile):
    got = _check_rendered(browsers, fio_profile, "report-fio-profile")
    assert "fio-3" in got["text"]


def test_sim_profile_report_in_chromium(browsers, sim_profile):
    got = _check_rendered(browsers, sim_profile, "report-sim-profile")
    assert "profile (simulated drive)" in got["text"]


def test_qualify_report_in_chromium(browsers, qualify_sim):
    """The page ``overprov qualify --out`` writes for a simulated drive: verdicts, the figure
    behind them, SIMULATED labels; at desktop and phone widths with no sideways scroll."""
    got = _check_rendered(browsers, qualify_sim, "report-qualify-sim")
    assert "Qualification" in got["text"] and "FAIL" in got["text"]
    assert "SIMULATED" in got["text"] and "tests passed" in got["text"]


def test_plan_report_in_chromium(browsers, trace_plan_folder):
    """``report plan.json`` of a trace plan: the answer card with its per-OP table (the page
    test_report_plan.py reads, conftest.trace_plan_folder: a DWPD and an IOPS target)."""
    got = _check_rendered(browsers, trace_plan_folder / "rep", "report-plan-trace")
    assert "extra OP that meets 0.7 DWPD over 5 years" in got["text"]


def test_trace_report_in_chromium(browsers, trace_replay):
    """A timed trace replay that folds onto a 32 MiB drive (simulate --trace --out; the page
    test_report_trace.py reads, conftest.trace_replay)."""
    got = _check_rendered(browsers, trace_replay, "report-trace")
    assert "fio-randrw.iolog" in got["text"] and "uniform" not in got["text"].lower()


def test_calibration_report_in_chromium(browsers, waf_calibration_report):
    """A calibration fitted to two WAF points (no drive written): the page
    test_report_calibrate.py reads (conftest.waf_calibration_report)."""
    got = _check_rendered(browsers, waf_calibration_report, "report-calibration")
    assert "a prediction, not a measurement" in got["text"]


def test_unlike_drives_overlaid_in_chromium(browsers, tmp_path):
    """Two simulated drives far apart (an enterprise NVMe and an older MLC SATA preset): the
    overlay's log axis and every label on the page clear of each other. Each at a small NAND
    size that keeps its behaviour: the enterprise drive at 4 GiB of NAND (129,473 and 283,422
    steady IOPS at 0 and 40% extra OP against 130,126 and 283,810 at 1/256 scale, 16 GiB;
    2.2 CPU s against 3.9), the MLC drive at 1 GiB (its 1/256 scale, the smallest it allows)."""
    sims = []
    for preset, nand in (("enterprise-tlc-nvme", "4GiB"), ("older-mlc-sata", "1GiB")):
        path = tmp_path / f"{preset}.json"
        res = made_in_process(
            "simulate", "--preset", preset, "--scale", nand, "--extra-op", "0,40",
            "--no-progress", "--json", str(path),
        )  # fmt: skip
        assert res.returncode == 0, res.stderr
        sims.append(path)
    out = tmp_path / "rep"
    write_report(sims, out, target_iops=30_000)
    got = _check_rendered(browsers, out, "report-unlike-overlay")
    assert "log scale" in got["text"]  # the IOPS axis of the overlay
