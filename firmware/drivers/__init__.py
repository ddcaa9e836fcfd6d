"""Hardware drivers: each takes ready Pin/SPI/I2C/PWM objects and never builds hardware.

ssd1683 (4.2" e-ink), max7219 (the 32x16 LED chain), keypad (4x4 matrix), buzzer (PWM
piezo), ssd1306 (the OLED of the variant board). The boards in boards/ wire them up.
"""
