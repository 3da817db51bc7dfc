"""What a user installs is what the tests ran (issue 22).

The sdist and the wheel are built from a clean copy of the tree (`git archive`), the wheel
is installed, not editable and with no dev extras, into a fresh venv outside the checkout
(its dependencies from the installer tests' wheelhouse, as pip would resolve them from the
package index), and from that venv:

- every module of every product package imports, from the venv's site-packages;
- `domino-table --help`, `--version`, `rules show walnut`, `doctor`, and `vision detect
  --json` on a real photo from ../shared/data work;
- the display and the tournament desk serve their pages and static files over HTTP,
  byte for byte those of the tree.

Slow (a build and an install), on the installer tests' worker: CI runs it.
"""

from __future__ import annotations

import json
import subprocess
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.fixtures.mosquitto import Mosquitto
from tests.fixtures.process import ChildProcess
from tests.fixtures.tiers import needs
from tests.install.release import (
    NOT_SHIPPED,
    Dists,
    module_names,
    shipped_files,
    shipped_packages,
    version,
)
from tests.install.standin import Wheelhouse, run

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200), pytest.mark.xdist_group("install")]

# Four ivory tiles on dark cloth, read whole by the detector.
PHOTO = "dbu__20230412_194034.jpg"

IMPORT_ALL = """
import importlib, json, sys, sysconfig
site = sysconfig.get_paths()["purelib"]
failed, outside = {}, {}
for name in json.loads(sys.stdin.read()):
    try:
        module = importlib.import_module(name)
    except Exception as exc:
        failed[name] = f"{type(exc).__name__}: {exc}"
        continue
    if not str(module.__file__).startswith(site):
        outside[name] = module.__file__
print(json.dumps({"failed": failed, "outside": outside}))
"""


@dataclass(frozen=True)
class Installed:
    """A fresh venv outside the checkout, with the wheel installed in it."""

    venv: Path
    home: Path  # a folder outside the checkout to run its commands in

    def run(self, *args: str | Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(a) for a in args],
            capture_output=True, text=True, input=stdin, cwd=self.home, timeout=600,
            check=False, env={"PATH": f"{self.venv / 'bin'}:/usr/bin:/bin", "HOME": str(self.home)},
        )  # fmt: skip

    def command(self, *args: str | Path) -> subprocess.CompletedProcess[str]:
        return self.run(self.venv / "bin" / "domino-table", *args)


@pytest.fixture(scope="module")
@needs("process")
def installed(
    tmp_path_factory: pytest.TempPathFactory, dists: Dists, wheels: Wheelhouse
) -> Installed:
    home = tmp_path_factory.mktemp("user")
    venv = home / "venv"
    made = run(["python3.11", "-m", "venv", venv])
    assert made.returncode == 0, made.stderr
    pip = run([venv / "bin" / "python", "-m", "pip", "install", "--quiet", dists.wheel], wheels.env)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    return Installed(venv, home)


@pytest.mark.process
def test_the_wheel_holds_every_module_and_data_file_of_the_tree(tree: Path, dists: Dists) -> None:
    expected = shipped_files(tree)
    shipped = dists.wheel_files()
    assert not expected - shipped, f"left out of the wheel: {sorted(expected - shipped)}"
    tops = {name.split("/")[0] for name in shipped}
    assert tops == set(shipped_packages(tree)), tops
    assert not tops & NOT_SHIPPED
    assert dists.wheel.name == f"domino_table-{version(tree)}-py3-none-any.whl"
    assert dists.sdist.name == f"domino_table-{version(tree)}.tar.gz"


def test_every_module_imports_from_the_installed_wheel(installed: Installed, tree: Path) -> None:
    names = module_names(shipped_files(tree))
    assert len(names) > 150, names  # the product, not an empty tree
    result = installed.run(installed.venv / "bin" / "python", "-I", "-c", IMPORT_ALL,
                           stdin=json.dumps(names))  # fmt: skip
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert found == {"failed": {}, "outside": {}}, found
    print(f"{len(names)} modules imported from {installed.venv}")


@pytest.mark.photos
def test_the_installed_command_line_works(
    installed: Installed, tree: Path, shared_dir: Path
) -> None:
    helped = installed.command("--help")
    assert helped.returncode == 0, helped.stderr
    for command in ("demo", "run", "rules", "vision", "display", "tournament", "doctor"):
        assert f"  {command} " in helped.stdout, helped.stdout
    shown = installed.command("--version")
    assert shown.stdout.strip() == f"domino-table, version {version(tree)}", shown.stdout
    walnut = installed.command("rules", "show", "walnut")
    assert walnut.returncode == 0, walnut.stderr
    assert "walnut" in walnut.stdout.lower()

    labels = json.loads((shared_dir / "data/vision/diverse-dev/labels.json").read_text())
    photo = shared_dir / "data/vision/diverse-dev/images" / PHOTO
    detected = installed.command("vision", "detect", photo, "--json")
    assert detected.returncode == 0, detected.stderr
    read = json.loads(detected.stdout)
    tiles = sorted(sorted(t["pips"]) for t in read["tiles"])
    assert tiles == sorted(sorted(t) for t in labels["images"][PHOTO]["tiles"]), read


def test_doctor_names_the_installed_version(installed: Installed, tree: Path) -> None:
    settings = installed.home / "doctor.toml"
    settings.write_text(f'[mqtt]\nenabled = false\n[state]\ndir = "{installed.home / "state"}"\n')
    checked = installed.command("doctor", "--settings", settings, "--timeout", "0.5")
    first = checked.stdout.splitlines()[0]
    assert first.startswith(f"domino-table {version(tree)} doctor: checking"), checked.stdout


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200, url
        return bytes(response.read())


@pytest.mark.parametrize(
    ("package", "args"),
    [
        ("display", ["display", "--table", "t1", "--no-pin"]),
        ("tournament", ["tournament", "--state-dir", "{home}/desk"]),
    ],
)
def test_the_pages_and_static_files_are_served_from_the_package(
    installed: Installed, tree: Path, broker: Mosquitto, tmp_path: Path,
    package: str, args: list[str],
) -> None:  # fmt: skip
    command = [str(installed.venv / "bin" / "domino-table"),
               *(a.format(home=installed.home) for a in args),
               "--mqtt-host", broker.host, "--mqtt-port", str(broker.port),
               "--http-host", "127.0.0.1", "--http-port", "0"]  # fmt: skip
    with ChildProcess(command, tmp_path / f"{package}.log", stdout=True) as proc:
        port = proc.served_port(timeout=60)
        proc.wait_until(lambda: fetch(f"http://127.0.0.1:{port}/"), timeout=60)
        static = tree / package / "static"
        assert fetch(f"http://127.0.0.1:{port}/") == (static / "index.html").read_bytes()
        files = sorted(p for p in static.iterdir() if p.is_file())
        assert files, static
        for file in files:
            assert fetch(f"http://127.0.0.1:{port}/static/{file.name}") == file.read_bytes(), file
