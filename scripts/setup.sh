#!/usr/bin/env bash
# One-time set-up on a fresh machine: Debian packages the tests use (when root), a virtualenv
# with pinned Python tools. Idempotent: does nothing that is already done.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-.venv}

# one dpkg-query for all the packages (one call each cost about 1 s of every `make test`)
wanted=()
while read -r pkg; do
    [[ -z "$pkg" || "$pkg" == \#* ]] && continue
    wanted+=("$pkg")
done < scripts/apt-packages.txt
installed=$(dpkg-query -W -f='${Package}\t${Status}\n' "${wanted[@]}" 2>/dev/null |
    awk -F'\t' '$2 == "install ok installed" { print $1 }' || true)
missing=()
for pkg in "${wanted[@]}"; do
    grep -qxF "$pkg" <<<"$installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
        echo "setup: installing Debian packages: ${missing[*]}" >&2
        export DEBIAN_FRONTEND=noninteractive
        # another apt (unattended-upgrades on a fresh machine) may hold the lock: wait for it,
        # bounded, rather than fail at once; apt's own timeout covers a lock taken in between
        bash scripts/wait-dpkg-lock.sh
        apt_wait=(-o "DPkg::Lock::Timeout=${SETUP_LOCK_WAIT_S:-300}")
        apt-get "${apt_wait[@]}" update -qq
        apt-get "${apt_wait[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "setup: not root; tests needing these packages will be skipped: ${missing[*]};" \
            "install them with: sudo apt-get install ${missing[*]}" >&2
    fi
fi

if [[ ! -x "$VENV/bin/python" ]]; then
    python3 -m venv "$VENV"
fi
stamp="$VENV/.requirements.sha"
want=$(sha256sum requirements-dev.txt | cut -d' ' -f1)
if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    "$VENV/bin/python" -m pip install -q --upgrade pip
    "$VENV/bin/python" -m pip install -q -r requirements-dev.txt
    echo "$want" > "$stamp"
fi
