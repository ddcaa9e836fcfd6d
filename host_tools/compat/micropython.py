"""CPython stand-in for MicroPython's `micropython` module.

Only what the firmware uses: `const` (folded by mpy-cross on the device, an identity
here), the code-emitter decorators, and heap_lock/heap_unlock, which cannot lock the
CPython heap (allocation-free paths are proven under the real unix port instead).
"""


def const(value):
    return value


def native(func):
    return func


def viper(func):
    return func


def heap_lock():
    return 0


def heap_unlock():
    return 0
