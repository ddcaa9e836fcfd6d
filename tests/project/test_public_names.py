"""Public names across module boundaries: no module of firmware/ or host_tools/ reaches
into another object's private members (`x._name`, on anything but `self` or `cls`), so
that a name with a leading underscore can change with its own module alone. Where a
module needs another's private state, it gets a public way (the language tables'
`lang.texts`, the app's `led_changed`, aiohttp's `runner.addresses`).

The test reads the code (ast); it runs nothing, so it is in `make check`.
"""

import ast

import pytest

from support import mpy


def _rel(path):
    return path.relative_to(mpy.REPO).as_posix()


# Public names across module boundaries: the rules core and the keys reach nothing
# private (`x._name`) of another object than their own (`self`, `cls`).
PUBLIC_ONLY = sorted(p for p in mpy.firmware_files()
                     if _rel(p).startswith(("firmware/scoreboard/core/",
                                            "firmware/scoreboard/keys/")))


def _private_reaches(path):
    """(line, text) of each `x._name` (not a dunder) on anything but self or cls."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
            found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


@pytest.mark.parametrize("path", PUBLIC_ONLY, ids=_rel)
def test_no_private_names_across_modules(path):
    assert not _private_reaches(path), _rel(path)


def test_a_private_reach_is_caught(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(g, m):\n    g._done(1)\n    return m.__name__, g.done\n")
    assert _private_reaches(bad) == [(2, "g._done")]


def _sources():
    """Every .py file of firmware/ and host_tools/ (the tests are not the product)."""
    return sorted(p for folder in (mpy.FIRMWARE, mpy.REPO / "host_tools")
                  for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def _private_getattrs(path):
    """(line, text) of each getattr/setattr/hasattr of a private name by its literal."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "setattr", "hasattr") and len(node.args) > 1
                and isinstance(node.args[1], ast.Constant)
                and str(node.args[1].value).startswith("_")
                and not str(node.args[1].value).startswith("__")
                and not (isinstance(node.args[0], ast.Name)
                         and node.args[0].id in ("self", "cls"))):
            found.append((node.lineno, ast.unparse(node)))
    return found


# The reaches kept, and why: none is into this project's own code.
KEPT = {
    # The os module's own documented function (an exit with no clean-up): a public name
    # that happens to start with an underscore.
    ("host_tools/__init__.py", "os._exit"),
    # asyncio names no failed callback publicly: live's exception handler tells its own
    # retry of the accepts (after the server closed) from any other error by it.
    ("host_tools/live/server.py", "getattr(context.get('handle'), '_callback', None)"),
    # MicroPython's documented name for the board's machine string (its docs:
    # sys.implementation._machine), which tells the Pico W image from the Pico's.
    ("firmware/main.py", "getattr(sys.implementation, '_machine', '')"),
}


def test_nothing_reaches_into_another_objects_private_members():
    found = sorted((_rel(p), line, text) for p in _sources()
                   for line, text in _private_reaches(p) + _private_getattrs(p))
    new = [f for f in found if (f[0], f[2]) not in KEPT]
    assert not new, new
    assert {(f[0], f[2]) for f in found} == KEPT  # a kept one gone: strike it here


def test_a_private_getattr_is_caught(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(g):\n    return getattr(g, '_done', 0), getattr(self, '_x')\n")
    assert _private_getattrs(bad) == [(2, "getattr(g, '_done', 0)")]
