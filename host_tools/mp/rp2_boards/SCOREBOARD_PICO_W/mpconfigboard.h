// The scoreboard's Pico W: the stock RPI_PICO_W configuration (name, the 848 KB
// filesystem, the CYW43 over PIO SPI); Bluetooth is switched off in mpconfigboard.cmake.
#include "boards/RPI_PICO_W/mpconfigboard.h"
