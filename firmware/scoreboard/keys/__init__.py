"""The keypad side of the scoreboard, pure: `debounce` (raw bitmap -> press, long, repeat
events), `keymaps` (the 16 key names of each game's legend) and `grammar` (key names ->
notation lines or refusals). Nothing here touches hardware; the app wires them:
board.keys() -> Debouncer -> keymap name -> Grammar.press -> Match.apply + journal."""
