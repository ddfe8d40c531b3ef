#!/bin/sh
# bench/foreign/results/freshnow/PLAN.md's drives, in its order, one at a time, from the
# worktree root: each drive's truth (its family's generator) then its case, each logged with its
# CPU s (bench/cpu_clock.py) by freshtally's tally.py `timed` / `case` into runs.log here.
# A drive whose truth exists is not made again, a case that exists is not run again; no new
# drive starts at or after 21:05 UTC (PLAN.md's stop).
#   sh bench/foreign/results/freshnow/runs.sh [STEM ...]   (default: every drive, in order)
set -u
PY=${PY:-/work/main/.venv/bin/python}
R=bench/foreign/results/freshnow
T=$R/truths
export PYTHONPATH=python TALLY_DIR=$R
TALLY=bench/foreign/results/freshtally/tally.py
FB=/work/foreign-build
late() { [ "$(date -u +%H%M)" -ge 2105 ]; }
timed() {  # LABEL CMD...
    label=$1; shift
    $PY $TALLY timed "$label" -- "$@"
}
truth() {  # STEM GENERATOR ARGS...: the generator (a script in bench/foreign) into $T/STEM.json
    stem=$1; gen=$2; shift 2
    [ -e $T/$stem.json ] || timed "truth $stem" $PY bench/foreign/$gen.py --out $T/$stem.json "$@"
}
case_of() {  # STEM FAMILY: the scoreboard's plan case into cases/
    [ -e $R/cases/$2--freshnow_truths--$1.json ] || $PY $TALLY case $T $1 $2
}
dhara_case() {  # STEM: evaluate.py's "WAF 0+40" into today/
    [ -e $R/today/$1.json ] || timed "case Dhara $1" $PY bench/foreign/results/freshnow/dhara_case.py run $T/$1.json
}
WISC_HARNESS=$FB/wiscsee/src/wiscsim-harness-freshnow
wisc_wrapper() {  # as bench/foreign/wiscsee/build.sh writes it, onto this worktree's harness.py
    [ -x $WISC_HARNESS ] && return 0
    here=$(pwd)/bench/foreign/wiscsee
    cat > $WISC_HARNESS <<WRAP
#!/bin/sh
# WiscSim at $(cat $FB/wiscsee/src/COMMIT), run by harness.py in $here
PYTHONPATH="$FB/wiscsee/src:$FB/wiscsee/deps" exec "/root/.pyenv/versions/2.7.18/bin/python2.7" "$here"/harness.py "\$@"
WRAP
    chmod +x $WISC_HARNESS
}
SIMPLESSD_PATCH="Block::getPageInfo (ftl/common/block.cc) reported every page of a block valid when an FTL page holds one I/O unit, so GC copied invalid pages too and ran out of free blocks; patched to report the page's valid bit"
FLASHSIM_PATCH="gc-trigger-count.patch (bench/foreign/flashsim/): the block manager's active count decremented when the DFTL's GC erases a block"
DISKSIM_PATCH="none (built with its own Makefiles; gcc 12: -fgnu89-inline and -lm at the end of the link lines, compiler and linker flags only)"
drive() {  # STEM: make its truth, then run its case
    case $1 in
    nvmevirt-ak) truth $1 nvmevirt --binary $FB/nvmevirt/nvmevirt-conv-harness --work /tmp/freshnow-$1 \
        --capacity-mb 912 --drive "--partitions 1 --nchs 2 --luns-per-ch 4 --blks-per-pln 296 --flash-page-kb 16 --oneshot-page-kb 16 --prog-ns 210000 --erase-ns 3400000 --op-area 0.10"
        case_of $1 NVMeVirt ;;
    nvmevirt-al) truth $1 nvmevirt --binary $FB/nvmevirt/nvmevirt-conv-harness --work /tmp/freshnow-$1 \
        --capacity-mb 1008 --drive "--partitions 1 --nchs 4 --luns-per-ch 2 --blks-per-pln 248 --flash-page-kb 16 --oneshot-page-kb 16 --prog-ns 270000 --erase-ns 3300000 --op-area 0.11"
        case_of $1 NVMeVirt ;;
    femu-76lun-42blk-thres64) truth $1 femu --binary $FB/femu/femu-bbssd-harness --work /tmp/freshnow-$1 \
        --nchs 1 --luns-per-ch 76 --blks-per-pl 42 --namespace-mb 2234 --gc-thres-pcent 64 --qd-sweep 4@40
        case_of $1 FEMU ;;
    femu-77lun-39blk-thres68) truth $1 femu --binary $FB/femu/femu-bbssd-harness --work /tmp/freshnow-$1 \
        --nchs 1 --luns-per-ch 77 --blks-per-pl 39 --namespace-mb 2102 --gc-thres-pcent 68 --qd-sweep 4@40
        case_of $1 FEMU ;;
    u1600x16 | u1728x16)
        [ -e $T/$1.json ] || timed "truth $1" $PY bench/foreign/results/mqskip/run_fresh.py \
            --out-dir $T --binary $FB/mqsim/patched/MQSim --work /tmp/freshnow-mqsim $1
        case_of $1 MQSim ;;
    vssim-h) truth $1 vssim --binary $FB/vssim/vssim-harness --work /tmp/freshnow-$1 \
        --flashes 16 --channels 4 --blocks 48 --block-pages 64 --spare 0.11 --ovp 0 \
        --timings-us 45,250,45,55,1800,10,20 --drive-writes 10
        case_of $1 VSSIM ;;
    vssim-i) truth $1 vssim --binary $FB/vssim/vssim-harness --work /tmp/freshnow-$1 \
        --flashes 6 --channels 3 --blocks 80 --block-pages 64 --spare 0.14 --ovp 1 --drive-writes 10
        case_of $1 VSSIM ;;
    dhara-v) truth $1 dhara --binary $FB/dhara/dhara-harness --work /tmp/freshnow-$1 \
        --log2-ppb 7 --blocks 288 --gc-ratio 16 --seed 22
        dhara_case $1 ;;
    dhara-w) truth $1 dhara --binary $FB/dhara/dhara-harness --work /tmp/freshnow-$1 \
        --log2-ppb 8 --blocks 192 --gc-ratio 11 --seed 23
        dhara_case $1 ;;
    ssdsim-fn-v) truth $1 ssdsim --binary $FB/ssdsim/ssdsim-harness --work /tmp/freshnow-$1 \
        --geometry 2,1,1,2,216,64 --overprovide 0.13 --gc-hard-threshold 0.05 --t-prog-ns 310000 \
        --seed 3535 --pattern uniform --details '' --extra-op 0,10,20,30,40 --qd-sweep 4@0,40 --drive-writes 12
        case_of $1 SSDsim ;;
    wiscsee-q) wisc_wrapper
        truth $1 wiscsee --binary $WISC_HARNESS --work /tmp/freshnow-$1 --drive-writes 24 \
            --reports-per-round 4 --fix-move-race --geometry 4,20,32 --over-provisioning 1.50 \
            --gc 0.90,0.80 --gc-procs 3 --t-prog-ns 280000
        case_of $1 WiscSim ;;
    disksim-fn-1pkg-8pl) truth $1 disksim_ssd --binary $FB/disksim/src/src/disksim --work /tmp/freshnow-$1 \
        --commit e0d4cc91371b3c7715b958b17999fe599d00c11f --patch "$DISKSIM_PATCH" \
        --packages 1 --planes-per-package 8 --qd-sweep 4@40
        case_of $1 DiskSim ;;
    et-fn-2pkg2die-r35p220) truth $1 eagletree --binary $FB/eagletree/eagletree-harness --work /tmp/freshnow-$1 \
        --commit c5df886 --geometry 2,2,20,64 --timings-us 35,220,1300,1,10 --qd-sweep 4@40
        case_of $1 EagleTree ;;
    flashsim-fn-e) truth $1 flashsim --binary $FB/flashsim/dftl/flashsim-dftl-harness --work /tmp/freshnow-$1 \
        --conf $T/flashsim-fn-e.conf --label "Fresh drive E (freshnow)" --patch "$FLASHSIM_PATCH"
        case_of $1 FlashSim ;;
    simplessd-fn-bpp128) truth $1 simplessd --binary $FB/simplessd-fresh/build/simplessd-standalone \
        --work /tmp/freshnow-$1 --extra-op 0,10,20,30,40 --qd-sweep 4@40 --drive-writes 20 --rounds 20 \
        --blocks-per-plane 128 --commit 8255367ff8736f3dce16612054114a3ffed5e7ab \
        --library-commit 73ad8ad5220ce5ebfeb055687d0328765a046c0f --patch "$SIMPLESSD_PATCH"
        case_of $1 SimpleSSD ;;
    *) echo "unknown drive $1" >&2; return 2 ;;
    esac
}
ORDER="nvmevirt-ak nvmevirt-al femu-76lun-42blk-thres64 femu-77lun-39blk-thres68 u1600x16 u1728x16
vssim-h vssim-i dhara-v dhara-w ssdsim-fn-v wiscsee-q disksim-fn-1pkg-8pl et-fn-2pkg2die-r35p220
flashsim-fn-e simplessd-fn-bpp128"
for stem in ${*:-$ORDER}; do
    if late && [ ! -e $T/$stem.json ]; then
        echo "$(date -u +%H:%M:%S) not started (21:05 UTC stop): $stem" >> $R/runs.log
        continue
    fi
    drive $stem
done
