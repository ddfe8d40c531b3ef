#!/bin/sh
# Set up WiscSim (WiscSee's simulator; He et al., EuroSys 2017) to run with this folder's harness.
#   build.sh WISCSEE_GIT_DIR [OUT_DIR] [COMMIT] [PYTHON2]
# WISCSEE_GIT_DIR: a clone of https://github.com/junhe/wiscsee (cloned there if absent);
# COMMIT: e0f086b04230747205056d8f4def42f9eb36c8d2 unless given; PYTHON2: a Python 2.7
# interpreter (`python2.7` unless given). WiscSee is Python 2 and ships no licence: nothing of
# it is kept in this repository (bench/foreign/wiscsee/NOTICE.md); its tree is written to
# OUT/src, unchanged, its three packages (simpy 3.0, bidict 0.13, bitarray 1.9: the last
# releases for Python 2) installed into OUT/deps from PyPI, and OUT/src/wiscsim-harness, a
# wrapper that runs harness.py of this folder with both on the path.
set -eu
src=$1
out=${2:-$(pwd)/wiscsee-build}
commit=${3:-e0f086b04230747205056d8f4def42f9eb36c8d2}
python2=${4:-python2.7}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ ! -d "$src" ]; then
    git clone --quiet https://github.com/junhe/wiscsee "$src"
fi
rm -rf "$out/src"
"$here/../apply_patches.sh" "$src" "$commit" "$out/src" "$here"
"$python2" -m pip install --quiet --target "$out/deps" "simpy==3.0.13" "bidict==0.13.1" \
    "bitarray==1.9.2"
cat > "$out/src/wiscsim-harness" <<WRAP
#!/bin/sh
# WiscSim at $(cat "$out/src/COMMIT"), run by harness.py in $here
PYTHONPATH="$out/src:$out/deps" exec "$python2" "$here"/harness.py "\$@"
WRAP
chmod +x "$out/src/wiscsim-harness"
echo "$out/src/wiscsim-harness (WiscSee $(cat "$out/src/COMMIT"), unpatched)"
