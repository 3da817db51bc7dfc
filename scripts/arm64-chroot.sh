#!/usr/bin/env bash
# Runs a pytest selection on Debian 12 arm64 (the Raspberry Pi's architecture) under
# qemu user-mode emulation, in a chroot made with debootstrap. Slow: far too slow for CI.
# Run as root on a Debian or Ubuntu x86-64 machine (docs/design/arm64.md):
#
#   sudo scripts/arm64-chroot.sh tests/engine tests/firmware_bridge
#   sudo scripts/arm64-chroot.sh --root /var/tmp/arm64 -- tests/vision -x
#   sudo scripts/arm64-chroot.sh --pi-venv tests/vision     # the installed Pi's libraries
#   sudo scripts/arm64-chroot.sh --run python -m benchmarks.engine --cpu -1   # any command
#
# Steps (each skipped when already done, so a second run only copies and tests):
#   1 host tools    debootstrap, qemu-user-static, binfmt_misc with qemu-aarch64 enabled
#   2 chroot        Debian 12 arm64 (minbase + python3, python3-venv, mosquitto) in --root
#   3 mounts        /proc, /sys, /dev, /dev/pts, resolv.conf; ../shared read-only
#   4 project       this clone's files (tracked and untracked, not ignored) copied in
#   5 venv          .venv in the copy, `pip install -e .[dev]` (again when pyproject changes);
#                   with --pi-venv: .venv-pi made as scripts/install-pi.sh makes it on a Pi
#                   (Debian's python3-numpy 1.24.2, pinned; scripts/pi-venv.sh), plus [dev]
#   6 pytest        python -m pytest ARGS inside, as root, with no environment but PATH/HOME
#                   (with --run: ARGS is a command, run in the project with the venv's bin
#                   first on PATH, e.g. a benchmark)
# The mounts are undone on exit; the chroot stays for the next run (--remove deletes it).
set -euo pipefail

usage() {
    cat <<'EOF'
usage: arm64-chroot.sh [--root DIR] [--mirror URL] [--pi-venv] [--remove] [--] [PYTEST ARGS...]
       arm64-chroot.sh [--root DIR] [--pi-venv] --run COMMAND [ARGS...]

  --root DIR     where the chroot lives (default: /var/tmp/domino-arm64)
  --mirror URL   Debian mirror for debootstrap (default: the first one in this
                 machine's apt sources)
  --pi-venv      test in .venv-pi, made as the Pi installer makes its venv: on the
                 system's numpy (Debian's python3-numpy, Raspberry Pi OS's version), so
                 OpenCV 4.11, instead of .venv's newest numpy and OpenCV
  --remove       delete the chroot and exit
  --run          what follows is a command, not pytest arguments: run in the project
                 inside, the venv's bin first on PATH (python is the venv's), e.g.
                 --run python -m benchmarks.vision --rendered
  PYTEST ARGS    what to run (default: tests/engine tests/firmware_bridge)
EOF
}

root_dir=/var/tmp/domino-arm64
mirror=""
remove=0
pi_venv=0
run_command=0
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
while [ $# -gt 0 ]; do
    case "$1" in
        --root) root_dir="${2:?--root needs a folder}"; shift ;;
        --mirror) mirror="${2:?--mirror needs a URL}"; shift ;;
        --pi-venv) pi_venv=1 ;;
        --remove) remove=1 ;;
        --run) run_command=1; shift; break ;;
        -h | --help) usage; exit 0 ;;
        --) shift; break ;;
        -*) usage >&2; echo "error: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
    shift
