"""`python -m host_tools ...` is the `scoreboard` command."""

import sys

from host_tools.cli import main

sys.exit(main())
