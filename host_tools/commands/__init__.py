"""The desk's commands that are neither results nor devices: `replay` (a match file
to its summary or the notation's JSON), `setup` (the draw onto the box), `flash` (the
firmware onto a board: `.mpy` files, or the UF2 image through `uf2` and `uf2_install`).
May import the firmware's core, `host_tools.device`, `host_tools.mp`, `host_tools.messages`
and `host_tools.paths`.
"""
