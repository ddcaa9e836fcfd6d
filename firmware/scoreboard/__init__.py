"""The table-side scoreboard firmware: the rules core (`core/`), keys, screens, journal
and the app. `__version__` is what `scoreboard flash` checks on the board after a copy."""

__version__ = "0.2.0"
