#!/usr/bin/env bash
# Wait (bounded) until no other apt or dpkg holds the package manager's locks, saying so once.
# Exit 0 when they are free, 1 when they are still held after SETUP_LOCK_WAIT_S seconds
# (default 300). The locks are queried with fcntl F_GETLK, never taken: taking one, even for
# an instant, could make the other apt fail. DPKG_LOCKS overrides the lock files (tests).
set -euo pipefail
wait_s=${SETUP_LOCK_WAIT_S:-300}
locks=${DPKG_LOCKS:-/var/lib/dpkg/lock-frontend:/var/lib/dpkg/lock:/var/lib/apt/lists/lock:/var/cache/apt/archives/lock}

holder() {  # prints "PID LOCKFILE" of a held lock, nothing when all are free
    python3 - "$locks" <<'PY'
import fcntl, os, struct, sys
for path in sys.argv[1].split(":"):
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        continue
    try:
        query = struct.pack("hhqqi", fcntl.F_WRLCK, os.SEEK_SET, 0, 0, 0)
        kind, _, _, _, pid = struct.unpack("hhqqi", fcntl.fcntl(fd, fcntl.F_GETLK, query))
    finally:
        os.close(fd)
    if kind != fcntl.F_UNLCK:
        print(pid, path)
        break
PY
}

start=$SECONDS
said=""
while held=$(holder) && [[ -n "$held" ]]; do
    if ((SECONDS - start >= wait_s)); then
        echo "setup: the package manager lock is still held after ${wait_s} s (pid ${held% *}," \
            "${held#* }); run the set-up again when the other apt or dpkg has finished" >&2
        exit 1
    fi
    if [[ -z "$said" ]]; then
        echo "setup: another apt or dpkg holds ${held#* } (pid ${held% *}); waiting up to" \
            "${wait_s} s for it to finish" >&2
        said=1
    fi
    sleep 2
done
if [[ -n "$said" ]]; then
    echo "setup: the package manager lock is free after $((SECONDS - start)) s" >&2
fi
