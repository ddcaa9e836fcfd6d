"""The `scoreboard` sub-commands, one module each (cli.py's COMMANDS table names them):
`replay`, `device`, `pico`, `sync`, `setup`, `flash`, `export`, `report`, `listing`
(`list`) and `live`, each `add_parser(sub)` (its arguments) and `run(args)` (its
messages and exit status) over the libraries in results/, device/, live/ and pico/.
`setup`, `replay` and `flash` still carry their own checks and steps, and `uf2` and
`uf2_install` are the UF2 route `flash --uf2` takes. May import the firmware,
`host_tools.results`, `host_tools.device`, `host_tools.live`, `host_tools.pico`,
`host_tools.mp` and the top-level modules (`messages`, `paths`, `progress`, `png`).
"""
