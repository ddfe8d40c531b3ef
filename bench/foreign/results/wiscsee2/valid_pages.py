"""Count WiscSim's valid pages after a run: pages its OOB holds valid beyond the host's span.

    PYTHONPATH=BUILD/src:BUILD/deps python2.7 valid_pages.py SPEC.json REPORT_FILE

Runs bench/foreign/wiscsee/harness.py's `run` on SPEC.json (the harness's own specification, as
bench/foreign/wiscsee.py writes it) unchanged, keeping the `Ssd` WiscSim builds, and then prints

    V <span pages> <valid pages in WiscSim's OOB> <translation pages> <valid beyond both>

Every host page is written (the fill) and each write invalidates the page it replaces, so a
drive whose bookkeeping holds has `span` valid data pages and at most its DFTL's translation
pages (`total_translation_pages`, a few) beside them; more are pages no mapping points to
that GC keeps moving (docs/calibrate-validation.md, "WiscSim again, on two fresh drives"). Python 2
for WiscSee, valid Python 3 for the project's linters; it changes nothing of WiscSim.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "wiscsee"))

import harness  # noqa: E402  (bench/foreign/wiscsee/harness.py)


def main(argv):
    import wiscsim.ssdframework as ssdframework

    built = []
    original = ssdframework.Ssd

    class Kept(original):
        def __init__(self, *args, **kwargs):
            original.__init__(self, *args, **kwargs)
            built.append(self)

    ssdframework.Ssd = Kept
    with open(argv[1]) as f:
        spec = json.load(f)
    with open(argv[2], "w") as out:
        harness.run(spec, out)
    ftl = built[0].ftl
    states = ftl.oob.states
    valid = sum(1 for ppn in range(ftl.conf.total_num_pages()) if states.is_page_valid(ppn))
    span = spec["span_pages"]
    trans = ftl.conf.total_translation_pages()
    print(harness.line("V", span, valid, trans, valid - span - trans).strip())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
