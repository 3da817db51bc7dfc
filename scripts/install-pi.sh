#!/usr/bin/env bash
# Installs domino-table as a service on a 64-bit Raspberry Pi OS (Pi 4, Pi 5).
# Run as root from a clone of the project:   sudo scripts/install-pi.sh
# See what it would do first:                 scripts/install-pi.sh --dry-run
#
# Idempotent: run it again after `git pull` to update. It never overwrites
# /etc/domino-table/settings.toml or any password file. Steps (docs/guide/install-pi.md):
#   1 check the system     64-bit, Python >= 3.11, systemd, apt
#   2 Debian packages      python3-venv, python3-lgpio, python3-picamera2, ... (missing ones)
#   3 user domino          system user in the dialout, gpio and video groups
#   4 program              the project copied to /opt/domino-table/src
#   5 virtual environment  /opt/domino-table/.venv on the system's numpy (scripts/pi-venv.sh)
#   6 state folder         /var/lib/domino-table (the game's journal)
#   7 settings             /etc/domino-table/settings.toml from config/examples/
#   8 udev rule            /dev/domino-board for the board (2e8a:000a)
#   9 systemd units        domino-table.service (and domino-display.service)
#  10 enable               enabled at boot; restarted if it was running
set -euo pipefail

usage() {
    cat <<'EOF'
usage: install-pi.sh [--dry-run] [--example NAME] [--with-display] [--with-broker]
                     [--no-apt] [--source DIR] [--unlocked]

  --dry-run        print every step and command, change nothing (no root needed)
  --example NAME   settings to start from: config/examples/NAME.toml (default: kitchen);
                   used only when /etc/domino-table/settings.toml does not exist yet
  --with-display   also install domino-display.service (the table's web page)
  --with-broker    also install Mosquitto on this Pi (docs/guide/security.md configures it)
  --no-apt         do not install Debian packages (offline; they must be there)
  --source DIR     the project to install (default: the clone this script is in)
  --unlocked       let pip choose the versions, for a system whose numpy has no lock in
                   requirements/ (versions no test has run; docs/guide/install-pi.md)
EOF
}

PREFIX=/opt/domino-table
STATE_DIR=/var/lib/domino-table
ETC_DIR=/etc/domino-table
UNIT_DIR=/etc/systemd/system
UDEV_DIR=/etc/udev/rules.d
USER_NAME=domino
GROUPS_NEEDED=(dialout gpio video)

dry_run=0
example=kitchen
with_display=0
with_broker=0
use_apt=1
unlocked=0
source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) dry_run=1 ;;
        --example) example="${2:?--example needs a name}"; shift ;;
        --example=*) example="${1#*=}" ;;
        --with-display) with_display=1 ;;
        --with-broker) with_broker=1 ;;
        --no-apt) use_apt=0 ;;
        --unlocked) unlocked=1 ;;
        --source) source_dir="${2:?--source needs a folder}"; shift ;;
        --source=*) source_dir="${1#*=}" ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; echo "error: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

