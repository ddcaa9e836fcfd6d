"""The `scoreboard` command (also `python -m host_tools`): one entry point, sub-commands."""

import argparse
import sys

from host_tools import device_cmd, replay_cmd, sync


def main(argv=None):
    parser = argparse.ArgumentParser(prog="scoreboard",
                                     description="Host tools for the table-side scoreboard.")
    sub = parser.add_subparsers(dest="command", required=True)
    replay_cmd.add_parser(sub)
    device_cmd.add_parser(sub)
    sync.add_parser(sub)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
