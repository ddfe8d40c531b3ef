"""The native spare each true steady WAF implies under each uniform design's curve (greedy and
d-choices-8/4/2, the curves calibrate reads uniform figures with: fit.waf_at, gc_designs.curve),
for NVMeVirt drives N, M, J, A and B. A curve whose implied spare is the same at every level has
the truth's shape. Run from the worktree root:
PYTHONPATH=python python bench/foreign/results/nvmen/implied_spare.py"""

import json
import resource

from overprov.calibrate import fit, gc_designs

R = "bench/foreign/results/"
DRIVES = {
    "N": R + "erasegate/nvmevirt-n.json",
    "M": R + "erasegate/nvmevirt-m.json",
    "J": R + "erasereading/nvmevirt-j.json",
    "A": R + "nvmevirt/nvmevirt-a.json",
    "B": R + "nvmevirt/nvmevirt-b.json",
}
CURVES = {
    "greedy": fit.waf_at,
    **{f"d-choices-{d}": gc_designs.curve(f"d-choices-{d}") for d in (8, 4, 2)},
}


def main() -> None:
    for name, path in DRIVES.items():
        with open(path) as f:
            doc = json.load(f)
        levels = [lv for lv in doc["levels"] if lv["queue_depth"] == 32]
        waf = " / ".join(f"{lv['steady_waf']:.3f}" for lv in levels)
        settled = [lv["steady_window"]["settled"] for lv in levels]
        print(f"drive {name}: true WAF at 0/10/20/30/40%: {waf} | settled: {settled}")
        physical_pages = doc["physical_bytes"] / 4096
        print(f"  NAND over the 0% span - 1: {physical_pages / levels[0]['span_pages'] - 1:.4f}")
        for cname, curve in CURVES.items():
            rho0 = []
            for lv in levels:
                rho = fit.rho_for_waf(lv["steady_waf"], curve)
                rho0.append((1 + rho) * (1 - lv["extra_op_percent"] / 100) - 1)
            row = " / ".join(f"{r * 100:5.2f}%" for r in rho0)
            spread = (max(rho0) - min(rho0)) * 100
            print(f"  {cname:12s} implied native spare: {row}  spread {spread:.2f} pts")
            if cname == "greedy":
                mean = sum(rho0) / len(rho0)
                pred = [curve(fit.rho_eff(mean, lv["extra_op_percent"])) for lv in levels]
                errs = " / ".join(
                    f"{(p / lv['steady_waf'] - 1) * 100:+.1f}%"
                    for p, lv in zip(pred, levels, strict=True)
                )
                print(f"  greedy at their mean {mean * 100:.2f}%: WAF error {errs}")
    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(f"CPU s: {ru.ru_utime + ru.ru_stime:.2f}")


if __name__ == "__main__":
    main()
