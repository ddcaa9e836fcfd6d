"""The `scoreboard` command (also `python -m host_tools`): one entry point, sub-commands."""

import argparse
import sys

from host_tools import device_cmd, export, flash, replay_cmd, report, setup_cmd, sync


def main(argv=None):
    parser = argparse.ArgumentParser(prog="scoreboard",
                                     description="Host tools for the table-side scoreboard.")
    sub = parser.add_subparsers(dest="command", required=True)
    replay_cmd.add_parser(sub)
    device_cmd.add_parser(sub)
    sync.add_parser(sub)
    setup_cmd.add_parser(sub)
    flash.add_parser(sub)
    export.add_parser(sub)
    report.add_parser(sub)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
