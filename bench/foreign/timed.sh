# Sourced by a results folder's runs.sh, from the worktree root. Gives PY (the shared venv's
# python), exports PYTHONPATH=python, and `timed NAME COMMAND...`: the command under nice -n 10,
# its user + system CPU s and wall s appended to the file $LOG (the caller's) by /usr/bin/time.
PY=/work/main/.venv/bin/python
export PYTHONPATH=python
timed() {
    name=$1; shift
    /usr/bin/time -f "%U+%S CPU s, %e s wall: $name" -a -o "$LOG" nice -n 10 "$@"
}
