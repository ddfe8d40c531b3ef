"""userpass2: ``exporter --from-files sda.json missing.json`` exited at start, though
docs/exporter.md says a missing file gives that drive ``read_ok 0 reason="unreadable"`` while
the others keep reporting. A file missing at start is now reported (stderr and read_ok), not
fatal, and read once it appears."""

from __future__ import annotations

import shutil

from exporter_helpers import real_sources, scrape, start_exporter, stop
from test_exporter_isolation import read_ok


def test_a_file_missing_at_start_is_reported_and_read_once_it_appears(tmp_path):
    sources, _pair = real_sources(tmp_path)
    real = sources[0]
    missing = tmp_path / "missing.json"
    proc, url = start_exporter("--from-files", real, str(missing))
    try:
        ok = read_ok(scrape(url))
        assert ok[str(missing)] == (0.0, "unreadable")
        assert ok[real] == (1.0, "")
        shutil.copy(real, missing)  # the file appears: the next scrape reads it
        assert read_ok(scrape(url))[str(missing)] == (1.0, "")
    finally:
        stop(proc)
    err = proc.stderr.read()
    assert f"cannot read {missing} (unreadable)" in err
