"""What sets the reserve twin's curve between its floor and 40% on the stored FEMU cases
measured by calibrate's own plan with the onset from empty dated (a diagnosis on cases already
run and seen, not a case of any rule): each case's ``measurement.json`` predicted again as
``overprov calibrate --from`` predicts it, in this process, in four variants of the code,

- ``code``: the code as it is;
- ``fit1``: the reserve reading's spare fitted to the onset at a relative sd of 0.01 instead of
  ``gc_reserve.ONSET_REL_SD`` (0.03; the weighing on the onset unchanged);
- ``keep``: the reserve twin keeps the reading's spare factor (``twin._corrected_reserve``,
  which moves the twin's reserve until its WAF meets the lowest measured level off the floor,
  the plan's 40% figure, left out);
- ``fit1+keep``: both;

and judged against FEMU's truth as ``femu_end_to_end.py verdict`` judges a case.

    PYTHONPATH=python python bench/foreign/results/rescurve/twin_anchor.py OUT_DIR [CASE_PART]

(CASE_PART: only the cases whose folder holds it.)

Output: bench/foreign/results/rescurve/twin-anchor.txt (one JSON line a case and variant).
"""

import json
import sys
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path("bench/foreign").resolve()))
sys.path.insert(0, str(Path("bench").resolve()))
import femu_end_to_end as e2e  # noqa: E402
from cpu_clock import cpu_s as cpu  # noqa: E402
from overprov import cli, measurement_file  # noqa: E402
from overprov.calibrate import gc_reserve, twin  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from diagnose import CASES as DIAGNOSED  # noqa: E402
from diagnose import R  # noqa: E402

#: (case folder, truth file): one case a FEMU geometry, the flag on, harness seed 1
CASES = [c for c in DIAGNOSED if "carryflag" not in c[0] and "-s2" not in c[0]
         and "-s3" not in c[0]]  # fmt: skip
VARIANTS = ("code", "fit1", "keep", "fit1+keep")
FIT1_REL_SD = 0.01
_fit_spare, _corrected_reserve = gc_reserve._fit_spare, twin._corrected_reserve


def fit_spare_at(sd: float):
    """``gc_reserve._fit_spare`` with its onset term at relative sd ``sd``."""

    def fit(points, curve, onset=None):
        saved, gc_reserve.ONSET_REL_SD = gc_reserve.ONSET_REL_SD, sd
        try:
            return _fit_spare(points, curve, onset)
        finally:
            gc_reserve.ONSET_REL_SD = saved

    return fit


def set_variant(name: str) -> None:
    gc_reserve._fit_spare = fit_spare_at(FIT1_REL_SD) if "fit1" in name else _fit_spare
    twin._corrected_reserve = (
        (lambda native_op, collector, *rest: collector) if "keep" in name else _corrected_reserve
    )


def main() -> None:
    out, only = Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else ""
    for case, truth_file in [c for c in CASES if only in c[0]]:
        truth = json.loads((R / truth_file).read_text())
        for name in VARIANTS:
            folder = out / f"{Path(case).name}-{name}"
            folder.mkdir(parents=True, exist_ok=True)
            m = measurement_file.load(R / case / measurement_file.NAME)
            measurement_file.save(m, folder / measurement_file.NAME)
            run = json.loads((R / case / "run.json").read_text())
            set_variant(name)
            c0 = cpu()
            code = cli.main(["calibrate", "--from", str(folder), "--out", str(folder / "fit"),
                             "--json", str(folder / "prediction.json"), "--jobs", "1",
                             "--no-progress", "--extra-op", "0,10,20,30,40"])  # fmt: skip
            set_variant("code")
            run |= {"calibrate_exit": code, "cpu_s_measure": 0.0, "cpu_s_predict": cpu() - c0}
            (folder / "run.json").write_text(json.dumps(run) + "\n")
            (folder / "calibrate.out").write_text(f"exit {code}: see this run's output\n")
            row = e2e.judge(truth, folder)
            toml = folder / "fit" / "twin-reserve-greedy.toml"
            notes = tomllib.loads(toml.read_text())["notes"]["calibration"] if toml.exists() else {}
            print(json.dumps({
                "case": case, "variant": name, "cpu_s": round(cpu() - c0, 1),
                "readings": row.get("readings"), "refused": row.get("refused"),
                "twin_spare_factor": (notes.get("gc_reserve") or {}).get("spare_factor"),
                "errors_pct": [(lv["extra_op_percent"], round(100 * lv["iops_error"], 1),
                                round(100 * lv["waf_error"], 1)) for lv in row.get("levels", [])],
                "inside_80": f"{row.get('inside')} of {row.get('intervals')}",
            }), flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
