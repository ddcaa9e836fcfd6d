"""A match's whole internal state as plain comparable data: what the undo tests compare
before an event and after it is taken back (beyond what the replay JSON shows)."""

import types


def deep(value):
    """Everything an object holds, recursively, as plain comparable data (mutable buffers
    copied, so that a snapshot does not change with the match)."""
    if isinstance(value, (types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
                          types.MethodType, type)):
        return ("ref", getattr(value, "__qualname__", getattr(value, "__name__", "?")))
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    if type(value).__name__ == "Segment":  # its chunks' spare room is not state
        return ("Segment", value.family, value.count, b"".join(
            bytes(c[:e]) for c, e in zip(value.chunks[:value.k + 1], value.ends)))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(deep(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, deep(v)) for k, v in value.items())))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted(deep(v) for v in value)))
    fields = dict(getattr(value, "__dict__", {}))
    for name in getattr(type(value), "SCRATCH", ()):  # caches, not state (Match.SCRATCH)
        fields.pop(name, None)
    for cls in type(value).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(value, name):
                fields[name] = getattr(value, name)
    if fields or hasattr(value, "__dict__"):
        return (type(value).__name__, tuple(sorted((k, deep(v)) for k, v in fields.items())))
    return value
