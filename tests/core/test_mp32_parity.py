"""The scenarios on the Pico-sized build: the 32-bit unix port with the firmware frozen in
(built by `make deps` into build/mp32/), where small integers are 31 bits and objects
are a Pico's size. Every scenario must print the same bytes as on the 64-bit port."""

import pytest

from support import device, mpy

SCENARIOS = mpy.scenario_files()


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.name)
def test_scenario_on_the_32_bit_frozen_build(path):
    # `--path .frozen` puts the frozen modules first: the firmware files are not read.
    rc32, out32 = mpy.run_micropython(mpy.REPLAY_SCRIPT, path, "--path", ".frozen",
                                      interpreter=device.MP32)
    rc64, out64 = mpy.run_micropython(mpy.REPLAY_SCRIPT, path)
    assert (rc32, out32) == (rc64, out64)
