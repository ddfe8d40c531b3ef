# Sourced by a results folder's runs.sh, from the worktree root. Gives PY (the shared venv's
# python), exports PYTHONPATH=python, and `timed NAME COMMAND...`: the command under nice -n 10,
# its user + system CPU s and wall s appended to the file $LOG (the caller's) by /usr/bin/time.
PY=/work/main/.venv/bin/python
export PYTHONPATH=python
timed() {
    name=$1; shift
    /usr/bin/time -f "%U+%S CPU s, %e s wall: $name" -a -o "$LOG" nice -n 10 "$@"
}
# femu_truth DIR STEM OPTIONS...: a fresh FEMU truth for typed cases (bench/foreign/femu.py on
# the black-box harness, its defaults, QD4 at 40% too) into DIR/STEM.json, timed; kept if there.
femu_truth() {
    dir=$1; stem=$2; shift 2
    [ -f "$dir/$stem.json" ] || timed "truth $stem" $PY bench/foreign/femu.py \
        --binary /work/foreign-build/femu/femu-bbssd-harness --work "/tmp/femu-truth-$stem" \
        "$@" --qd-sweep 4@40 --out "$dir/$stem.json"
}
# mqsim_truth DIR STEM: a fresh MQSim truth uBxP on the patched build
# (bench/foreign/results/mqskip/run_fresh.py) into DIR/STEM.json, timed; kept if there.
mqsim_truth() {
    [ -f "$1/$2.json" ] || timed "truth $2" $PY bench/foreign/results/mqskip/run_fresh.py \
        --out-dir "$1" --binary /work/foreign-build/mqsim/patched/MQSim \
        --work /tmp/mqsim-truth "$2"
}
# nvmevirt_truth DIR STEM CAPACITY_MB DRIVE_OPTIONS: a fresh NVMeVirt truth
# (bench/foreign/nvmevirt.py on the conventional harness) into DIR/STEM.json, timed; kept if there.
nvmevirt_truth() {
    [ -f "$1/$2.json" ] || timed "truth $2" $PY bench/foreign/nvmevirt.py \
        --binary /work/foreign-build/nvmevirt/nvmevirt-conv-harness --work "/tmp/nvmevirt-truth-$2" \
        --capacity-mb "$3" --drive "$4" --out "$1/$2.json"
}
