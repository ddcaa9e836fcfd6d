"""Placeholder (replaced below)."""


def draw(canvas, screen, w, h):
    canvas.fill(0)
