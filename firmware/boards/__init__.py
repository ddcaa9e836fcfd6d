"""One module per board: its pins, its wiring table and which drivers it uses.

Each board module has `build()`, which makes the hardware objects only when asked and
returns a board object with the interface that `scoreboard.app.App` uses (see
`boards.host.HostBoard` for the whole list). `main.py` picks the module.
"""
