"""Shared by the heap-lock scripts in this folder: prove the lock is real before relying
on it (on CPython the compat `heap_lock` locks nothing, so only MicroPython must lock)."""

import sys


def lock_is_real():
    """True when allocating under micropython.heap_lock() raises MemoryError (always true
    on CPython, where the scripts only check their output)."""
    import micropython

    micropython.heap_lock()
    try:
        proof = [sys]
        proof = None
    except MemoryError:
        proof = "locked"
    micropython.heap_unlock()
    return proof == "locked" or sys.implementation.name != "micropython"
