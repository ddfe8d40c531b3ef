#!/bin/sh
# The runs of bench/foreign/results/femumedian/RULE.md, one at a time, each timed to runs.log.
#   sh bench/foreign/results/femumedian/runs.sh seen|stored|real|verify|truths|fresh|carried
# from the worktree root (PYTHONPATH=python, the shared venv).
set -u
HERE=bench/foreign/results/femumedian
LOG=$HERE/runs.log
B="steep_pair.READ_AS_FLOOR=True; reserve_held_out.SAME_FORM_ONLY=True; reserve_plateau.ON=True"
B="$B; reserve_held_out.WAF_TERMS_TOO=True; reserve_hull.FLOOR_NEEDS_SELECTIVE=True"
B="$B; reserve_hull.NONE_LINKS=True"  # femucarry's arm B (bench/foreign/results/femucarry/RULE.md)
M="mixture_centre.ON=True"
. bench/foreign/timed.sh  # PY, PYTHONPATH=python and timed (to $LOG)
C="$PY bench/foreign/results/femumedian/compose.py"
# seen: femucarry's 4 fresh FEMU drives in its arm B, composed with the median (before the rule);
# stored: the 72's cases two readings or more carry (compose.py list), today's defaults, composed;
# verify: 2 of them with the flag on for real (compose.py's median checked against calibrate's);
# truths: drives.txt; fresh: each fresh truth in arm B and arm B + the flag (each composed too);
# carried: femucarry's 3 stored FEMU cases (its stored.txt) in arm B + the flag; real (the
# amendment in RULE.md): the stored cases with a figure the composition cannot give, flag on.
case $1 in
seen) for f in bench/foreign/results/femucarry/fresh-b/*.json; do EVALUATE_FLAGS="$B" \
    timed "seen-b $f" $C run $f $HERE/seen-b; done ;;
stored) $C list | while read f; do [ -f $HERE/stored/$(basename $f) ] || \
    timed "stored $f" $C run $f $HERE/stored; done ;;
real) $C recompose $HERE/stored; $C uncomposed $HERE/stored | while read f; do \
    EVALUATE_FLAGS="$M" timed "real $f" $C run $f $HERE/real; done ;;
verify) for f in SSDsim--ssdsim--ssdsim-b DiskSim--byfig-reserve_unseen--disksim-6pkg-4pl; do \
    EVALUATE_FLAGS="$M" timed "verify $f" $C run bench/foreign/results/scoreboard/cases-mix/$f.json \
    $HERE/verify; done ;;
truths) while read stem opts; do [ -f $HERE/fresh/$stem.json ] || timed "truth $stem" \
    $PY bench/foreign/femu.py --binary /work/foreign-build/femu/femu-bbssd-harness \
    --work /tmp/femumedian-$stem $opts --qd-sweep 4@40 --out $HERE/fresh/$stem.json; \
    done < $HERE/drives.txt ;;
fresh) while read stem opts; do EVALUATE_FLAGS="$B" timed "fresh-b $stem" \
    $C truth $HERE/fresh $stem FEMU $HERE/fresh-b; EVALUATE_FLAGS="$B; $M" \
    timed "fresh-bm $stem" $C truth $HERE/fresh $stem FEMU $HERE/fresh-bm; done < $HERE/drives.txt ;;
carried) while read folder stem; do EVALUATE_FLAGS="$B; $M" timed "stored-bm $stem" \
    $C truth $folder $stem FEMU $HERE/stored-bm; done < bench/foreign/results/femucarry/stored.txt ;;
esac
