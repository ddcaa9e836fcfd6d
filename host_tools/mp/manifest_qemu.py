# ruff: noqa: F821  (a MicroPython manifest: package() and module() come from makemanifest)
# Freezes the firmware and the key runner (with its mp_args) into the Cortex-M3
# (MPS2-AN385) build that `python -m host_tools.qemu_smoke` runs under QEMU: the real ARM
# Thumb code path with a Pico-sized heap. The QEMU port has no asyncio: the runner steps
# the app itself.
package("scoreboard", base_path="$(MPY_DIR)/../../firmware")
package("boards", base_path="$(MPY_DIR)/../../firmware")
module("device.py", base_path="$(MPY_DIR)/../../host_tools/mp")
module("mp_args.py", base_path="$(MPY_DIR)/../../host_tools/mp")
