"""The cases of bench/foreign/results/settle40/RULE.md predicted from their measurement with
``waf_drift.SD_FROM_DRIFT`` off and on, in this process, as ``overprov calibrate --from``
predicts (``calibrate/cli.py``), and judged against FEMU's truth as
bench/foreign/femu_end_to_end.py's ``verdict`` judges a case (``judge``).

    PYTHONPATH=python python bench/foreign/results/settle40/predict_again.py OUT_DIR \
        CASE_FOLDER=TRUTH_FILE ...

(paths under bench/foreign/results/). Output: one JSON line a case and flag setting (the
measured 40% figure's drift and sd beside), in bench/foreign/results/settle40/stored.txt and
bench/foreign/results/settle40/unseen-femu.txt.
"""

import contextlib
import io
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path("bench/foreign").resolve()))
sys.path.insert(0, str(Path("bench").resolve()))
import femu_end_to_end as e2e  # noqa: E402
from cpu_clock import cpu_s as cpu  # noqa: E402
from overprov import cli, measurement_file  # noqa: E402
from overprov.calibrate import waf_drift  # noqa: E402

R = Path("bench/foreign/results")


def main() -> None:
    out = Path(sys.argv[1])
    for arg in sys.argv[2:]:
        case, truth_file = arg.split("=")
        truth = json.loads((R / truth_file).read_text())
        m = measurement_file.load(R / case / measurement_file.NAME)
        top = max(
            (lv for lv in m.levels if lv.queue_depth is None), key=lambda lv: lv.extra_op_percent
        )
        for flag in (False, True):
            waf_drift.SD_FROM_DRIFT = flag
            folder = out / f"{Path(case).name}-{'on' if flag else 'off'}"
            folder.mkdir(parents=True, exist_ok=True)
            measurement_file.save(m, folder / measurement_file.NAME)
            run = json.loads((R / case / "run.json").read_text())
            c0 = cpu()
            said = io.StringIO()
            with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
                code = cli.main(["calibrate", "--from", str(folder), "--out", str(folder / "fit"),
                                 "--json", str(folder / "prediction.json"), "--jobs", "1",
                                 "--no-progress", "--extra-op", "0,10,20,30,40"])  # fmt: skip
            used = cpu() - c0
            run |= {"calibrate_exit": code, "cpu_s_measure": 0.0, "cpu_s_predict": used}
            (folder / "run.json").write_text(json.dumps(run) + "\n")
            (folder / "calibrate.out").write_text(said.getvalue() + f"exit {code}\n")
            row = e2e.judge(truth, folder)
            said_last = said.getvalue().strip().splitlines()[-1:] if code else []
            drift = waf_drift.drift(m, top)
            print(json.dumps({
                "case": case, "sd_from_drift": flag, "cpu_s": round(used, 1),
                "top_level": top.extra_op_percent, "top_waf": round(top.waf, 3),
                "top_drift_pct": None if drift is None else round(100 * drift, 1),
                "top_waf_rel_sd": round(waf_drift.waf_rel_sd(m, top), 4),
                "readings": row.get("readings"),
                "refused": said_last[0] if said_last else row.get("refused"),
                "errors_pct": [(lv["extra_op_percent"], round(100 * lv["iops_error"], 1),
                                round(100 * lv["waf_error"], 1)) for lv in row.get("levels", [])],
                "inside_80": f"{row.get('inside')} of {row.get('intervals')}",
            }), flush=True)  # fmt: skip
        waf_drift.SD_FROM_DRIFT = False


if __name__ == "__main__":
    main()
