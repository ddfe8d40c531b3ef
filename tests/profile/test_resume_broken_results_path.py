"""``profile --resume DIR`` on a results.json that breaks its schema said
"results.json: phases/1/…", not which folder's: the message names the file's path, as
``overprov report`` names its input's."""

from __future__ import annotations

import json
import shutil

import pytest
from overprov import results as res
from overprov.errors import ConfigError


def test_a_broken_results_json_is_named_by_its_path(sim_profile, tmp_path):
    path = tmp_path / "prof" / "results.json"
    path.parent.mkdir()
    shutil.copy(sim_profile / "results.json", path)
    doc = json.loads(path.read_text())
    doc["phases"][1]["steady_iops"] = "many"
    path.write_text(json.dumps(doc))
    with pytest.raises(ConfigError) as caught:
        res.load_results(path)
    assert str(caught.value) == (
        f"--resume: {path}: phases/1/steady_iops: 'many' is not of type 'number', 'null'"
    )
