"""simulate --out DIR refuses a folder that already holds a simulation (simulate.json), as
profile, calibrate and qualify refuse a folder holding their own run: a second simulate into
it replaced the first's simulate.json and report.html without a word, and left the first's
series.csv beside them — one folder, two runs' files, the page describing only one."""

from __future__ import annotations

import hashlib

OLD = b'{\n  "schema": "overprov.simulate/1",\n  "runs": ["the first run, hours of it"]\n}\n'
SMALL = ("simulate", "--advertised", "64M", "--pages-per-block", "64", "--extra-op", "0",
         "--warmup", "1", "--drive-writes", "0.5", "--no-progress")  # fmt: skip


def test_a_folder_holding_a_simulation_is_refused(tmp_path, overprov_cli):
    out = tmp_path / "sim"
    out.mkdir()
    (out / "simulate.json").write_bytes(OLD)
    (out / "series.csv").write_text("time_s,iops\n1,100\n")
    rc, stdout, err = overprov_cli(*SMALL, "--out", str(out))
    assert rc == 2, (stdout, err)
    assert f"--out: {out} already holds a simulation (simulate.json)" in err
    assert hashlib.sha256((out / "simulate.json").read_bytes()).digest() == (
        hashlib.sha256(OLD).digest()
    )
    assert sorted(p.name for p in out.iterdir()) == ["series.csv", "simulate.json"]
