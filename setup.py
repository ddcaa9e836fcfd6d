"""What goes into the scoreboard-host wheel besides its metadata (that is pyproject.toml).

- every `host_tools*` package, found by folder (a new sub-package needs no entry here),
  with the files its pages and scripts read (HTML, JS, CSS, ...) as package data, but
  the developer's own (DEVELOPER: the benchmarks, the generators, the browser
  simulator), which need a checkout anyway (the MicroPython builds, Node, the sources
  they generate from) and which no desk command imports: the desk installs what it runs;
- the firmware, the same files as the repository's `firmware/`, mapped into the package
  as `host_tools/firmware/` (host_tools/paths.py finds it there): the rules core that
  replay, sync and report run, and what `scoreboard flash` compiles for a board;
- the Pico images that `make uf2` (or `make deps`: the RP2040 one) built into
  build/pico/, as `host_tools/images/`, for `scoreboard flash --uf2`; a build without
  them makes a wheel without them, and the command then says where to get one.

From a git checkout only the files git tracks (`git ls-files`) are taken, into the wheel
and the sdist alike: a scratch file left in firmware/ would otherwise ship, and
`scoreboard flash` put it on boards. Elsewhere (an unpacked sdist, no git) every file
there is taken: the sdist holds only what was tracked.
"""

import os
import subprocess
from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py
from setuptools.command.egg_info import egg_info, manifest_maker

FIRMWARE = "firmware"
IMAGES = "build/pico"
# The files a package's code reads at run time; the screenshots (PNG) are the README's.
DATA = ["*.html", "*.js", "*.mjs", "*.css", "*.sbn"]

NOT_CODE = ["__pycache__", "*.__pycache__"]  # CPython's byte code folders, never shipped
# The developer's packages (docs/developer.md, "What the desk installs"): left out.
DEVELOPER = ["host_tools.measure", "host_tools.measure.*", "host_tools.gen",
             "host_tools.gen.*", "host_tools.sim", "host_tools.sim.*"]


def tracked(root="."):
    """The set of files git tracks in the checkout at `root` (paths relative to it, with
    `/`), or None when `root` is not the top of a git checkout or git is missing."""
    def git(*args):
        return subprocess.run(["git", *args], cwd=root, capture_output=True, check=True,
                              timeout=60).stdout
    try:
        top = git("rev-parse", "--show-toplevel").decode().strip()
        # An sdist unpacked inside some other repository is not a checkout of this one.
        if not top or not os.path.samefile(top, root):
            return None
        names = git("ls-files", "-z", "--", "host_tools", FIRMWARE)
    except (OSError, subprocess.SubprocessError):
        return None
    return {os.fsdecode(n) for n in names.split(b"\0") if n}


TRACKED = tracked()


def taken(path):
    """Whether the file at `path` (relative to this folder) may be packed: in host_tools/
    and firmware/ a tracked one; elsewhere anything (setup.py, the metadata setuptools
    writes, the Pico images: built, never tracked)."""
    name = Path(os.path.normpath(path)).as_posix()
    if TRACKED is None or name.split("/")[0] not in ("host_tools", FIRMWARE):
        return True
    return name in TRACKED


class TrackedBuildPy(build_py):
    """build_py taking only the files `taken` says: the wheel's files, and through them
    the sdist's (setuptools lists the sdist's modules and data files from build_py)."""

    def find_package_modules(self, package, package_dir):
        return [m for m in super().find_package_modules(package, package_dir) if taken(m[2])]

    def find_data_files(self, package, src_dir):
        return [f for f in super().find_data_files(package, src_dir) if taken(f)]


class TrackedEggInfo(egg_info):
    """egg_info whose SOURCES.txt, the sdist's file list, holds only what `taken` says:
    setuptools adds back every file that an earlier build's SOURCES.txt names."""

    def find_sources(self):
        super().find_sources()
        self.filelist.files = [f for f in self.filelist.files if taken(f)]
        mm = manifest_maker(self.distribution)
        mm.manifest = os.path.join(self.egg_info, "SOURCES.txt")
        mm.filelist = self.filelist
        mm.write_manifest()


def has_tracked(package):
    """Whether a tracked file lies in the package's folder or below: an untracked folder
    is no package."""
    parts = package.split(".")
    folder = "/".join([FIRMWARE] + parts[2:] if parts[1:2] == ["firmware"] else parts)
    return TRACKED is None or any(n.startswith(folder + "/") for n in TRACKED)


packages = find_namespace_packages(include=["host_tools", "host_tools.*"],
                                   exclude=NOT_CODE + DEVELOPER)
packages += ["host_tools.firmware"] + ["host_tools.firmware." + p for p in
                                       find_namespace_packages(FIRMWARE, exclude=NOT_CODE)]
package_dir = {"host_tools.firmware": FIRMWARE}


packages = [p for p in packages if has_tracked(p)]
package_data = dict.fromkeys(packages, DATA)
if any(Path(IMAGES).glob("*.uf2")):
    packages.append("host_tools.images")
    package_dir["host_tools.images"] = IMAGES
    package_data["host_tools.images"] = ["*.uf2"]

setup(packages=packages, package_dir=package_dir, package_data=package_data,
      cmdclass={"build_py": TrackedBuildPy, "egg_info": TrackedEggInfo})
