# The scoreboard's Pico W (boards/picow.py in the firmware): the rp2 port's RPI_PICO_W
# with Bluetooth off. Nothing on the box uses Bluetooth, and without btstack the GC heap
# is larger and the image smaller (docs/figures.md has both). The stock board's pins and
# header are used as they are (mpconfigboard.h includes it). The folder above is
# rp2_boards, not boards: the MicroPython scripts run from host_tools/mp would import a
# `boards` there in place of the firmware's.

set(PICO_BOARD "pico_w")

set(MICROPY_PY_LWIP ON)
set(MICROPY_PY_NETWORK_CYW43 ON)

set(MICROPY_PY_BLUETOOTH OFF)
set(MICROPY_BLUETOOTH_BTSTACK OFF)
set(MICROPY_PY_BLUETOOTH_CYW43 OFF)

set(MICROPY_BOARD_PINS ${MICROPY_PORT_DIR}/boards/RPI_PICO_W/pins.csv)

# pico-sdk 2.2.0 puts pico/cyw43_driver.h on the include path only through its Bluetooth
# transport library, so without Bluetooth the CYW43's PIO bus fails to compile. The
# folder goes in as a SYSTEM include: searched after the port's own folders, whose
# cyw43_configport.h must win over the SDK's copy in the same folder (-Werror stops the
# build on the redefinitions otherwise). A directory property: it reaches the firmware
# target, which the port creates after including this file.
include_directories(SYSTEM ${MICROPY_PORT_DIR}/../../lib/pico-sdk/src/rp2_common/pico_cyw43_driver/include)
