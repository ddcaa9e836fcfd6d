# ruff: noqa: F821  (a MicroPython manifest: include() and package() come from makemanifest)
# Freezes the firmware into the 32-bit unix port (`make deps` builds it into build/mp32/):
# Pico-sized objects, the modules in flash rather than the heap, as on a board.
# asyncio as the unix variant has it.
include("$(MPY_DIR)/extmod/asyncio")
package("scoreboard", base_path="$(MPY_DIR)/../../firmware")
package("boards", base_path="$(MPY_DIR)/../../firmware")
package("drivers", base_path="$(MPY_DIR)/../../firmware")
