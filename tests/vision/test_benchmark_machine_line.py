"""The machine line the vision and camera benchmarks print first: it says when the
figures come from arm64 code emulated on an x86-64 host (issue 17, point 7)."""

from __future__ import annotations

import platform
import re

import cv2
import pytest

from benchmarks.vision import main
from benchmarks.where import emulated, machine_line

AMD = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC\n"
CORTEX = "processor\t: 0\nBogoMIPS\t: 108.00\nCPU implementer\t: 0x41\nCPU part\t: 0xd08\n"


@pytest.mark.parametrize(
    ("machine", "cpuinfo", "expected"),
    [
        ("aarch64", AMD, True),  # qemu user mode passes the host's cpuinfo through
        ("aarch64", CORTEX, False),  # a Pi 4 (Cortex-A72)
        ("x86_64", AMD, False),
        ("aarch64", "", False),
    ],
)
def test_emulation_is_told_by_an_arm_python_on_an_x86_cpu(
    machine: str, cpuinfo: str, expected: bool
) -> None:
    assert emulated(machine, cpuinfo) is expected


def test_the_line_names_the_machine_and_the_versions() -> None:
    line = machine_line()
    assert line.startswith(f"machine: {platform.machine()}")
    assert f"OpenCV {cv2.__version__}" in line


def test_the_vision_benchmark_prints_it_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--render", "--repeats", "1"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert re.match(r"machine: \S+.*; Python [\d.]+, numpy [\d.]+, OpenCV [\d.]+", first), first
