# ruff: noqa: F821  (a MicroPython manifest: include() and package() come from makemanifest)
# Freezes the firmware into the 32-bit unix port (`make deps` builds it into build/mp32/):
# Pico-sized objects, the modules in flash rather than the heap, as on a board.
# asyncio as the unix variant has it.
include("$(MPY_DIR)/extmod/asyncio")
# The app: the one list of what is frozen, firmware/manifest.py, without the rp2 port's
# manifest and main.py (port=False).
include("$(MPY_DIR)/../../firmware/manifest.py", port=False)
# The key runner too (`micropython -m device`): a script given by path is compiled in
# the heap, which would count the harness's compilation against the box.
module("device.py", base_path="$(MPY_DIR)/../../host_tools/mp")
module("mp_args.py", base_path="$(MPY_DIR)/../../host_tools/mp")
# The frame store in a file of its own, which the replay benchmarks keep (not the box's).
module("filestore.py", base_path="$(MPY_DIR)/../../host_tools/mp")
# The replay JSON, which the replay, mashing and fuzzing scripts print (the box has none).
module("replay_json.py", base_path="$(MPY_DIR)/../../host_tools/mp")
