"""The lock: the exact versions, with their hashes, that every machine installs.

`requirements/*.txt` are requirement files of `name==version --hash=sha256:...` lines,
resolved for Linux on x86-64 and aarch64 and Python 3.11 to 3.13 (one file holds every
platform's hashes; a line that differs by platform or Python carries a marker). They
name no index and no download address: pip installs them from wherever it is set up to
look, and refuses a file whose hash is not in the lock.

    requirements/main.txt            the product (`./run demo`, `./run cli`)
    requirements/dev.txt             the product and the `dev`, `docs` and `train` extras
                                     (`./run test`, CI)
    requirements/pi-numpy-X.txt      the product on a Raspberry Pi OS whose camera stack is
                                     built for its own numpy X (scripts/pi-venv.sh)

Every file also pins the build backend (`[build-system] requires`), so the project itself
installs with `--no-deps --no-build-isolation` and nothing unlocked is fetched.

    python -m devtools.lock write            refresh after pyproject.toml changed: keeps
                                             every pin that still fits (`./run lock`)
    python -m devtools.lock write --upgrade  the newest versions the index serves (`./run upgrade`)
    python -m devtools.lock check            pyproject.toml and the lock agree (also a test:
                                             tests/install/test_lock.py)

`write` runs uv (`uv pip compile --universal --generate-hashes`), found on PATH or in
the `UV` variable; `./run lock` installs it into `.venv-lock`. `check` needs no network.

PyTorch (the `train` extra): the package index serves only its CUDA build for x86-64
Linux, gigabytes with its nvidia-* parts. Where the machine keeps a CPU build among the
wheels pip is told to look in (`PIP_FIND_LINKS`, as the project's machines do for
Python 3.11), `write` lets uv see them too: the lock then pins `torch==X+cpu` (with that
file's hash) where such a wheel serves, and the index's build elsewhere. The lock names
no folder: pip finds the file where it is set up to look.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "requirements"
COMMAND = "./run lock"
# The environments every lock must serve: (platform_machine, Python version).
MACHINES = ("x86_64", "aarch64")
PYTHONS = ("3.11", "3.12", "3.13")
INPUTS_LINE = "# inputs sha256: "


@dataclass(frozen=True)
class Lock:
    """One requirement file: which extras of pyproject.toml it holds, and for a Pi, the
    system numpy it keeps (and the Python that system has)."""

    name: str
    extras: tuple[str, ...] = ()
    system_numpy: str | None = None
    pythons: tuple[str, ...] = PYTHONS
    what: str = ""
    # Another lock whose versions this one keeps (so `./run demo` and `./run test` share
    # one .venv without flipping versions).
    within: str | None = None

    @property
    def path(self) -> Path:
        return FOLDER / self.name


LOCKS = (
    Lock(
        "dev.txt",
        extras=("dev", "docs", "train"),
        what="the product, with the dev, docs and train extras",
    ),
    Lock("main.txt", what="the product", within="dev.txt"),
    # Raspberry Pi OS 12 (Bookworm): Python 3.11 and numpy 1.24.2, which python3-picamera2's
    # compiled parts were built for; OpenCV then resolves to 4.11, the last for numpy 1.
    Lock(
        "pi-numpy-1.24.2.txt",
        system_numpy="1.24.2",
        pythons=("3.11",),
        what="the product on Raspberry Pi OS 12 (Bookworm: Python 3.11, its numpy 1.24.2)",
    ),
    # Raspberry Pi OS 13 (Trixie): Python 3.13 and Debian's numpy 2.2.4.
    Lock(
        "pi-numpy-2.2.4.txt",
        system_numpy="2.2.4",
        pythons=("3.13",),
        what="the product on Raspberry Pi OS 13 (Trixie: Python 3.13, its numpy 2.2.4)",
    ),
)


def pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def wanted(lock: Lock, project: dict[str, object] | None = None) -> list[Requirement]:
    """What `lock` must satisfy: the project's dependencies, its extras, the build backend
    and (for a Pi) the system's numpy."""
    data = pyproject() if project is None else project
    proj = data["project"]
    build = data["build-system"]
    assert isinstance(proj, dict) and isinstance(build, dict)
    lines: list[str] = [*proj["dependencies"], *build["requires"]]
    extras = proj.get("optional-dependencies", {})
    for extra in lock.extras:
        if extra not in extras:
            raise SystemExit(f"pyproject.toml has no extra {extra!r} (devtools/lock.py)")
        lines += extras[extra]
    if lock.system_numpy is not None:
        lines.append(f"numpy=={lock.system_numpy}")
    return [Requirement(line) for line in lines]


