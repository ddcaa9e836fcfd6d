"""The device side: talking to a box, or being one.

`sync_board` is the one link to a box over USB (mpremote's transport), handing the box
back to its app on every exit; `vdev` is the virtual device (the real MicroPython unix
port behind a pty), `keyscript` (the key scripts, the runner) and `terminal` behind
the `scoreboard device` command (its sibling `host_tools.pico` is the emulated RP2040 that
runs the real UF2); `ports` says which serial ports are boxes (`--port auto`, virtual
devices included) and `frames` reads the console's frames (`SB> `, `SB! `) out of a
byte stream: live and the channel both read them. May import the firmware,
`host_tools.mp`, `host_tools.png`, `host_tools.messages` and `host_tools.paths`;
never the results, live or the measurement.
"""
