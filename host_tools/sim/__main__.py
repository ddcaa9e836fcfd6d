"""`python -m host_tools.sim`: serve the browser simulator until stopped."""

from host_tools.sim.server import main

if __name__ == "__main__":
    raise SystemExit(main())
