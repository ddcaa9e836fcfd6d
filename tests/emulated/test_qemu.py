"""The frozen firmware on a Cortex-M3 (QEMU, a 192 KB heap as on a Pico): a frame played by
keys prints the same journal, byte for byte, as on the unix port."""

from support import mpy


def test_frozen_app_under_qemu_matches_the_unix_port():
    rc, out = mpy.run_tool([mpy.BIN / "python", "-m", "host_tools.measure.qemu_smoke"],
                           timeout=120)
    assert rc == 0, out
    assert "byte-identical: yes" in out
    size = int(out.split(": ")[1].split(" journal bytes")[0])
    assert size > 600, "the whole frame was journaled (7 header lines, 21 events)"
