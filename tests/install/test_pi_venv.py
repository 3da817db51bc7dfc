"""The installer's environment keeps the system's camera stack importable (issue 17).

Against the stand-in of Raspberry Pi OS's Python (`standin.py`: numpy 1.24.2 in the
system's dist-packages, a compiled simplejpeg built against it, picamera2 importing it),
`scripts/pi-venv.sh` (step 5 of `scripts/install-pi.sh`) installs this project for real:
the lock made for the system's numpy (`requirements/pi-numpy-1.24.2.txt`, issue 33), then
the wheel built from a clean copy of the tree (issue 22), from the wheels the package index
gave for the locks (`standin.Wheelhouse`, downloaded once for the run). In the venv it
makes, `doctor` runs and the camera path reads a rendered frame on the system's numpy.
The installer's old logic (a plain `pip install` into a `--system-site-packages` venv) is
run too: pip then puts numpy 2 and OpenCV 5 into the venv, the compiled module fails
numpy's ABI check, and `domino-table doctor` says so; the script run over that venv
repairs it. Slow: several installs of the project, one worker runs them all (one
stand-in, one wheelhouse).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from packaging.utils import canonicalize_name

from devtools import lock
from tests.install.release import Dists
from tests.install.standin import (
    ROOT,
    SYSTEM_NUMPY,
    System,
    Wheelhouse,
    build_system,
    run,
)

PI_VENV = ROOT / "scripts" / "pi-venv.sh"
IMPORT_ALL = (
    "import cv2, numpy, picamera2, simplejpeg; "
    "print(numpy.__version__, numpy.__file__, cv2.__version__, simplejpeg.nbytes(numpy.ones(3)))"
)
Result = subprocess.CompletedProcess[str]
# The camera path, run by the installed venv on its system's numpy and OpenCV 4.x: one
# rendered frame of a still table (four tiles and the corner markers), fed until the
# reading settles; the calibration it found and the tiles it read.
FRAME_TILES = ((6, 6, 450, 288, 450, 312), (6, 3, 474, 300, 498, 300),
               (2, 1, 150, 120, 150, 144), (5, 0, 760, 500, 784, 500))  # fmt: skip
CAMERA_PATH = f"""
import json, sys
import numpy
from engine.surface import SeenTile
from tablesim.render import Camera, RenderStyle, Scene, TileStyle, render_frame
from vision import Frame, Pipeline

