"""The `scoreboard` command (also `python -m host_tools`): one entry point, sub-commands.

The sub-commands' modules are imported inside `main()`, so that a Ctrl-C while they load
(psycopg, mpremote and the firmware take a moment) ends the command with one line, as a
Ctrl-C anywhere else does: `COMMAND: interrupted`, exit status 130 (one that comes before
main() runs, while this module loads, host_tools/__init__.py's hook ends the same way,
as `scoreboard: interrupted`). `--version` names the host tools' version and the
firmware's; the developers' commands (`device`, `pico`) say in one line that they need a
checkout when run from the installed package.
"""

import argparse
import sys

from host_tools import __version__, paths

# Need what only a checkout has (the MicroPython unix port, Node and rp2040js, pseudo-
# terminals): from an installed wheel they say so in one line.
DEVELOPER = ("device", "pico")


def version(flash):
    """`scoreboard --version`: the host tools' (the package's) and the firmware's."""
    firmware = flash.local_version(paths.firmware_dir()) or "(no version declared)"
    return "scoreboard-host %s, firmware %s" % (__version__, firmware)


def main(argv=None):
    command = "scoreboard"
    try:
        from host_tools.commands import flash, replay_cmd, setup_cmd
        from host_tools.device import device_cmd
        from host_tools.results import export, listing, report, sync
        from host_tools.live import command as live
        from host_tools.pico import pico_cmd

        parser = argparse.ArgumentParser(prog="scoreboard",
                                         description="Host tools for the table-side "
                                                     "scoreboard.")
        parser.add_argument("--version", action="version", version=version(flash),
                            help="the host tools' version and the firmware's")
        sub = parser.add_subparsers(dest="command", required=True)
        replay_cmd.add_parser(sub)
        device_cmd.add_parser(sub)
        pico_cmd.add_parser(sub)
        sync.add_parser(sub)
        setup_cmd.add_parser(sub)
        flash.add_parser(sub)
        export.add_parser(sub)
        report.add_parser(sub)
        listing.add_parser(sub)
        live.add_parser(sub)
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
