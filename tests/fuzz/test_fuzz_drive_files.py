"""Fuzz: drive files (presets.toml-shaped TOML, docs/drives/) mutated, read by ``overprov drive
show FILE`` and by ``overprov simulate --preset FILE --check`` (scaled down)."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

from .mutate import (
    SEED,
    _toml_key,
    assert_clean,
    case_count,
    mutate_doc,
    mutate_text,
    run_cli,
    to_toml,
)

DRIVES = Path(__file__).resolve().parents[2] / "docs" / "drives"


def _to_drive_toml(doc: dict) -> str:
    """A drive file as TOML: top-level keys and tables, then [config.SECTION] tables."""
    config = doc.get("config")
    top = {k: v for k, v in doc.items() if k != "config" or not isinstance(v, dict)}
    text = to_toml(top)
    if isinstance(config, dict):
        flat = {k: v for k, v in config.items() if not isinstance(v, dict)}
        if flat:
            text += "\n[config]\n" + to_toml(flat)
        for k, v in config.items():
            if isinstance(v, dict):
                section = to_toml({k: v})
                text += section.replace(f"[{_toml_key(k)}]", f"[config.{_toml_key(k)}]", 1)
    return text


@pytest.mark.slow
def test_fuzz_drive_files(tmp_path):
    rng = random.Random(SEED)
    sources = sorted(DRIVES.glob("*.toml"))
    path = tmp_path / "drive.toml"
    outcomes = {0: 0, 1: 0, 2: 0, 3: 0}
    for i in range(case_count()):
        src = rng.choice(sources)
        original = src.read_text()
        if rng.random() < 0.85:
            text = _to_drive_toml(mutate_doc(tomllib.loads(original), rng, toml=True))
        else:
            text = mutate_text(original, rng)
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        rc, _, err = run_cli(["drive", "show", str(path)])
        assert_clean(rc, err, f"case {i} (drive show, from {src.name}): {text[:300]!r}")
        outcomes[rc] += 1
        rc, _, err = run_cli(["simulate", "--preset", str(path), "--scale", "1/4096", "--check"])
        assert_clean(rc, err, f"case {i} (simulate, from {src.name}): {text[:300]!r}")
    assert outcomes[0] and outcomes[2], outcomes
