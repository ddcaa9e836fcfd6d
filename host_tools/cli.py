"""The `scoreboard` command (also `python -m host_tools`): one entry point, sub-commands.

The sub-commands' modules are imported inside `main()`, so that a Ctrl-C while they load
(psycopg, mpremote and the firmware take a moment) ends the command with one line, as a
Ctrl-C anywhere else does: `COMMAND: interrupted`, exit status 130.
"""

import argparse
import sys


def main(argv=None):
    command = "scoreboard"
    try:
        from host_tools import (device_cmd, export, flash, replay_cmd, report, setup_cmd,
                                sync)
        from host_tools.live import command as live
        from host_tools.pico import pico_cmd

        parser = argparse.ArgumentParser(prog="scoreboard",
                                         description="Host tools for the table-side "
                                                     "scoreboard.")
        sub = parser.add_subparsers(dest="command", required=True)
        replay_cmd.add_parser(sub)
        device_cmd.add_parser(sub)
        pico_cmd.add_parser(sub)
        sync.add_parser(sub)
        setup_cmd.add_parser(sub)
        flash.add_parser(sub)
        export.add_parser(sub)
        report.add_parser(sub)
        live.add_parser(sub)
        args = parser.parse_args(argv)
        command = args.command
        return args.run(args)
    except KeyboardInterrupt:
        print("%s: interrupted" % command, file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
