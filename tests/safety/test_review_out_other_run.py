"""An --out folder that holds another command's run is refused before any work: `qualify
/dev/sdb --out prof/` (the profile's folder) wrote its qualify.json there and replaced the
profile's report.html, and `overprov report prof/` read the profile only (results.json first),
so the qualification was in no report. Each command still refuses or continues its own run
(`--resume`); `outputs.check_no_other_run` refuses the others' (docs/safety.md)."""

from __future__ import annotations

import pytest
from overprov import outputs
from overprov.errors import OutputError

#: A run of each command, refused before it starts (a tiny one, in case it is not).
RUNS = {
    "simulate": ["simulate", "--user-bytes", "64MiB", "--rho", "0.28", "--drive-writes", "0.1",
                 "--warmup", "0", "--no-progress"],
    "calibrate": ["calibrate", "--points", "0:11000,20:25000", "--extra-op", "0", "--jobs", "1"],
    "qualify": ["qualify", "sim:consumer-tlc-sata@2GiB", "--tests", "cache"],
    "profile": ["profile", "sim:consumer-tlc-sata@2GiB", "--extra-op", "0"],
}  # fmt: skip


@pytest.mark.parametrize(
    ("command", "other"), [("simulate", "profile"), ("qualify", "profile"),
                           ("profile", "qualify"), ("calibrate", "simulate")],
)  # fmt: skip
def test_an_out_folder_holding_another_command_s_run_is_refused(
    tmp_path, overprov_cli, command, other
):
    out = tmp_path / "out"
    out.mkdir()
    name, what = outputs.RUN_DOCUMENTS[other][0][0], outputs.RUN_DOCUMENTS[other][1]
    (out / name).write_text("{}")
    (out / "report.html").write_text("the other run's report")
    rc, _, err = overprov_cli(*RUNS[command], "--out", str(out))
    assert rc == 2, err
    assert f"{out} holds {what} ({name})" in err
    assert (out / "report.html").read_text() == "the other run's report"
    assert sorted(p.name for p in out.iterdir()) == sorted([name, "report.html"])


def test_a_command_s_own_document_is_left_to_it(tmp_path):
    """Its own run in the folder is each command's to refuse or continue (--resume); every
    other command refuses it."""
    for command, (names, _) in outputs.RUN_DOCUMENTS.items():
        name = names[-1]  # a calibration fitted from figures has no measurement.json
        folder = tmp_path / command
        folder.mkdir()
        (folder / name).write_text("{}")
        outputs.check_no_other_run(folder, command)
        for other in outputs.RUN_DOCUMENTS.keys() - {command}:
            with pytest.raises(OutputError, match=f"holds .* \\({name}\\)"):
                outputs.check_no_other_run(folder, other)
