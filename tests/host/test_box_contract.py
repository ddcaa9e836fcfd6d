"""Issue 39 item 2: one contract for the box on the desk's side (host_tools/device/box.py).
Every class that reaches a box has every member of box.MEMBERS, each method with the
same parameters (names, order, defaults), so sync, setup, live and the desk take any of
them and probe for nothing."""

import inspect
import re

import pytest

from host_tools.device import box
from host_tools.device.channel import ChannelBox
from host_tools.device.sync_board import Board
from host_tools.device.netbox import NetBox
from support.mpy import REPO

BOXES = [ChannelBox, Board, NetBox]
ATTRIBUTES = ("port",)  # set by each class's __init__, not a method


def _parameters(cls, name):
    params = list(inspect.signature(getattr(cls, name)).parameters.values())
    return [(p.name, p.kind, p.default) for p in params[1:]]  # self left out


def test_the_contract_lists_what_its_docstring_promises():
    doc = box.__doc__
    listed = re.findall(r"^    ([a-z_]+)(?:\(|\s)", doc, re.M)
    assert [m for m in box.MEMBERS if not m.startswith("__")] == listed


@pytest.mark.parametrize("cls", BOXES, ids=lambda c: c.__name__)
def test_every_box_class_has_every_member(cls):
    methods = [m for m in box.MEMBERS if m not in ATTRIBUTES]
    missing = [m for m in methods if not callable(getattr(cls, m, None))]
    assert not missing, "%s lacks %s" % (cls.__name__, missing)
    source = inspect.getsource(cls.__init__)
    for name in ATTRIBUTES:
        assert re.search(r"self\.%s\s*=" % name, source), "%s sets no %s" % (
            cls.__name__, name)


@pytest.mark.parametrize("name", [m for m in box.MEMBERS if m not in ATTRIBUTES])
def test_each_member_takes_the_same_parameters_in_every_class(name):
    first, *rest = BOXES
    want = _parameters(first, name)
    for cls in rest:
        assert _parameters(cls, name) == want, "%s.%s%s, %s.%s%s" % (
            first.__name__, name, inspect.signature(getattr(first, name)), cls.__name__,
            name, inspect.signature(getattr(cls, name)))


def test_the_desk_probes_no_box_for_a_member():
    """The contract holds every member: no hasattr/getattr on a box in the desk's code."""
    probes = []
    for path in (REPO / "host_tools").rglob("*.py"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"(hasattr|getattr)\((box|board|self\.board)\b", line):
                probes.append("%s:%d: %s" % (path.relative_to(REPO), n, line.strip()))
    assert not probes, "\n".join(probes)
