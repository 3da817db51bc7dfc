"""Which machine a benchmark's figures come from: the line the vision and camera
benchmarks print first (issue 17, point 7).

Run under `scripts/arm64-chroot.sh --run ...` the benchmarks run as arm64 code
emulated by qemu on the x86-64 host: their CPU times are the emulator's, several
times a native core's (docs/design/arm64.md measures the factor on the engine benchmark),
and this line says so.
"""

from __future__ import annotations

import platform
from pathlib import Path

import cv2
import numpy as np

ARM = ("aarch64", "arm64", "armv7l", "armv8l")
X86_VENDORS = ("GenuineIntel", "AuthenticAMD")


def emulated(machine: str, cpuinfo: str) -> bool:
    """True when an ARM Python runs on an x86 CPU: qemu user-mode emulation, which
    passes the host's /proc/cpuinfo through."""
    return machine in ARM and any(vendor in cpuinfo for vendor in X86_VENDORS)


def machine_line() -> str:
    """`machine: aarch64 (...); Python 3.11.2, numpy 1.24.2, OpenCV 4.11.0`."""
    machine = platform.machine()
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        cpuinfo = ""
    note = (
        " EMULATED by qemu on an x86-64 host: CPU times are the emulator's, not a Pi's "
        "(docs/design/arm64.md)"
        if emulated(machine, cpuinfo)
        else ""
    )
    return (
        f"machine: {machine}{note}; Python {platform.python_version()}, "
        f"numpy {np.__version__}, OpenCV {cv2.__version__}"
    )
