"""The `scoreboard` sub-commands, one module each (cli.py's COMMANDS table names them):
`replay`, `device`, `pico`, `sync`, `setup`, `flash`, `export`, `report`, `listing`
(`list`), `live` and `tournament`, each `add_parser(sub)` (its arguments) and
`run(args)` (its messages and exit status) over the libraries in results/ (the draw, the replay's
summary, sync), device/ (the link, the .mpy route), live/ and pico/; `uf2` and
`uf2_install` are the UF2 route `flash --uf2` takes (`python -m host_tools.commands.uf2`
is the Makefile's image tool). May import the firmware,
`host_tools.results`, `host_tools.device`, `host_tools.live`, `host_tools.pico`,
`host_tools.mp`, `host_tools.tournament` and the top-level modules (`messages`,
`paths`, `progress`, `png`).
"""