scene = Scene(tiles=tuple(SeenTile(*t) for t in {FRAME_TILES!r}))
camera = Camera.overhead((900, 600), keystone=0.06, rotation_deg=3)
image = render_frame(scene, camera, RenderStyle(tiles=TileStyle.IVORY), seed=3).image
pipeline = Pipeline(state_dir=sys.argv[1])
seen = [pipeline.feed(Frame(image, i / 10)) for i in range(4)]
settled = [s for s in seen if s is not None]
print(json.dumps({{
    "numpy": numpy.__version__,
    "calibration": pipeline.calibration.method.value if pipeline.calibration else None,
    "tiles": sorted(str(t.tile) for t in settled[-1].tiles) if settled else None,
}}))
"""
SETTINGS = """
[camera]
enabled = true
source = "picamera"
[mqtt]
enabled = false
[state]
dir = "{state}"
"""

# real pip installs, all on the installer tests' worker: the stand-in, the wheelhouse and
# the wheel (tests/install/conftest.py) are made once
pytestmark = [
    pytest.mark.slow,
    pytest.mark.process,
    pytest.mark.timeout(1200),
    pytest.mark.xdist_group("install"),
]


@pytest.fixture(scope="module")
def system(tmp_path_factory: pytest.TempPathFactory, wheels: Wheelhouse) -> System:
    return build_system(tmp_path_factory.mktemp("pi-os"), wheels)


@pytest.fixture(scope="module")
def project(dists: Dists) -> Path:
    """What the installer installs: the wheel built from the clean tree."""
    return dists.wheel


def old_logic(system: System, venv: Path, project: Path, wheels: Wheelhouse) -> None:
    """What scripts/install-pi.sh did before: a venv seeing the system, a plain install."""
    made = system.run("-m", "venv", "--system-site-packages", venv)
    assert made.returncode == 0, made.stderr
    pip = run(
        [venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--upgrade", project],
        wheels.env,
    )
    assert pip.returncode == 0, pip.stderr


def pi_venv(system: System, venv: Path, project: Path, wheels: Wheelhouse, *options: str) -> Result:
    """scripts/pi-venv.sh for the stand-in system, its pip limited to `wheels`."""
    return run([PI_VENV, *options, system.python, venv, project], wheels.env)


def camera_line(venv: Path, tmp_path: Path) -> str:
    """What `domino-table doctor`, run from `venv`, says of the camera."""
    settings = tmp_path / "settings.toml"
    settings.write_text(SETTINGS.format(state=tmp_path / "state"))
    out = run([venv / "bin" / "domino-table", "doctor", "--settings", settings]).stdout
    found = re.search(r"^(\S+)\s+camera\s+(.+\n(?:\s+fix: .+)?)", out, re.M)
    assert found is not None, out
    return f"{found[1]} {found[2]}"


def test_a_fresh_install_keeps_the_systems_numpy_and_camera_stack(
    system: System, project: Path, wheels: Wheelhouse, tmp_path: Path
) -> None:
    venv = tmp_path / "venv"
    result = pi_venv(system, venv, project, wheels)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"the system's numpy {SYSTEM_NUMPY} stays" in result.stdout
    assert f"the lock: requirements/pi-numpy-{SYSTEM_NUMPY}.txt" in result.stdout
    assert "import picamera2: fine in the venv" in result.stdout
    assert (venv / "system-constraints.txt").read_text().splitlines()[
        -1
    ] == f"numpy=={SYSTEM_NUMPY}"
    imported = run([venv / "bin" / "python", "-c", IMPORT_ALL])
    assert imported.returncode == 0, imported.stderr
    version, where, opencv, nbytes = imported.stdout.split()
    assert version == SYSTEM_NUMPY and where.startswith(str(system.dist_packages))
    assert opencv.startswith("4.11."), opencv  # the last OpenCV built for numpy 1.x
    frozen = run([venv / "bin" / "python", "-m", "pip", "freeze", "--local"]).stdout
    locked = lock.parse((ROOT / "requirements" / f"pi-numpy-{SYSTEM_NUMPY}.txt").read_text(), "")
    pins = {(p.name, p.version) for p in locked.pins}
    for line in frozen.splitlines():  # the venv holds the lock's versions, and the project
        name, _, have = line.partition("==")
        assert name.startswith("domino-table") or (canonicalize_name(name), have) in pins, line
    assert nbytes == "24"
    assert not list(venv.glob("lib/python3*/site-packages/numpy*"))
    line = camera_line(venv, tmp_path)
    assert line.startswith("PROBLEM no Pi camera module found"), line  # imported, no camera
    read = run([venv / "bin" / "python", "-I", "-c", CAMERA_PATH, tmp_path / "camera"])
    assert read.returncode == 0, read.stderr
    assert json.loads(read.stdout) == {
        "numpy": SYSTEM_NUMPY,
        "calibration": "markers",
        "tiles": sorted(f"{a}-{b}" for a, b, *_ in FRAME_TILES),
    }


def test_the_old_logic_breaks_the_camera_stack_and_the_script_repairs_it(
    system: System, project: Path, wheels: Wheelhouse, tmp_path: Path
) -> None:
    venv = tmp_path / "venv"
    old_logic(system, venv, project, wheels)
    assert list(venv.glob("lib/python3*/site-packages/numpy-2.*.dist-info"))
    broken = run([venv / "bin" / "python", "-c", IMPORT_ALL])
    assert broken.returncode != 0
    assert "numpy.core.multiarray failed to import" in broken.stderr, broken.stderr
    assert "compiled using NumPy 1.x cannot be run in" in broken.stderr, broken.stderr
    line = camera_line(venv, tmp_path)
    assert line.startswith("PROBLEM picamera2 cannot be imported (ImportError: numpy."), line
    assert "scripts/install-pi.sh" in line

    repaired = pi_venv(system, venv, project, wheels)
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    assert "pip uninstall --quiet --yes numpy" in repaired.stdout
    fixed = run([venv / "bin" / "python", "-c", IMPORT_ALL])
    assert fixed.returncode == 0, fixed.stderr
    assert fixed.stdout.split()[0] == SYSTEM_NUMPY
    assert camera_line(venv, tmp_path).startswith("PROBLEM no Pi camera module found")


def tiny_project(folder: Path, dependencies: str, module: str | None = None) -> Path:
    """A project of one optional module, with `dependencies` (a TOML list)."""
    folder.mkdir()
    modules = "[]" if module is None else '["simplejpeg"]'
    (folder / "pyproject.toml").write_text(
        f'[project]\nname = "{folder.name}"\nversion = "1"\ndependencies = {dependencies}\n'
        '[build-system]\nrequires = ["setuptools>=77"]\n'
        'build-backend = "setuptools.build_meta"\n'
        f"[tool.setuptools]\npackages = []\npy-modules = {modules}\n"
    )
    if module is not None:
        (folder / "simplejpeg.py").write_text(module)
    return folder


def test_a_project_the_lock_does_not_serve_is_refused(
    system: System, wheels: Wheelhouse, tmp_path: Path
) -> None:
    """The project is installed alone after the lock: what it needs and the lock lacks
    is named (here numpy 2, where the system's numpy 1.24.2 stays)."""
    project = tiny_project(tmp_path / "needs-numpy-2", '["numpy>=2"]')
    result = pi_venv(system, tmp_path / "venv", project, wheels)
    assert result.returncode != 0
    assert f"needs-numpy-2 needs numpy>=2 (the venv has {SYSTEM_NUMPY})" in result.stderr, (
        result.stderr
    )
    assert "was not made for this project (./run lock)" in result.stderr


def test_unlocked_a_project_needing_numpy_2_is_refused(
    system: System, wheels: Wheelhouse, tmp_path: Path
) -> None:
    project = tiny_project(tmp_path / "needs-numpy-2", '["numpy>=2"]')
    result = pi_venv(system, tmp_path / "venv", project, wheels, "--unlocked")
    assert result.returncode != 0
    assert "ResolutionImpossible" in result.stderr, result.stderr  # numpy 2 is there: the pin
    assert f"with numpy=={SYSTEM_NUMPY}" in result.stderr, result.stderr


def test_a_system_numpy_with_no_lock_is_refused_in_words(
    system: System, wheels: Wheelhouse, tmp_path: Path
) -> None:
    """The script beside a requirements/ folder with no lock for numpy 1.24.2."""
    (tmp_path / "scripts").mkdir()
    (tmp_path / "requirements").mkdir()
    shutil.copy2(PI_VENV, tmp_path / "scripts" / PI_VENV.name)
    (tmp_path / "requirements" / "pi-numpy-9.9.txt").write_text("")
    result = run(
        [tmp_path / "scripts" / PI_VENV.name, system.python, tmp_path / "venv", tmp_path],
        wheels.env,
    )
    assert result.returncode == 1
    assert (
        f"error: no lock for the system's numpy {SYSTEM_NUMPY} (there are locks for numpy 9.9)"
        in result.stderr
    ), result.stderr
    assert "--unlocked" in result.stderr


def test_the_last_step_fails_when_the_venv_shadows_a_module_of_the_stack(
    system: System, wheels: Wheelhouse, tmp_path: Path
) -> None:
    """The check is not blind: a project whose own `simplejpeg` shadows the system's."""
    project = tiny_project(tmp_path / "shadows", "[]", 'raise ImportError("not the system\'s")')
    result = pi_venv(system, tmp_path / "venv", project, wheels)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "the system imports picamera2 but the venv cannot: ImportError: not the system's" in (
        result.stderr
    )
