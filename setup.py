"""What goes into the scoreboard-host wheel besides its metadata (that is pyproject.toml).

- every `host_tools*` package, found by folder (a new sub-package needs no entry here),
  with the files its pages and scripts read (HTML, JS, CSS, ...) as package data;
- the firmware, the same files as the repository's `firmware/`, mapped into the package
  as `host_tools/firmware/` (host_tools/paths.py finds it there): the rules core that
  replay, sync and report run, and what `scoreboard flash` compiles for a board;
- the Pico images that `make uf2` (or `make deps`: the RP2040 one) built into
  build/pico/, as `host_tools/images/`, for `scoreboard flash --uf2`; a build without
  them makes a wheel without them, and the command then says where to get one.
"""

from pathlib import Path

from setuptools import find_namespace_packages, setup

FIRMWARE = "firmware"
IMAGES = "build/pico"
# The files a package's code reads at run time; the screenshots (PNG) are the README's.
DATA = ["*.html", "*.js", "*.mjs", "*.css", "*.sbn"]

NOT_CODE = ["__pycache__", "*.__pycache__"]  # CPython's byte code folders, never shipped

packages = find_namespace_packages(include=["host_tools", "host_tools.*"], exclude=NOT_CODE)
packages += ["host_tools.firmware"] + ["host_tools.firmware." + p for p in
                                       find_namespace_packages(FIRMWARE, exclude=NOT_CODE)]
package_dir = {"host_tools.firmware": FIRMWARE}
package_data = dict.fromkeys(packages, DATA)
if any(Path(IMAGES).glob("*.uf2")):
    packages.append("host_tools.images")
    package_dir["host_tools.images"] = IMAGES
    package_data["host_tools.images"] = ["*.uf2"]

setup(packages=packages, package_dir=package_dir, package_data=package_data)
