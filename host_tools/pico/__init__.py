"""Behind `scoreboard pico` (host_tools/commands/pico.py): the Pico's real UF2 on an
emulated RP2040 (rp2040js under Node).

`emulator.py` is the Python side (the Node process, its pipes, the pseudo-terminal),
`harness.mjs` the Node side with the box's parts: the UF2 reader (`uf2.mjs`), the boot
ROM's flash functions (`bootrom.mjs`), the flash image (`flash.mjs`), the keypad, the
e-ink panel, the LED chain and the buzzer. Its benches are host_tools/measure/'s
(`pico_bench`, `pico_heap`, `pico_keys`). May import the firmware, `host_tools.device`
(the key scripts), `host_tools.mp` and the top-level modules.
"""
