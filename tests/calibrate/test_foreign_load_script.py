"""bench/foreign/common.py's ``load_script``, the one loader of a sibling results script (a
results folder is no package): the script runs as a module of the given name, is returned and
is not put in ``sys.modules``, so a caller may patch its globals (as mqlockstep/run_fresh.py
patches mqskip's ``HERE``) without touching another caller's copy."""

from __future__ import annotations

import sys
from pathlib import Path

FOREIGN = Path(__file__).resolve().parents[2] / "bench" / "foreign"
sys.path.insert(0, str(FOREIGN))

import common  # noqa: E402

SCRIPT = 'HERE = "its folder"\n\n\ndef where() -> str:\n    return HERE\n'


def test_the_script_runs_as_a_module_of_its_name(tmp_path):
    path = tmp_path / "judge.py"
    path.write_text(SCRIPT)
    mod = common.load_script("some_judge", path)
    assert mod.__name__ == "some_judge"
    assert mod.where() == "its folder"
    assert "some_judge" not in sys.modules


def test_each_load_is_its_own_module_whose_globals_the_caller_patches(tmp_path):
    path = tmp_path / "run_fresh.py"
    path.write_text(SCRIPT)
    patched, other = common.load_script("a", str(path)), common.load_script("a", path)
    patched.HERE = "this folder"
    assert patched.where() == "this folder"
    assert other.where() == "its folder"


def test_mqlockstep_loads_mqskips_driver_with_its_own_folder():
    mod = common.load_script(
        "mqlockstep_run_fresh", FOREIGN / "results" / "mqlockstep" / "run_fresh.py"
    )
    assert mod.mqskip.HERE == FOREIGN / "results" / "mqlockstep"


def test_a_script_with_a_dataclass_under_postponed_annotations_loads(tmp_path):
    script = tmp_path / "with_dataclass.py"
    script.write_text(
        "from __future__ import annotations\nfrom dataclasses import dataclass\n\n\n"
        "@dataclass\nclass Row:\n    size_bytes: int\n"
    )
    module = common.load_script("with_dataclass_probe", script)
    assert module.Row(4096).size_bytes == 4096
    assert "with_dataclass_probe" not in sys.modules
