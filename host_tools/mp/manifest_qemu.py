# ruff: noqa: F821  (a MicroPython manifest: include() and module() come from makemanifest)
# Freezes the firmware and the key runner (with its mp_args) into the Cortex-M3
# (MPS2-AN385) build that `python -m host_tools.measure.qemu_smoke` runs under QEMU: the real ARM
# Thumb code path with a Pico-sized heap. The QEMU port has no asyncio: the runner steps
# the app itself.
# The app: the one list of what is frozen, firmware/manifest.py, without the rp2 port's
# manifest and main.py (port=False). The drivers come along unused (flash, not heap).
include("$(MPY_DIR)/../../firmware/manifest.py", port=False)
module("device.py", base_path="$(MPY_DIR)/../../host_tools/mp")
module("mp_args.py", base_path="$(MPY_DIR)/../../host_tools/mp")
