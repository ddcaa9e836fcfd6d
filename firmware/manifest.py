# ruff: noqa: F821  (a MicroPython manifest: include(), package(), module() and options come from makemanifest)
"""What is frozen into MicroPython with the firmware: one list for every build.

`make uf2` builds the rp2 port (the Pico image, build/pico/scoreboard-pico.uf2) with
FROZEN_MANIFEST pointing here: the port's own manifest first (asyncio, rp2, _boot.py
that mounts littlefs, ...), then the app. The frozen main.py starts the app at power-on
with no file on the flash: the port runs a frozen main.py before looking on the
filesystem.

The stand-ins (host_tools/mp/manifest_unix32.py, manifest_qemu.py) include this file with
`port=False`: the app's packages only, without a port manifest or main.py.
"""

options.defaults(port=True)

if options.port:
    include("$(PORT_DIR)/boards/manifest.py")
    # The entry point: main.py picks boards/pico.py on the rp2 port (board.txt may name
    # a variant).
    module("main.py")

# The app: rules core, keys, ui, journal, recovery (scoreboard), the board set-ups and
# the drivers they build on.
package("scoreboard")
package("boards")
package("drivers")
