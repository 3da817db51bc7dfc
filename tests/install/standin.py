"""A stand-in for Raspberry Pi OS's system Python and its camera stack, built here.

Raspberry Pi OS's archive cannot be reached from a development machine, so its part
that matters to the installer is rebuilt from what Debian 12 has (Pi OS is Debian 12):

- the system's interpreter: Debian's `/usr/bin/python3.11` copied into a prefix of its
  own (`<root>/usr/bin`), its standard library linked from `/usr/lib/python3.11`, so
  that its `dist-packages` (`<root>/usr/lib/python3/dist-packages`, laid out as on the
  Pi) is ours to fill;
- the system's numpy: 1.24.2, Pi OS Bookworm's version (a wheel of it, unpacked there);
- python3-simplejpeg: a compiled module (`simplejpeg_standin.c`) built with gcc against
  that numpy's 1.x headers, whose import runs numpy's ABI check;
- python3-picamera2: a package that imports it, as the real one does, and finds no camera.

The project's dependencies come from a wheelhouse filled once per run
(`Wheelhouse.fill`, tests/install/conftest.py): pip downloads the wheels of two of the
project's locks, exactly as they pin them and checked by their hashes: the product's
(`requirements/main.txt`: numpy 2, OpenCV 5, what a plain `pip install` also picks) and
the Bookworm Pi's (`requirements/pi-numpy-1.24.2.txt`: numpy 1.24.2 and the last OpenCV
built for it). Every pip run against the stand-in then installs from both sets, offline
(`PIP_NO_INDEX`, `PIP_FIND_LINKS`), so a plain install still makes the real choice
between the two and none downloads the ~160 MB again.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

SYSTEM_NUMPY = "1.24.2"  # python3-numpy in Raspberry Pi OS (and Debian) 12
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DEBIAN_PYTHON = Path("/usr/bin/python3.11")

PICAMERA2 = '''"""Stand-in for python3-picamera2: imports the compiled module, finds no camera."""
import simplejpeg  # as picamera2 does; fails when numpy is not the one it was built for


class Picamera2:
    @staticmethod
    def global_camera_info():
        return []
'''


@dataclass(frozen=True)
class System:
    """The stand-in system: its python3 and its dist-packages."""

    python: Path
    dist_packages: Path

    def run(self, *args: str | Path) -> subprocess.CompletedProcess[str]:
        return run([self.python, *args])


@dataclass(frozen=True)
class Wheelhouse:
    """A folder of wheels that pip installs from instead of the package index."""

    folder: Path

    @property
    def env(self) -> dict[str, str]:
        """What makes every pip run (scripts/pi-venv.sh's too) use only these wheels, and
        skip compiling the installed modules to bytecode (Python compiles what it imports)."""
        return {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(self.folder), "PIP_COMPILE": "0"}

    @classmethod
    def fill(cls, folder: Path) -> Wheelhouse:
        """The wheels of the product's lock and of the Bookworm Pi's (for this machine's
        platform and Python), downloaded from the package index."""
        for lock in ("main.txt", f"pi-numpy-{SYSTEM_NUMPY}.txt"):
            result = run(
                [sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:",
                 "--no-deps", "--require-hashes", "--dest", folder,
                 "-r", ROOT / "requirements" / lock]
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
        return cls(folder)


def run(
    command: list[str | Path], env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`command` with PYTHON* variables cleared and `env` added, its output kept; never
    raises on exit."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    environ["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    environ.update(env or {})
    return subprocess.run(
        [str(c) for c in command],
        capture_output=True, text=True, env=environ, timeout=900, check=False,
    )  # fmt: skip


def build_system(root: Path, wheels: Wheelhouse) -> System:
    """The stand-in system Python in `root`, with numpy 1.24.2 (from `wheels`), simplejpeg
    and picamera2."""
    if not DEBIAN_PYTHON.exists():
        pytest.fail(f"{DEBIAN_PYTHON} is missing: the stand-in is built from Debian 12's python3")
    for tool in ("gcc",):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is missing: apt-get install gcc python3-dev (./run test does)")
    usr = root / "usr"
    (usr / "bin").mkdir(parents=True)
    shutil.copy2(DEBIAN_PYTHON, usr / "bin" / "python3.11")
    (usr / "bin" / "python3").symlink_to("python3.11")
    (usr / "lib").mkdir()
    (usr / "lib" / "python3.11").symlink_to(DEBIAN_PYTHON.parent.parent / "lib" / "python3.11")
    dist = usr / "lib" / "python3" / "dist-packages"
    dist.mkdir(parents=True)
    system = System(usr / "bin" / "python3", dist)
    seen = system.run("-c", "import sys; print(sys.path)").stdout
    assert str(dist) in seen, f"the stand-in python does not see {dist}: {seen}"
    _install_numpy(dist, wheels)
    _build_simplejpeg(system)
    (dist / "picamera2").mkdir()
    (dist / "picamera2" / "__init__.py").write_text(PICAMERA2)
    done = system.run("-c", "import picamera2, numpy; print(numpy.__version__)")
    assert done.stdout.strip() == SYSTEM_NUMPY, done.stdout + done.stderr
    return system


def _install_numpy(dist: Path, wheels: Wheelhouse) -> None:
    result = run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--only-binary=:all:",
         "--target", dist, f"numpy=={SYSTEM_NUMPY}"],
        wheels.env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


def _build_simplejpeg(system: System) -> None:
    # Headers and suffix of the Debian interpreter the stand-in is a copy of.
    paths = run(
        [DEBIAN_PYTHON, "-c", "import sysconfig; print(sysconfig.get_paths()['include']); "
         "print(sysconfig.get_config_var('EXT_SUFFIX'))"],
    ).stdout.split()  # fmt: skip
    include, suffix = paths
    if not (Path(include) / "Python.h").exists():
        pytest.fail(f"{include}/Python.h is missing: apt-get install python3-dev")
    numpy_include = system.dist_packages / "numpy" / "core" / "include"
    result = run(
        ["gcc", "-shared", "-fPIC", "-O1", f"-I{include}", f"-I{numpy_include}",
         HERE / "simplejpeg_standin.c", "-o", system.dist_packages / f"simplejpeg{suffix}"]
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
