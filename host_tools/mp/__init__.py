"""Scripts that MicroPython runs (the virtual device's runner `device.py`, the key feed,
the key mashing, the benches, the QEMU smoke script, the manifests that freeze the
firmware into the 32-bit and Cortex-M3 builds) and the host modules both interpreters
import (`replay_json`: the notation's JSON, which replay, sync and live print too;
`filestore`, `keypad_check`). They run from this folder on MicroPython, so they import
the firmware and each other by bare name, and nothing of the host tools.
"""
