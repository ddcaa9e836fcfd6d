"""The keypad side of the scoreboard, pure: `debounce` (raw bitmap -> press, long, repeat
events), `keymaps` (the 16 key names of each game's legend), `grammar` (key names ->
notation lines or refusals: what every game shares) with `snooker`, `pool` and
`straight` (each family's own keys and menu, loaded for the match's family only) and
`menus` (the menu trees); the printed texts of the legends are the host's
(host_tools/gen/keylegends.py).
It sits on the core (the match, the word table) and imports nothing else; nothing here
touches hardware. The app wires it:
board.keys() -> Debouncer -> keymap name -> Grammar.press -> Match.apply + journal."""
