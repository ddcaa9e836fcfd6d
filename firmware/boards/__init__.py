"""One module per board: its pins, its wiring table and which drivers it uses.

Each board module has `build()`, which makes the hardware objects only when asked and
returns a board object with the interface that `scoreboard.app.App` uses: the contract
written once in `boards.board` (a subclass of its `Board`). `ledpower` is the LED
chain's power policy the Pico boards share. `main.py` picks the module.
"""
