"""The browser simulator: the real firmware on MicroPython's WebAssembly port, in a page.

`python -m host_tools.sim` (or `make sim`) serves the page on localhost (server.py); the
page (index.html, sim.js and its modules, sim.css) loads the WebAssembly port from
node_modules/, copies every firmware/ file into its in-memory filesystem and runs the app
on the simulator board (firmware/boards/sim.py). Nothing is fetched from the network.
May import the top-level modules; nothing else on the host.
"""
