"""Generators of committed files and pictures: the 8x8 font and the glyphs
(`fontgen`, `glyphgen`), the keypad legends (`keylegends`, `legends`) and PNG writing
(`png`). May import the firmware and `host_tools.paths`; nothing else on the host.
"""
