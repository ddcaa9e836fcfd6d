"""The screens: the e-ink (or OLED) panel (`eink`), the LED panel (`led`), what they
show (`model`), and the drawing primitives and font data they share (`draw`, `font8`).
Everything draws only through framebuf methods on a canvas passed in."""
