"""The lock (requirements/*.txt) agrees with pyproject.toml (issue 33).

Every machine installs the lock, not what the package index serves that day: `./run`,
scripts/pi-venv.sh and CI install exactly its versions, each file checked by its hash. So
the lock must hold every requirement of pyproject.toml (at a version the requirement
allows, on x86-64 and aarch64 and every Python it serves), nothing stale, and nothing that
names where packages come from. A dependency changed in pyproject.toml without `./run
lock` fails here, in CI, with the command that repairs it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from devtools import lock

ROOT = Path(__file__).resolve().parents[2]
DEV = next(lk for lk in lock.LOCKS if lk.name == "dev.txt")
MAIN = next(lk for lk in lock.LOCKS if lk.name == "main.txt")


def project() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def with_dependency(old: str, new: str) -> dict[str, object]:
    """pyproject.toml with the dependency `old` replaced by `new` (or added, if `old` is '')."""
    data = project()
    deps = data["project"]["dependencies"]  # type: ignore[index]
    assert isinstance(deps, list)
    if old:
        deps[deps.index(old)] = new
    else:
        deps.append(new)
    return data


def test_the_lock_agrees_with_pyproject() -> None:
    assert lock.check() == []


def test_every_lock_is_there_and_names_no_index() -> None:
    names = {p.name for p in (ROOT / "requirements").glob("*.txt")}
    assert names == {lk.name for lk in lock.LOCKS}
    for path in (ROOT / "requirements").glob("*.txt"):
        text = path.read_text()
        assert "://" not in text and "--index-url" not in text and "--find-links" not in text
        assert not re.search(r"/opt/|file:", text), path
        pins = lock.parse(text, path.name).pins
        assert pins and all(p.hashes for p in pins), path


def test_main_keeps_the_versions_of_dev() -> None:
    """`./run demo` in a venv set up for the tests changes nothing: same versions."""
    dev = {(p.name, str(p.marker)): p.version for p in lock.parse(DEV.path.read_text(), "").pins}
    main = lock.parse(MAIN.path.read_text(), "").pins
    assert main
    for pin in main:
        assert dev[(pin.name, str(pin.marker))] == pin.version, pin.name


def test_the_pi_locks_keep_the_systems_numpy_and_an_opencv_built_for_it() -> None:
    bookworm = lock.parse((ROOT / "requirements" / "pi-numpy-1.24.2.txt").read_text(), "")
    env = next(lock.environments(lock.Lock("x", pythons=("3.11",))))
    env["platform_machine"] = "aarch64"
    versions = {p.name: p.version for p in bookworm.pins if p.applies(env)}
    assert versions["numpy"] == "1.24.2"
    assert versions["opencv-python-headless"].startswith("4.11.")
    assert "lgpio" in versions  # GPIO on 64-bit ARM


def test_a_changed_bound_without_a_new_lock_fails() -> None:
    """A bound the old pin still meets: the lock was resolved from other inputs."""
    changed = with_dependency("pydantic>=2.6", "pydantic>=2.7")
    problems = lock.check_lock(DEV, DEV.path.read_text(), changed)
    assert len(problems) == 1
    assert "resolved from other requirements than pyproject.toml lists now" in problems[0]
    assert "./run lock" in problems[0]


def test_a_bound_the_pin_does_not_meet_is_named() -> None:
    changed = with_dependency("click>=8.1", "click>=99")
    problems = lock.check_lock(DEV, DEV.path.read_text(), changed)
    [pin] = [p for p in lock.parse(DEV.path.read_text(), "").pins if p.name == "click"]
    said = f"requirements/dev.txt pins click=={pin.version} for x86_64, Python 3.11 but "
    assert any(p.startswith(said) and "wants click>=99" in p for p in problems), problems


def test_a_new_dependency_missing_from_the_lock_is_named() -> None:
    changed = with_dependency("", "tomli-w>=1.0")
    problems = lock.check_lock(DEV, DEV.path.read_text(), changed)
    assert any("pins no tomli-w for aarch64, Python 3.13" in p for p in problems), problems


def test_a_platform_marker_is_followed() -> None:
    """lgpio is wanted on 64-bit ARM below Python 3.13 only: removing its pin is noticed
    there and nowhere else."""
    text = DEV.path.read_text()
    without = re.sub(r"^lgpio==.*?(?=^\S)", "", text, flags=re.M | re.S)
    assert without != text
    problems = [p for p in lock.check_lock(DEV, without) if "pins no lgpio" in p]
    assert sorted(p.split(" for ")[1].split(" (")[0] for p in problems) == [
        "aarch64, Python 3.11",
        "aarch64, Python 3.12",
    ]


def test_a_stale_pin_an_address_and_a_missing_hash_are_named() -> None:
    text = DEV.path.read_text()
    stale = text + "left-over==1.0 \\\n    --hash=sha256:" + "0" * 64 + "\n    # via nobody\n"
    assert any("left-over==1.0, which nothing needs" in p for p in lock.check_lock(DEV, stale))
    indexed = "--extra-index-url https://example.invalid/simple\n" + text
    assert any("names an index" in p for p in lock.check_lock(DEV, indexed))
    unhashed = re.sub(r"^(ruff==\S+) \\\n(\s+--hash=\S+ \\\n)*\s+--hash=\S+\n", r"\1\n", text,
                      flags=re.M)  # fmt: skip
    assert unhashed != text
    assert any(p.startswith("requirements/dev.txt: ruff==") and p.endswith("has no hash")
               for p in lock.check_lock(DEV, unhashed))  # fmt: skip


@pytest.mark.parametrize("command", ["./run", "scripts/pi-venv.sh"])
def test_installers_install_the_lock_with_hashes(command: str) -> None:
    script = (ROOT / command).read_text()
    assert "--require-hashes" in script
    assert "--no-deps" in script
