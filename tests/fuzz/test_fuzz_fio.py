"""Fuzz: fio's JSON output and IOPS logs, read by the functions a profile round uses
(``fio.py``: parse_json_output, job_groups, write_figures, parse_iops_log). The
originals come from a real fio run of one second on a small file."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from overprov import fio
from overprov.errors import OverprovError

from .mutate import SEED, case_count, deadline, mutate_doc, mutate_text


@pytest.fixture(scope="module")
def fio_run(tmp_path_factory) -> tuple[str, str]:
    if shutil.which("fio") is None:
        pytest.skip("fio is not installed (Debian package fio)")
    d = tmp_path_factory.mktemp("fio")
    job = d / "job.fio"
    job.write_text(
        f"[global]\nfilename={d / 'f.img'}\nsize=4m\nrw=randwrite\nbs=4k\nioengine=psync\n"
        f"time_based=1\nruntime=1\nlog_avg_msec=100\nwrite_iops_log={d / 'r'}\n"
        "percentile_list=50:99:99.9\n[w]\n"
    )
    out = d / "out.json"
    subprocess.run(["fio", "--output-format=json+", f"--output={out}", str(job)], check=True,
                   capture_output=True, cwd=d)  # fmt: skip
    logs = sorted(d.glob("r_iops*.log"))
    return out.read_text(), logs[0].read_text() if logs else "1000, 5, 1, 4096, 0\n"


def _read_round(text: str, log: Path) -> str:
    """'ok', or 'refused' for a clean error (run_fio turns ValueError into a ToolError)."""
    try:
        output = fio.parse_json_output(text)
    except ValueError:
        return "refused"
    try:
        with deadline():
            for group in fio.job_groups(output, "fuzz"):
                fio.write_figures(group)
            fio.parse_iops_log(log)
    except OverprovError:
        return "refused"
    return "ok"


def test_fuzz_fio_json_and_logs(fio_run, tmp_path):
    text, log_text = fio_run
    doc = json.loads(text[text.index("{") :])
    rng = random.Random(SEED)
    log = tmp_path / "r_iops.1.log"
    outcomes = {"ok": 0, "refused": 0}
    for _ in range(case_count()):
        if rng.random() < 0.7:
            out_text = json.dumps(mutate_doc(doc, rng))
        else:
            out_text = mutate_text(text, rng)
        log.write_text(mutate_text(log_text, rng), encoding="utf-8", errors="surrogateescape")
        outcomes[_read_round(out_text, log)] += 1
    assert outcomes["ok"] and outcomes["refused"], outcomes
