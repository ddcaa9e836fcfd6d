"""Generators of committed files and pictures: the 8x8 font and the screens' Terminus faces
(`fontgen`, `glyphgen`) and the keypad legends (`keylegends`, `legends`); PNG writing is
`host_tools.png`. May import the firmware and `host_tools.paths`; nothing else on the host.
"""