def inputs_digest(lock: Lock, project: dict[str, object] | None = None) -> str:
    """A digest of what the lock was resolved from: any change of a requirement, a bound
    or a marker in pyproject.toml changes it (comments and order do not)."""
    lines = sorted(str(r) for r in wanted(lock, project))
    payload = json.dumps({"requirements": lines, "pythons": lock.pythons}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


# ---------------------------------------------------------------------------- reading


@dataclass
class Pin:
    """One `name==version ; marker` line of a lock, with its hashes and what needs it."""

    name: str
    version: str
    marker: Marker | None
    hashes: list[str] = field(default_factory=list)
    via: list[str] = field(default_factory=list)

    def applies(self, env: dict[str, str]) -> bool:
        return self.marker is None or self.marker.evaluate(env)


PIN = re.compile(
    r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>\S+)\s*(?:;\s*(?P<marker>[^\\]+?))?\s*\\?$"
)
HASH = re.compile(r"^\s+--hash=sha256:(?P<hash>[0-9a-f]{64})\s*\\?$")
VIA_ONE = re.compile(r"^\s+# via (?P<who>.+)$")
VIA_MANY = re.compile(r"^\s+#   (?P<who>.+)$")
# What a lock must never hold: an index, a download address, a local path.
FORBIDDEN = re.compile(
    r"(://|^\s*-(-index-url|-extra-index-url|-find-links|-trusted-host|i |f )|^\s*-e\s|@ (file|/))"
)


@dataclass
class Parsed:
    pins: list[Pin]
    digest: str | None
    problems: list[str]


def parse(text: str, where: str) -> Parsed:
    pins: list[Pin] = []
    digest = None
    problems: list[str] = []
    in_via = False
    for number, line in enumerate(text.splitlines(), 1):
        if FORBIDDEN.search(line):
            problems.append(
                f"{where}:{number} names an index, an address or a path: {line.strip()}"
            )
        if line.startswith(INPUTS_LINE):
            digest = line[len(INPUTS_LINE) :].split()[0]
            continue
        if m := PIN.match(line):
            marker = Marker(m["marker"]) if m["marker"] else None
            pins.append(Pin(canonicalize_name(m["name"]), m["version"], marker))
            in_via = False
        elif m := HASH.match(line):
            pins[-1].hashes.append(m["hash"])
        elif m := VIA_ONE.match(line):
            pins[-1].via.append(m["who"].strip())
            in_via = False
        elif line.strip() == "# via":
            in_via = True
        elif in_via and (m := VIA_MANY.match(line)):
            pins[-1].via.append(m["who"].strip())
        elif line.strip() and not line.startswith("#"):
            problems.append(f"{where}:{number} is not a pin, a hash or a comment: {line.strip()}")
    return Parsed(pins, digest, problems)


def environments(lock: Lock) -> Iterator[dict[str, str]]:
    for machine in MACHINES:
        for python in lock.pythons:
            yield {
                "implementation_name": "cpython",
                "platform_python_implementation": "CPython",
                "platform_machine": machine,
                "platform_system": "Linux",
                "sys_platform": "linux",
                "os_name": "posix",
                "python_version": python,
                "python_full_version": f"{python}.9",
                "platform_release": "",
                "platform_version": "",
                "implementation_version": f"{python}.9",
                "extra": "",
            }


