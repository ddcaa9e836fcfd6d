"""Where the host tools find their parts, in a checkout and in an installed wheel alike.

The rules core and everything else that goes onto the box are the files of `firmware/`:
in a checkout they are the repository's `firmware/`, in the wheel (`pipx install
scoreboard-host`) the very same files, put there by the build as `host_tools/firmware/`
(setup.py maps the folder into the package: never a copy kept in the repository).
`firmware_dir()` is the one place that tells which; the CPython stand-ins of
MicroPython's modules are `host_tools/compat/` in both.

What the tools make for themselves (the `.mpy` files of `scoreboard flash`) goes into the
checkout's `build/` or, installed, into the user's cache folder (`work_dir`). The Pico
images come from the checkout's `build/pico/` (`make uf2`), else from the wheel, which
carries those `make dist` found built (`uf2_image`).
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent  # the host_tools package
_MARK = Path("scoreboard") / "__init__.py"  # what a firmware folder holds


def checkout():
    """The repository the tools run from, or None when they are an installed wheel."""
    root = HERE.parent
    if (root / "pyproject.toml").is_file() and (root / "firmware" / _MARK).is_file():
        return root
    return None


def firmware_dir():
    """The firmware folder (its `scoreboard/`, `boards/`, `drivers/`, `main.py`): the one
    inside the installed package, else the checkout's."""
    packaged = HERE / "firmware"
    if (packaged / _MARK).is_file():
        return packaged
    return HERE.parent / "firmware"


def compat_dir():
    """The CPython stand-ins of MicroPython's `micropython` and `framebuf` modules."""
    return HERE / "compat"


def data_dir():
    """The user's data folder for the tools (the results database), by the platform's
    convention, through platformdirs: %APPDATA%\\scoreboard on Windows (roaming, as a
    user's documents are), ~/Library/Application Support/scoreboard on macOS,
    $XDG_DATA_HOME/scoreboard (~/.local/share/scoreboard) elsewhere."""
    import platformdirs

    return Path(platformdirs.user_data_dir("scoreboard", appauthor=False, roaming=True))


def work_dir(name):
    """A folder for what the tools build (`name`: e.g. "flash"): `build/NAME` in a
    checkout, else NAME in the user's cache folder (platformdirs: %LOCALAPPDATA% on
    Windows, ~/Library/Caches on macOS, $XDG_CACHE_HOME elsewhere)."""
    root = checkout()
    if root is not None:
        return root / "build" / name
    import platformdirs

    return Path(platformdirs.user_cache_dir("scoreboard", appauthor=False)) / name


def image_dirs():
    """Where the Pico images are looked for, in order: the checkout's `make uf2` output
    (build/pico/), then the folder the wheel carries them in (host_tools/images/)."""
    root = checkout()
    return ([root / "build" / "pico"] if root is not None else []) + [HERE / "images"]


def uf2_image(name):
    """The Pico image `name` (scoreboard-pico.uf2, ...), the first found in image_dirs();
    None when there is none."""
    for folder in image_dirs():
        if (folder / name).is_file():
            return folder / name
    return None
