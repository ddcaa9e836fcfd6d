# Freezes the firmware into the 32-bit unix port (`make deps` builds it into build/mp32/):
# Pico-sized objects, the modules in flash rather than the heap, as on a board.
# asyncio as the unix variant has it.
include("$(MPY_DIR)/extmod/asyncio")
package("scoreboard", base_path="$(MPY_DIR)/../../firmware")