def check_lock(lock: Lock, text: str, project: dict[str, object] | None = None) -> list[str]:
    """Every way `text` (the lock's file) disagrees with pyproject.toml, in words."""
    where = f"requirements/{lock.name}"
    parsed = parse(text, where)
    problems = list(parsed.problems)
    refresh = f"refresh it: {COMMAND} (DEVELOPERS.md, 'Dependencies and the lock')"
    if parsed.digest != inputs_digest(lock, project):
        problems.append(
            f"{where} was resolved from other requirements than pyproject.toml lists now; {refresh}"
        )
    for pin in parsed.pins:
        if not pin.hashes:
            problems.append(f"{where}: {pin.name}=={pin.version} has no hash")
    names = {pin.name for pin in parsed.pins}
    requirements = wanted(lock, project)
    for env in environments(lock):
        label = f"{env['platform_machine']}, Python {env['python_version']}"
        for req in requirements:
            if req.marker is not None and not req.marker.evaluate(env):
                continue
            name = canonicalize_name(req.name)
            pins = [p for p in parsed.pins if p.name == name and p.applies(env)]
            if not pins:
                problems.append(
                    f"{where} pins no {req.name} for {label} (pyproject.toml: {req}); {refresh}"
                )
            elif len(pins) > 1:
                problems.append(f"{where} pins {req.name} twice for {label}")
            elif not req.specifier.contains(Version(pins[0].version), prereleases=True):
                problems.append(
                    f"{where} pins {req.name}=={pins[0].version} for {label} but pyproject.toml "
                    f"wants {req}; {refresh}"
                )
    # Nothing stale: every pin is needed by pyproject.toml or by another pin.
    for pin in parsed.pins:
        needers = [canonicalize_name(v.split()[0]) for v in pin.via]
        known = [n for n in needers if n in names or n.startswith("-r")]
        if not known:
            problems.append(
                f"{where} pins {pin.name}=={pin.version}, which nothing needs; {refresh}"
            )
    return problems


def check(locks: Iterable[Lock] = LOCKS) -> list[str]:
    problems = []
    for lock in locks:
        if not lock.path.exists():
            problems.append(f"requirements/{lock.name} is missing: {COMMAND}")
            continue
        problems += check_lock(lock, lock.path.read_text())
    return problems


# ---------------------------------------------------------------------------- writing


def uv() -> str:
    found = os.environ.get("UV") or shutil.which("uv")
    if not found:
        raise SystemExit("uv is needed to write the lock: ./run lock installs it into .venv-lock")
    return found


def write(lock: Lock, *, upgrade: bool) -> None:
    """Resolve `lock` with uv and write it, with its inputs' digest in its header."""
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        source = tmp / "requirements.in"
        source.write_text("".join(f"{r}\n" for r in wanted(lock)))
        named = {str(source): "pyproject.toml"}
        command = [
            uv(), "pip", "compile", "--quiet", str(source),
            "--universal", "--python-version", lock.pythons[0],
            "--generate-hashes", "--no-emit-index-url", "--no-emit-find-links",
            "--custom-compile-command", COMMAND,
            "--output-file", str(lock.path),
        ]  # fmt: skip
        if upgrade:
            command.append("--upgrade")
        for wheels in os.environ.get("PIP_FIND_LINKS", "").split():
            command += ["--find-links", wheels]
        if lock.within is not None:
            within = tmp / "within.txt"
            within.write_text(
                "".join(
                    f"{p.name}=={p.version}{f' ; {p.marker}' if p.marker else ''}\n"
                    for p in parse((FOLDER / lock.within).read_text(), lock.within).pins
                )
            )
            named[str(within)] = f"requirements/{lock.within}"
            command += ["--constraints", str(within)]
        # uv reads no pip configuration; nor may a uv.toml or UV_ variable of the
        # machine's choose an index for the lock.
        env = {k: v for k, v in os.environ.items() if not k.startswith("UV_")}
        env["UV_NO_CONFIG"] = "1"
        subprocess.run(command, check=True, env=env, cwd=ROOT)
        text = lock.path.read_text()
        for path, name in named.items():
            text = text.replace(path, name)
    lines = text.splitlines()
    header = 0
    while header < len(lines) and lines[header].startswith("#"):
        header += 1
    about = [
        f"# {lock.what}: Linux on {' and '.join(MACHINES)}, Python {', '.join(lock.pythons)}",
        f"{INPUTS_LINE}{inputs_digest(lock)}",
    ]
    kept = [
        line for line in lines[:header] if line not in about and not line.startswith(INPUTS_LINE)
    ]
    lock.path.write_text("\n".join([*kept, *about, *lines[header:]]) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m devtools.lock", description=__doc__.split("\n\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    writing = sub.add_parser("write", help="resolve and write requirements/*.txt")
    writing.add_argument(
        "--upgrade", action="store_true", help="the newest versions, not the pinned"
    )
    sub.add_parser("check", help="say where pyproject.toml and the lock disagree")
    args = parser.parse_args(argv)
    if args.command == "write":
        FOLDER.mkdir(exist_ok=True)
        for lock in LOCKS:
            print(f"requirements/{lock.name}: {lock.what}", file=sys.stderr)
            write(lock, upgrade=args.upgrade)
    problems = check()
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
