"""Issue 25: what the package says about itself is true. Its Python claim
(`requires-python`) is at least every dependency's own, so `pipx install` on an older
Python fails on our line rather than deep in a dependency's; the docs and ruff's target
say the same version; the licences are there (MIT for the software, CERN-OHL-P-2.0 for
the hardware, the font's public-domain notice kept) and the built wheel's metadata
carries the software's.
"""

import importlib.metadata as md
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from email.parser import Parser

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from support.vdev import REPO

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]


def lowest_minor(spec):
    """The lowest 3.N a Requires-Python specifier admits (some 3.N.x release), or None."""
    spec = SpecifierSet(spec or "")
    return next((n for n in range(40) if any(spec.contains("3.%d.%d" % (n, x))
                                             for x in (0, 1, 99))), None)


def applies(req, extras):
    """Whether `req` is installed on this platform with `extras` asked for."""
    if req.marker is None:
        return True
    return any(req.marker.evaluate({**default_environment(), "extra": e})
               for e in (extras or {""}))


def dependency_claims():
    """{name: Requires-Python} of every installed dependency, direct or not, of the
    package with all its extras (psycopg too: `[postgres]` is an install option)."""
    seen = {}
    todo = [Requirement(r) for r in PROJECT["dependencies"]]
    todo += [Requirement(r) for rs in PROJECT.get("optional-dependencies", {}).values()
             for r in rs]
    while todo:
        req = todo.pop()
        if req.name.lower() in seen or not applies(req, {""}):
            continue
        dist = md.distribution(req.name)  # a missing one fails: the venv has them all
        seen[req.name.lower()] = dist.metadata.get("Requires-Python")
        todo += [r for r in map(Requirement, dist.requires or [])
                 if applies(r, req.extras | {""})]
    return seen


def test_requires_python_is_at_least_every_dependencys():
    ours = lowest_minor(PROJECT["requires-python"])
    claims = dependency_claims()
    assert "platformdirs" in claims and "aiohttp" in claims, sorted(claims)
    need = {name: lowest_minor(c) for name, c in claims.items() if c}
    highest = max(need.values())
    assert ours >= highest, ("requires-python says 3.%d but %s need 3.%d"
                             % (ours, [n for n, v in need.items() if v == highest], highest))


def test_lowest_minor_reads_the_specifiers():
    assert lowest_minor(">=3.11") == 11
    assert lowest_minor(">3.9") == 9  # 3.9.1 is above 3.9
    assert lowest_minor(">=3.8, !=3.9.*") == 8
    assert lowest_minor(None) == 0


def test_ruff_and_the_readme_claim_the_same_python():
    ours = lowest_minor(PROJECT["requires-python"])
    assert PYPROJECT["tool"]["ruff"]["target-version"] == "py3%d" % ours
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    said = {int(m) for m in re.findall(r"\b3\.(\d+) or later\b", readme)}
    assert said <= {ours}, "README.md says 3.%s or later; pyproject 3.%d" % (said, ours)


def test_the_licences_are_there():
    assert PROJECT["license"] == "MIT"
    assert PROJECT["license-files"] == ["LICENSE"]
    software = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert software.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in software
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in software
    hardware = (REPO / "hardware" / "LICENSE").read_text(encoding="utf-8")
    assert hardware.startswith("SPDX-License-Identifier: CERN-OHL-P-2.0\n")
    assert "https://ohwr.org/cern_ohl_p_v2.txt" in hardware
    # The generated faces keep Terminus Font's notice, the OFL's text is beside them, and
    # LICENSE names it.
    ui = REPO / "firmware" / "scoreboard" / "ui"
    for face in ("font12.py", "font16.py", "font24.py"):
        text = (ui / face).read_text("utf-8")
        assert "SIL Open Font License, Version 1.1" in text and "Reserved Font Name" in text
    assert "SIL OPEN FONT LICENSE Version 1.1" in (ui / "OFL.txt").read_text("utf-8")
    assert "SIL Open Font\nLicense, Version 1.1" in software


@pytest.mark.needs_build  # PyPA's build fetches setuptools>=77 from the package index
def test_the_built_wheel_declares_the_licence_and_the_python(tmp_path):
    """A wheel built from a copy of the working tree (not in the checkout, whose build/
    holds the other builds) carries License-Expression, LICENSE and Requires-Python."""
    src = tmp_path / "src"
    names = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"],
                           cwd=str(REPO), capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, names):
        if (REPO / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, src / name)
    proc = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir",
                           str(tmp_path / "dist"), str(src)], capture_output=True,
                          text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as z:
        info = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        meta = Parser().parsestr(z.read(info).decode())
        licence = z.read(info.rsplit("/", 1)[0] + "/licenses/LICENSE").decode()
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    assert meta["Requires-Python"] == PROJECT["requires-python"]
    assert licence == (REPO / "LICENSE").read_text(encoding="utf-8")
