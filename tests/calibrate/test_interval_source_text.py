"""The interval text calibrate shows says what the model-form error was measured on (drives,
figures, date) without naming the repository's benchmark scripts or data files; the recorded
JSON keeps the whole record."""

from __future__ import annotations

import json
from importlib import resources

import pytest
from overprov.calibrate.uncertainty import in_words, recorded_model_form


@pytest.mark.parametrize("simulated", [True, False])
def test_the_recorded_source_is_shown_in_words(simulated):
    doc = json.loads(
        resources.files("overprov.calibrate").joinpath("model_form_error.json").read_text()
    )
    recorded = doc["source"] if simulated else doc["real_distance"]["source"]
    assert "bench/" in recorded  # the record names its script ...
    shown = recorded_model_form(simulated).source
    assert "bench/" not in shown and ".py" not in shown and ".json" not in shown  # ... the text not
    date = recorded.rsplit(", ", 1)[1]
    assert shown.endswith(date) and "drives" in shown


def test_in_words_keeps_what_is_not_a_file():
    assert (
        in_words("a/b.py, 32 figures of 4 drives (x/y.toml, z/w.json), 2026-11-27")
        == "32 figures of 4 drives, 2026-11-27"
    )
    assert in_words("10 drives (seeds 1-10) at 4GiB, 2026-11-23") == (
        "10 drives (seeds 1-10) at 4GiB, 2026-11-23"
    )
