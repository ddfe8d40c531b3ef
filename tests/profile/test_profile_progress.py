"""``profile``'s progress on stderr (overprov.profile.progress_view): the log lines, and one
ProgressBar — a bar redrawn in place below them on a terminal, a line every ~10 s otherwise —
counted in the estimate's seconds of I/O. Run on the scripted target of test_profile_runner."""

from __future__ import annotations

import io
import re

import pytest
from overprov import results as res
from overprov.profile.progress_view import ProfileProgress, work_seconds
from overprov.profile.runner import Profile
from test_profile_runner import ScriptedTarget, settings

BAR = re.compile(r"profile \[[#-]{30}\] +([\d.]+)% ")


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _percents(text: str) -> list[float]:
    return [float(m.group(1)) for m in BAR.finditer(text)]


def test_a_bar_on_a_terminal_goes_from_0_to_100_below_the_log_lines(tmp_path):
    iops = lambda op, n: 1_000 + 100 * op  # noqa: E731
    stream = Terminal()
    view = ProfileProgress(stream=stream)
    target = ScriptedTarget(iops)
    Profile.create("scripted", settings(), tmp_path / "out", progress=view,
                   target_factory=lambda: target).run()  # fmt: skip
    view.close()
    text = stream.getvalue()
    percents = _percents(text)
    assert percents[0] == 0.0 and percents[-1] == 100.0
    assert percents == sorted(percents)  # it never goes back
    # every log line is printed whole, over the bar (carriage return, erase line)
    log = (tmp_path / "out" / "profile.log").read_text().splitlines()
    for line in log:
        assert line in text
    assert "\r\x1b[K" + log[-1] in text
    assert text.endswith("\n")  # close() ends the bar's line


def test_not_a_terminal_gets_the_log_lines_and_a_progress_line_at_most_every_10_s(tmp_path):
    stream = io.StringIO()
    view = ProfileProgress(stream=stream)
    target = ScriptedTarget(lambda op, n: 1_000.0)
    Profile.create("scripted", settings(extra_op_percents=[0, 20]), tmp_path / "out",
                   progress=view, target_factory=lambda: target).run()  # fmt: skip
    view.close()
    text = stream.getvalue()
    assert "\r" not in text and "\x1b" not in text
    assert text.splitlines() == (tmp_path / "out" / "profile.log").read_text().splitlines()
    # a fast run has no progress line (the first comes after 10 s); with a shorter period:
    stream = io.StringIO()
    view = ProfileProgress(stream=stream)
    view.bar.line_every_s = 0.0
    target = ScriptedTarget(lambda op, n: 1_000.0)
    Profile.create("scripted", settings(extra_op_percents=[0, 20]), tmp_path / "out2",
                   progress=view, target_factory=lambda: target).run()  # fmt: skip
    lines = [ln for ln in stream.getvalue().splitlines() if ln.startswith("profile: ")]
    last = r"profile: 100% \(recommendation\), \d+ s elapsed, about 0 s left"
    assert lines and re.fullmatch(last, lines[-1])


def test_work_seconds_counts_the_estimate(tmp_path):
    iops = lambda op, n: 1_000 + 100 * op  # noqa: E731
    out = tmp_path / "out"
    s = settings()
    with pytest.raises(KeyboardInterrupt):
        Profile.create("scripted", s, out,
                       target_factory=lambda: ScriptedTarget(iops, interrupt_at="op10-r003")
                       ).run()  # fmt: skip
    doc = res.load_results(out / "results.json")
    est = doc["estimate_after_fob"]
    done, planned = work_seconds(doc, s)
    assert planned == est["seconds_max"]
    pre_s = est["seconds_max"] - s.fob_s - est["rounds_max"] * s.round_seconds
    op0_most = est["per_phase"][0]["rounds_max"]
    # FOB, the whole precondition, all of phase 0 (steady: counted whole), 2 rounds of phase 1
    assert done == pytest.approx(s.fob_s + pre_s + (op0_most + 2) * s.round_seconds)


def test_a_resumed_profile_shows_its_share_done_and_times_only_this_run(tmp_path):
    iops = lambda op, n: 1_000 + 100 * op  # noqa: E731
    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt):
        Profile.create("scripted", settings(), out,
                       target_factory=lambda: ScriptedTarget(iops, interrupt_at="op20-r001")
                       ).run()  # fmt: skip
    before, planned = work_seconds(res.load_results(out / "results.json"), settings())
    stream = Terminal()
    view = ProfileProgress(stream=stream)
    Profile.resume(out, progress=view, target_factory=lambda: ScriptedTarget(iops)).run()
    percents = _percents(stream.getvalue())
    assert percents[0] == pytest.approx(100 * before / planned, abs=0.1) and percents[0] > 30
    assert view.bar.done_before == pytest.approx(before)
    assert percents[-1] == 100.0
