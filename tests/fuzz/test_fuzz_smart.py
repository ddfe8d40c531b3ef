"""Fuzz: ``overprov smart FILE`` on mutated smartctl -j files (tests/data/smart)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from .mutate import SEED, assert_clean, case_count, mutate_doc, mutate_text, run_cli

DATA = Path(__file__).resolve().parents[1] / "data" / "smart"


@pytest.mark.slow
def test_fuzz_smartctl_json(tmp_path):
    rng = random.Random(SEED)
    sources = sorted(DATA.glob("*.json"))
    target = tmp_path / "smart.json"
    outcomes = {0: 0, 1: 0, 2: 0, 3: 0}
    for i in range(case_count()):
        src = rng.choice(sources)
        text = src.read_text()
        if rng.random() < 0.8:
            text = json.dumps(mutate_doc(json.loads(text), rng))
        else:
            text = mutate_text(text, rng)
        target.write_text(text, encoding="utf-8", errors="surrogateescape")
        argv = ["smart", str(target), "--json", str(tmp_path / "out.json")]
        rc, _, err = run_cli(argv)
        assert_clean(rc, err, f"case {i} (from {src.name})")
        outcomes[rc] += 1
    assert outcomes[0] and outcomes[2], outcomes  # both results and refusals were met
