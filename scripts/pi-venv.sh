#!/usr/bin/env bash
# The virtual environment of an installed table: step 5 of scripts/install-pi.sh.
#
#   scripts/pi-venv.sh [--dry-run] [--unlocked] PYTHON VENV PROJECT
#
# PYTHON is the system's interpreter (python3), VENV the environment to make or update,
# PROJECT the folder or wheel to pip-install. The venv sits on top of the system's Python so that
# it sees what only apt provides on Raspberry Pi OS: python3-picamera2 (the camera
# module, with libcamera) and python3-lgpio (GPIO). That stack's compiled modules
# (python3-simplejpeg, ...) were built against the system's numpy (1.24 on Bookworm);
# a numpy that pip put into the venv would come first on the path, and a 2.x one
# breaks them ("numpy.dtype size changed"). So (docs/guide/install-pi.md):
#   1 the venv is made with --system-site-packages;
#   2 the system's numpy stays: the lock made for it is chosen
#     (requirements/pi-numpy-<version>.txt; requirements/main.txt on a system with no
#     numpy), its version also written as a constraint into the venv
#     (VENV/system-constraints.txt; use it with any later pip install); a numpy an
#     earlier install put into the venv is removed;
#   3 the lock is installed, exactly (every file checked by its hash), then the project
#     with nothing more, and its own requirements checked against what the venv has;
#     with --unlocked, pip resolves the newest versions that fit the system's numpy
#     instead (for a system whose numpy has no lock: versions no test has run);
#   4 every part of the camera and GPIO stack the system's Python can import, the
#     venv's must import too; if not, this fails and says why.
set -euo pipefail

dry_run=0
unlocked=0
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) dry_run=1 ;;
        --unlocked) unlocked=1 ;;
        *) break ;;
    esac
    shift
done
if [ $# -ne 3 ]; then
    echo "usage: pi-venv.sh [--dry-run] [--unlocked] PYTHON VENV PROJECT" >&2
    exit 2
fi
python="$1"
venv="$2"
project="$3"
constraints="$venv/system-constraints.txt"
locks="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/requirements"
lock="$locks/main.txt"   # the lock to install: pin_system_numpy chooses
# What the venv must import whenever the system can (the camera module's and GPIO's).
SYSTEM_STACK=(picamera2 lgpio)

note() { printf '    %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
run() {
    if [ "$dry_run" -eq 1 ]; then
        printf '    would run:'; printf ' %q' "$@"; printf '\n'
    else
        printf '    +'; printf ' %q' "$@"; printf '\n'
        "$@"
    fi
}

# system_version DIST: the version of DIST installed for the system's Python, or nothing.
system_version() {
    "$python" -I -c 'import sys
from importlib.metadata import PackageNotFoundError, version
try:
    print(version(sys.argv[1]))
except PackageNotFoundError:
    pass' "$1"
}

make_venv() {
    if [ -x "$venv/bin/python" ]; then
        note "$venv exists: updating it"
    else
        run "$python" -m venv --system-site-packages "$venv"
    fi
}

pin_system_numpy() {
    local numpy
    numpy="$(system_version numpy)"
    if [ -z "$numpy" ]; then
        note "the system has no numpy: pip installs one into the venv"
        run rm -f "$constraints"
        return
    fi
    note "the system's numpy $numpy stays: pinned in $constraints"
    lock="$locks/pi-numpy-$numpy.txt"
    if [ ! -f "$lock" ] && [ "$unlocked" -eq 0 ]; then
        local have="" file why
        for file in "$locks"/pi-numpy-*.txt; do
            [ -f "$file" ] && have+="${file##*/pi-numpy-} "
        done
        have="${have//.txt/}"
        have="${have% }"
        why="no lock for the system's numpy $numpy (there are locks for numpy ${have:-none}).
       Add $numpy to devtools/lock.py's LOCKS and run ./run lock on a development machine,
       or run again with --unlocked to let pip choose versions built for numpy $numpy
       (versions no test of this project has run)"
        [ "$dry_run" -eq 1 ] || die "$why"
        note "WARNING: $why"
        note "(the dry run goes on as --unlocked would)"
        unlocked=1
    fi
    if [ "$dry_run" -eq 0 ]; then
        printf '%s\n' "# numpy as the system's camera stack was built for (scripts/pi-venv.sh)" \
            "numpy==$numpy" >"$constraints"
    fi
    # A numpy of the venv's own (an older installer put one there) would shadow it.
    if compgen -G "$venv/lib/python3*/site-packages/numpy-*.dist-info" >/dev/null; then
        run "$venv/bin/python" -m pip uninstall --quiet --yes numpy
    fi
}

install_project() {
    if [ "$unlocked" -eq 1 ]; then
        install_unlocked
        return
    fi
    note "the lock: ${lock#"$(dirname "$locks")/"}"
    run env PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/python" -m pip install \
        --quiet --require-hashes --no-deps -r "$lock" ||
        die "pip could not install the lock $lock (the lines above say why)"
    # The project alone; its build backend (setuptools) is in the lock.
    local report="$venv/install-report.json"
    run env PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/python" -m pip install \
        --quiet --no-deps --no-build-isolation --force-reinstall --report "$report" "$project" ||
        die "pip could not install $project (the lines above say why)"
    [ "$dry_run" -eq 0 ] || return 0
    local unmet
    unmet="$("$venv/bin/python" - "$report" <<'PY'
import json, sys
from importlib.metadata import PackageNotFoundError, version
from pip._vendor.packaging.requirements import Requirement
[item] = json.load(open(sys.argv[1]))["install"]
unmet = []
for line in item["metadata"].get("requires_dist", []):
    req = Requirement(line)
    if req.marker is not None and not req.marker.evaluate({"extra": ""}):
        continue
    try:
        have = version(req.name)
    except PackageNotFoundError:
        unmet.append(f"{req} (not installed)")
        continue
    if not req.specifier.contains(have, prereleases=True):
        unmet.append(f"{req} (the venv has {have})")
print(f"{item['metadata']['name']} needs " + ", ".join(unmet) if unmet else "")
PY
)"
    rm -f "$report"
    [ -z "$unmet" ] ||
        die "$unmet: the lock ${lock##*/} was not made for this project (./run lock)"
}

install_unlocked() {
    local pin=()
    if [ -f "$constraints" ] || { [ "$dry_run" -eq 1 ] && [ -n "$(system_version numpy)" ]; }; then
        pin=(--constraint "$constraints")
    fi
    note "unlocked: pip chooses the versions"
    run env PIP_DISABLE_PIP_VERSION_CHECK=1 "$venv/bin/python" -m pip install \
        --quiet --upgrade "${pin[@]}" "$project" ||
        die "pip could not install $project$([ ${#pin[@]} -eq 0 ] || printf ' with %s' \
            "$(grep -v '^#' "$constraints")") (the lines above say which package wants what)"
}

check_stack() {
    [ "$dry_run" -eq 0 ] || return 0
    local module out
    for module in "${SYSTEM_STACK[@]}"; do
        "$python" -I -c "import $module" >/dev/null 2>&1 || continue
        if out="$("$venv/bin/python" -c "import $module" 2>&1)"; then
            note "import $module: fine in the venv"
        else
            die "the system imports $module but the venv cannot: $(tail -n1 <<<"$out")
       The venv shadows part of the system's stack; see $venv/bin/pip list --path $venv/lib/python3*/site-packages"
        fi
    done
}

make_venv
pin_system_numpy
install_project
check_stack
