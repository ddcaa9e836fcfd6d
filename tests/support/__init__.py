"""Helpers shared by the tests: real MicroPython and device tools (`mpy`), match
builders and report readers (`sbn`, `pool_sbn`); the fake board joins them."""
