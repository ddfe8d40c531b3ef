"""Where typed IOPS figures are left to the FOB's line (``three_levels.leave_to_line``, on) the
prediction's source says so, on stdout and in prediction.json (review7's item 3: it reached only
twin.toml, while ``bend_between.warning`` is left out because such figures "say so
themselves"); with a typed FOB WAF, which three levels do not apply (item 4)."""

from __future__ import annotations

import json
import tomllib

from overprov.cli import main

#: MQSim u768x32 typed at 0, 20 and 40% (tests/calibrate/test_three_levels.py's MQ768): its
#: 20% IOPS figure lies on the FOB's line and is left to it (about 15 CPU s a run)
MQ768 = ["--points", "0:103,20:527,40:1175", "--waf-points", "0:19.32,20:2.491,40:1.444",
         "--fob-iops", "2285"]  # fmt: skip


def test_the_figures_left_to_the_line_are_said_on_stdout_and_in_prediction_json(tmp_path, capsys):
    out = tmp_path / "fit"
    argv = ["calibrate", *MQ768, "--fob-waf", "1.06", "--extra-op", "20", "--out", str(out),
            "--jobs", "1", "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    said = "the IOPS figures at 20% extra OP lie on the line the FOB and the 40% figure draw"
    assert said in " ".join(capsys.readouterr().out.split())
    doc = json.loads((out / "prediction.json").read_text())
    assert doc["prediction_source"].count(said) == 1
    # three levels: a typed FOB WAF noted, not applied (metadata_factor.unjudged)
    assert "FOB WAF 1.06 (--fob-waf) not applied" in doc["prediction_source"]
    assert "metadata_factor" not in doc["fit"]
    twin = tomllib.loads((out / "twin.toml").read_text())
    assert said in " ".join(str(v) for v in twin.values())  # still in the twin's source