step_no=0
step() { step_no=$((step_no + 1)); printf '\n==> step %d: %s\n' "$step_no" "$*"; }
note() { printf '    %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# run CMD...: run it (echoed), or only print it with --dry-run.
run() {
    if [ "$dry_run" -eq 1 ]; then
        printf '    would run:'; printf ' %q' "$@"; printf '\n'
    else
        printf '    +'; printf ' %q' "$@"; printf '\n'
        "$@"
    fi
}

check_system() {
    step "check the system (64-bit, Python >= 3.11, systemd, apt)"
    # The userland decides, not the kernel: a 32-bit Raspberry Pi OS on a Pi 4 or 5 runs
    # a 64-bit kernel (uname -m says aarch64) under 32-bit (armhf) programs.
    local arch
    arch="$(dpkg --print-architecture 2>/dev/null || uname -m)"
    case "$arch" in
        arm64 | amd64 | aarch64 | x86_64) note "architecture $arch: 64-bit, fine" ;;
        *)
            local why="OpenCV and NumPy have no 32-bit ARM wheels: install the 64-bit"
            why+=" Raspberry Pi OS (docs/guide/install-pi.md)"
            if [ "$dry_run" -eq 1 ]; then
                note "WARNING: $arch is not a 64-bit system; $why"
            else
                die "$arch is not a 64-bit system; $why"
            fi
            ;;
    esac
    if [ "$dry_run" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
        die "run as root: sudo $0 (or --dry-run to see what it would do)"
    fi
    if [ ! -f "$source_dir/pyproject.toml" ] || [ ! -d "$source_dir/service" ]; then
        die "$source_dir is not the domino-table project (no pyproject.toml): use --source DIR"
    fi
    [ -f "$source_dir/config/examples/$example.toml" ] ||
        die "no example settings $source_dir/config/examples/$example.toml (--example NAME)"
    if command -v python3 >/dev/null 2>&1 &&
        python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
        note "$(python3 --version): fine"
    elif [ "$use_apt" -eq 1 ]; then
        note "python3 >= 3.11 missing: step 2 installs it"
    else
        die "Python 3.11 or newer is needed (Raspberry Pi OS Bookworm has 3.11)"
    fi
    command -v systemctl >/dev/null 2>&1 || die "no systemctl: this installer needs systemd"
    note "source: $source_dir"
}

