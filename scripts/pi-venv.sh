#!/usr/bin/env bash
# The virtual environment of an installed table: step 5 of scripts/install-pi.sh.
#
#   scripts/pi-venv.sh [--dry-run] PYTHON VENV PROJECT
#
# PYTHON is the system's interpreter (python3), VENV the environment to make or update,
# PROJECT the folder or wheel to pip-install. The venv sits on top of the system's Python so that
# it sees what only apt provides on Raspberry Pi OS: python3-picamera2 (the camera
# module, with libcamera) and python3-lgpio (GPIO). That stack's compiled modules
# (python3-simplejpeg, ...) were built against the system's numpy (1.24 on Bookworm);
# a numpy that pip put into the venv would come first on the path, and a 2.x one
# breaks them ("numpy.dtype size changed"). So (docs/install-pi.md):
#   1 the venv is made with --system-site-packages;
#   2 numpy is pinned to the system's own version in a constraints file kept in the
#     venv (VENV/system-constraints.txt; use it with any later pip install), so that
#     pip leaves the system's numpy alone and picks an OpenCV built for it; a numpy an
#     earlier install put into the venv is removed;
#   3 the project is installed with those constraints;
#   4 every part of the camera and GPIO stack the system's Python can import, the
#     venv's must import too; if not, this fails and says why.
set -euo pipefail

dry_run=0
if [ "${1:-}" = --dry-run ]; then
    dry_run=1
    shift
fi
if [ $# -ne 3 ]; then
    echo "usage: pi-venv.sh [--dry-run] PYTHON VENV PROJECT" >&2
    exit 2
fi
python="$1"
venv="$2"
project="$3"
constraints="$venv/system-constraints.txt"
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
    local pin=()
    if [ -f "$constraints" ] || { [ "$dry_run" -eq 1 ] && [ -n "$(system_version numpy)" ]; }; then
        pin=(--constraint "$constraints")
    fi
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