done
if [ "$run_command" -eq 1 ] && [ $# -eq 0 ]; then
    usage >&2; echo "error: --run needs a command" >&2; exit 2
fi
[ $# -gt 0 ] || set -- tests/engine tests/firmware_bridge

# Inside the chroot the project sits at /work/domino-table with ../shared beside it, as
# the tests expect.
INNER=/work/domino-table
SUITE=bookworm
PACKAGES=python3,python3-venv,ca-certificates,mosquitto,procps,git

say() { printf '\033[1m==> %s\033[0m (%s)\n' "$*" "$(date +%T)" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root (debootstrap, chroot and mounts need it): sudo $0"
[ "$(uname -m)" != aarch64 ] || die "this machine is arm64 already: run the tests directly"

mounted=()
# shellcheck disable=SC2317  # called by the trap
unmount_all() {
    local i
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
        umount -l "${mounted[$i]}" 2>/dev/null || true
    done
    mounted=()
}
trap unmount_all EXIT

if [ "$remove" -eq 1 ]; then
    if findmnt -rn -o TARGET | grep -q "^$root_dir/"; then
        die "something is still mounted under $root_dir: umount it first"
    fi
    rm -rf --one-file-system "$root_dir"
    echo "removed $root_dir"
    exit 0
fi

host_tools() {
    say "step 1: host tools"
    local missing=()
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    [ -e /usr/bin/qemu-aarch64-static ] || missing+=(qemu-user-static)
    command -v update-binfmts >/dev/null || missing+=(binfmt-support)
    if [ ${#missing[@]} -gt 0 ]; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
    if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
            die "cannot mount binfmt_misc: arm64 programs cannot run here"
    fi
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64
    grep -q '^flags:.*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 ||
        die "qemu-aarch64 is registered without the F flag: it would not run inside a chroot"
}

host_mirror() {
    # The first Debian archive (not its security one) named in this machine's apt sources.
    local files=(/etc/apt/sources.list.d/*.sources /etc/apt/sources.list)
    cat "${files[@]}" 2>/dev/null | awk '($1 == "URIs:" || $1 == "deb") && $2 !~ /security/ {
        print $2; exit }'
}

make_chroot() {
    say "step 2: Debian 12 arm64 in $root_dir"
    if [ -f "$root_dir/.domino-bootstrapped" ]; then
        echo "    there already"
        return
    fi
    [ -n "$mirror" ] || mirror="$(host_mirror || true)"
    [ -n "$mirror" ] || die "no Debian mirror in /etc/apt/sources*: give --mirror URL"
    rm -rf --one-file-system "$root_dir"
    debootstrap --arch=arm64 --variant=minbase --foreign --include="$PACKAGES" \
        "$SUITE" "$root_dir" "$mirror"
    chroot "$root_dir" /debootstrap/debootstrap --second-stage
    touch "$root_dir/.domino-bootstrapped"
}

bind() {
    local from="$1" to="$root_dir$2"
    mkdir -p "$to"
    mount --bind "$from" "$to"
    mounted+=("$to")
    [ "${3:-}" = ro ] && mount -o remount,bind,ro "$to"
    return 0
}

mounts() {
    say "step 3: mounts"
    mount -t proc proc "$root_dir/proc"
    mounted+=("$root_dir/proc")
    bind /sys /sys ro
    bind /dev /dev
    bind /dev/pts /dev/pts
    cp -L /etc/resolv.conf "$root_dir/etc/resolv.conf"
    # The host's CA bundle, for a network whose proxy the host trusts (pip needs it).
    cp -L /etc/ssl/certs/ca-certificates.crt "$root_dir/etc/ssl/host-ca.crt"
    if [ -d "$here/../shared" ]; then
        bind "$(cd "$here/../shared" && pwd)" /work/shared ro
    else
        echo "    no ../shared beside the project: tests that read it will fail"
    fi
}

copy_project() {
    say "step 4: the project into $INNER"
    local target="$root_dir$INNER"
    mkdir -p "$target"
    # Old source files go, the venvs stay.
    find "$target" -mindepth 1 -maxdepth 1 ! -name .venv ! -name .venv-pi -exec rm -rf {} +
    (cd "$here" && git ls-files -z --cached --others --exclude-standard) |
        (cd "$here" && tar --null --ignore-failed-read -T - -cf -) | tar -C "$target" -xf -
    # The repository's history, read-only: benchmarks.vision (and its smoke test) runs
    # the detector of the commit issue 13 started from, taken out with `git archive`.
    bind "$(cd "$here" && cd "$(git rev-parse --git-common-dir)" && pwd)" "$INNER/.git" ro
    if ! inside sh -c 'command -v git' >/dev/null 2>&1; then  # a chroot made before git was in PACKAGES
        inside apt-get update -qq
        inside env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends git
    fi
}

inside_path=/usr/local/bin:/usr/bin:/bin
inside() {
    # inside COMMAND...: run it in the chroot, in the project, with a clean environment.
    # shellcheck disable=SC2016  # $0 and $@ are the inner shell's
    chroot "$root_dir" /usr/bin/env -i PATH="$inside_path" HOME=/root \
        LANG=C.UTF-8 CI="${CI:-}" PIP_CERT=/etc/ssl/host-ca.crt \
        PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_DEFAULT_TIMEOUT=180 \
        /bin/sh -c 'cd "$0" && exec "$@"' "$INNER" "$@"
}

venv() {
    say "step 5: .venv inside (pip install -e .[dev])"
    local stamp="$root_dir$INNER/.venv/.installed-arm64" sum
    sum="$(sha256sum "$here/pyproject.toml" | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
        echo "    up to date"
        return
    fi
    [ -x "$root_dir$INNER/.venv/bin/python" ] || inside python3 -m venv .venv
    inside .venv/bin/python -m pip install -q --upgrade pip
    inside .venv/bin/python -m pip install -q -e ".[dev]"
    echo "$sum" >"$stamp"
}

pi_venv() {
    say "step 5: .venv-pi inside, as scripts/install-pi.sh makes it, plus [dev]"
    local stamp="$root_dir$INNER/.venv-pi/.installed-arm64" sum
    sum="$(sha256sum "$here/pyproject.toml" "$here/scripts/pi-venv.sh" | sha256sum | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ]; then
        echo "    up to date"
        return
    fi
    if ! inside dpkg-query -W python3-numpy >/dev/null 2>&1; then
        inside apt-get update -qq
        inside env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            python3-numpy
    fi
    inside scripts/pi-venv.sh python3 .venv-pi .
    inside .venv-pi/bin/python -m pip install -q -c .venv-pi/system-constraints.txt -e ".[dev]"
    echo "$sum" >"$stamp"
}

host_tools
make_chroot
mounts
copy_project
python=.venv/bin/python
if [ "$pi_venv" -eq 1 ]; then
    pi_venv
    python=.venv-pi/bin/python
else
    venv
fi
versions="$(inside "$python" -c 'import cv2, numpy
print(f"numpy {numpy.__version__}, OpenCV {cv2.__version__}")')"
status=0
if [ "$run_command" -eq 1 ]; then
    say "step 6: $* (arm64: $(inside uname -m); $versions)"
    inside_path="$INNER/${python%/python}:$inside_path"
    inside "$@" || status=$?
    say "$1 exited with $status"
else
    say "step 6: pytest $* (arm64: $(inside uname -m); $versions)"
    inside "$python" -m pytest -p no:cacheprovider "$@" || status=$?
    say "pytest exited with $status"
fi
exit "$status"