apt_packages() {
    step "Debian packages (only the missing ones)"
    local wanted=(python3 python3-venv python3-pip ca-certificates)
    [ "$with_broker" -eq 1 ] && wanted+=(mosquitto mosquitto-clients)
    # Only Raspberry Pi OS's archive has these two: GPIO on Pi 4 and Pi 5 (gpiozero's lgpio
    # pin factory; elsewhere pip installs the lgpio wheel on 64-bit ARM) and the camera
    # module (picamera2 with libcamera: --camera picamera). Without recommends, as the
    # Raspberry Pi documentation says for Lite: no Qt or OpenGL preview.
    local optional=(python3-lgpio python3-picamera2)
    if [ "$use_apt" -eq 0 ]; then
        note "skipped (--no-apt): needs ${wanted[*]} (and ${optional[*]} on a Pi)"
        return
    fi
    local missing=() p
    for p in "${wanted[@]}" "${optional[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        note "all there: ${wanted[*]} ${optional[*]}"
        return
    fi
    run apt-get update
    local install=()
    for p in "${missing[@]}"; do
        if [[ " ${optional[*]} " == *" $p "* ]] && ! apt-cache show "$p" >/dev/null 2>&1; then
            note "$p is not in this system's apt sources (Raspberry Pi OS has it)"
        else
            install+=("$p")
        fi
    done
    [ ${#install[@]} -eq 0 ] && return
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${install[@]}"
}

service_user() {
    step "user $USER_NAME in the groups ${GROUPS_NEEDED[*]}"
    local g
    for g in "${GROUPS_NEEDED[@]}"; do
        getent group "$g" >/dev/null || run groupadd --system "$g"
    done
    if id "$USER_NAME" >/dev/null 2>&1; then
        note "user $USER_NAME exists"
    else
        run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "domino-table service" "$USER_NAME"
    fi
    run usermod --append --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$USER_NAME"
}

copy_program() {
    step "program in $PREFIX/src"
    if [ "$(cd "$source_dir" && pwd -P)" = "$(cd "$PREFIX/src" 2>/dev/null && pwd -P)" ]; then
        note "installing from $PREFIX/src itself: nothing to copy"
        return
    fi
    run install -d -m 755 "$PREFIX"
    run rm -rf "$PREFIX/src.new"
    run install -d -m 755 "$PREFIX/src.new"
    # The tracked tree without the developer's venv, caches and test output.
    if [ "$dry_run" -eq 1 ]; then
        printf '    would run: tar -C %s -c (without .git .venv test-output caches) | tar -C %s -x\n' \
            "$source_dir" "$PREFIX/src.new"
    else
        tar -C "$source_dir" --exclude=./.git --exclude=./.venv --exclude=./test-output \
            --exclude='__pycache__' --exclude='*.egg-info' --exclude='.*_cache' -cf - . |
            tar -C "$PREFIX/src.new" --no-same-owner -xf -
        printf '    + copied %s to %s\n' "$source_dir" "$PREFIX/src.new"
    fi
    run rm -rf "$PREFIX/src"
    run mv "$PREFIX/src.new" "$PREFIX/src"
    run chown -R root:root "$PREFIX/src"
}

virtual_env() {
    step "virtual environment $PREFIX/.venv"
    # --system-site-packages for apt's python3-lgpio and python3-picamera2, numpy pinned to
    # the system's (which that camera stack was built for), everything else from pip.
    local dry=()
    [ "$dry_run" -eq 1 ] && dry=(--dry-run)
    [ "$unlocked" -eq 1 ] && dry+=(--unlocked)
    "$source_dir/scripts/pi-venv.sh" "${dry[@]}" python3 "$PREFIX/.venv" "$PREFIX/src"
}

state_folder() {
    step "state folder $STATE_DIR"
    run install -d -m 750 -o "$USER_NAME" -g "$USER_NAME" "$STATE_DIR"
}

settings_file() {
    step "settings $ETC_DIR/settings.toml"
    run install -d -m 750 -o root -g "$USER_NAME" "$ETC_DIR"
    if [ -e "$ETC_DIR/settings.toml" ]; then
        note "kept: $ETC_DIR/settings.toml exists (never overwritten)"
    else
        run install -m 640 -o root -g "$USER_NAME" \
            "$source_dir/config/examples/$example.toml" "$ETC_DIR/settings.toml"
        note "from config/examples/$example.toml: edit it (docs/guide/settings.md)"
    fi
    if [ "$with_display" -eq 1 ] && [ ! -e "$ETC_DIR/display.env" ]; then
        if [ "$dry_run" -eq 1 ]; then
            note "would write $ETC_DIR/display.env (DISPLAY_ARGS for domino-display)"
        else
            printf '%s\n' "# Options of domino-display.service (domino-table display --help)." \
                "DISPLAY_ARGS=--table table --http-host 0.0.0.0" >"$ETC_DIR/display.env"
            chmod 640 "$ETC_DIR/display.env"
            chgrp "$USER_NAME" "$ETC_DIR/display.env"
            note "wrote $ETC_DIR/display.env: set --table (and the display's MQTT user)"
        fi
    fi
}

udev_rule() {
    step "udev rule: /dev/domino-board"
    run install -m 644 "$source_dir/config/99-domino-board.rules" "$UDEV_DIR/99-domino-board.rules"
    if [ "$dry_run" -eq 1 ] || udevadm control --ping >/dev/null 2>&1; then
        run udevadm control --reload-rules
        run udevadm trigger --subsystem-match=tty --action=add
    else
        note "udev is not running here: the rule applies at the next boot"
    fi
}

systemd_units() {
    step "systemd units in $UNIT_DIR"
    run install -m 644 "$source_dir/config/domino-table.service" "$UNIT_DIR/domino-table.service"
    if [ "$with_display" -eq 1 ]; then
        run install -m 644 "$source_dir/config/domino-display.service" \
            "$UNIT_DIR/domino-display.service"
    fi
    run systemctl daemon-reload
}

enable_units() {
    step "enable at boot (restart if running)"
    local units=(domino-table.service)
    [ "$with_display" -eq 1 ] && units+=(domino-display.service)
    run systemctl enable "${units[@]}"
    run systemctl try-restart "${units[@]}"
}

main() {
    [ "$dry_run" -eq 1 ] && echo "dry run: nothing is changed"
    check_system
    apt_packages
    service_user
    copy_program
    virtual_env
    state_folder
    settings_file
    udev_rule
    systemd_units
    enable_units
    cat <<EOF

Done$([ "$dry_run" -eq 1 ] && echo " (dry run)"). Next:
  1. edit $ETC_DIR/settings.toml (table id, board port /dev/domino-board, broker)
  2. put the MQTT password in the file it names (owner $USER_NAME, chmod 600)
  3. sudo -u $USER_NAME $PREFIX/.venv/bin/domino-table doctor --settings $ETC_DIR/settings.toml
  4. sudo systemctl start domino-table && journalctl -u domino-table -f
EOF
}

main
