"""CPython's stand-ins for MicroPython's own modules: `micropython` (const, the native
decorators as no-ops) and `framebuf` (the framebuffer the screens draw on). The folder
itself goes on sys.path (host_tools/__init__.py), so the firmware imports them by their
MicroPython names; they import nothing but the standard library.
"""
