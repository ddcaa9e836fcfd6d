"""The `scoreboard` command (also `python -m host_tools`): one entry point, sub-commands.

The sub-commands' modules are imported inside `main()`, so that a Ctrl-C while they load
(psycopg, mpremote and the firmware take a moment) ends the command with one line, as a
Ctrl-C anywhere else does: `COMMAND: interrupted`, exit status 130 (one that comes before
main() runs, while this module loads, host_tools/__init__.py's hook ends the same way,
as `scoreboard: interrupted`). `--version` names the host tools' version and the
firmware's; the developers' commands (`device`, `pico`) say in one line that they need a
checkout when run from the installed package.

COMMANDS is the one table of the sub-commands (as mpremote's `_COMMANDS` is): each is a
module of host_tools/commands/ with `add_parser(sub)` and `run(args)`, in the order
`scoreboard --help` lists them.
"""

import argparse
import importlib
import sys

from host_tools import __version__, paths

# Need what only a checkout has (the MicroPython unix port, Node and rp2040js, pseudo-
# terminals): from an installed wheel they say so in one line.
DEVELOPER = ("device", "pico")

# The sub-commands: name -> its module (host_tools/commands/).
COMMANDS = {
    "replay": "host_tools.commands.replay",
    "device": "host_tools.commands.device",
    "pico": "host_tools.commands.pico",
    "sync": "host_tools.commands.sync",
    "setup": "host_tools.commands.setup",
    "flash": "host_tools.commands.flash",
    "export": "host_tools.commands.export",
    "report": "host_tools.commands.report",
    "list": "host_tools.commands.listing",
    "live": "host_tools.commands.live",
    "tournament": "host_tools.commands.tournament",
    "desk": "host_tools.commands.desk",
    "broker": "host_tools.commands.broker",
}


def version(flash):
    """`scoreboard --version`: the host tools' (the package's) and the firmware's."""
    firmware = flash.local_version(paths.firmware_dir()) or "(no version declared)"
    return "scoreboard-host %s, firmware %s" % (__version__, firmware)


def main(argv=None):
    command = "scoreboard"
    try:
        modules = {name: importlib.import_module(m) for name, m in COMMANDS.items()}
        parser = argparse.ArgumentParser(prog="scoreboard",
                                         description="Host tools for the table-side "
                                                     "scoreboard.")
        parser.add_argument("--version", action="version", version=version(modules["flash"]),
                            help="the host tools' version and the firmware's")
        sub = parser.add_subparsers(dest="command", required=True)
        for module in modules.values():
            module.add_parser(sub)
        args = parser.parse_args(argv)
        command = args.command
        if command in DEVELOPER and paths.checkout() is None:
            print("scoreboard %s: a developer's tool: it needs a checkout of the repository "
                  "after `make deps`, not the installed package" % command, file=sys.stderr)
            return 2
        return args.run(args)
    except KeyboardInterrupt:
        print("%s: interrupted" % command, file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
