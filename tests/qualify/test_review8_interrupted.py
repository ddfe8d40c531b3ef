"""An interrupted qualification said only "interrupted; what was finished is kept": not where,
nor how to run the tests it did not finish (qualify has no --resume, and an --out holding a
qualification is refused). It now names the finished tests, the file that keeps them, and the
--tests that run the rest. The interruption is a KeyboardInterrupt raised in place of the
second test's measurement (as tests/qualify/test_qualify_keeps_results.py makes one crash)."""

from __future__ import annotations

import json

import pytest
from overprov.qualify import cache, consistency

FAST = ("--round-seconds", "1", "--steady-drive-writes", "1", "--max-rounds", "2",
        "--cliff-drive-writes", "2")  # fmt: skip


def _interrupt(spec, s):
    raise KeyboardInterrupt


@pytest.mark.parametrize("stopped", ["consistency", "cache"])
def test_an_interrupted_qualification_says_what_it_kept_and_what_is_left(
    stopped, overprov_cli, tmp_path, monkeypatch
):
    monkeypatch.setattr({"cache": cache, "consistency": consistency}[stopped], "measure_sim",
                        _interrupt)  # fmt: skip
    out = tmp_path / "q"
    rc, _, err = overprov_cli(
        "qualify", "sim:enterprise-tlc-nvme@2GiB", "--tests", "cache,consistency", *FAST,
        "--out", str(out), "--json", str(tmp_path / "q.json"),
    )  # fmt: skip
    assert rc == 130, err
    if stopped == "cache":
        assert "qualify: interrupted during cache: no test finished" in err
        assert not (out / "qualify.json").exists()
        return
    assert (
        f"qualify: interrupted during consistency: cache finished, kept in {out / 'qualify.json'} "
        f"and {tmp_path / 'q.json'}; to run the tests left, the same command with --tests "
        "consistency and another --out" in err
    )
    kept = json.loads((out / "qualify.json").read_text())
    assert [t["test"] for t in kept["tests"]] == ["cache"] and kept["pending"] == ["consistency"]
