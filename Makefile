# Table-side scoreboard: one entry point for people and CI.
#
#   make deps       install what is missing (Debian packages, Python venv, Node tools,
#                   MicroPython stubs, the 32-bit MicroPython and the Cortex-M3 build with
#                   the firmware frozen in, picotool and the Pico's UF2)
#   make check      the fast tier, before `make test`: ruff, pyright and the tests that
#                   need only CPython and the venv (no build, MicroPython, Node, Chromium,
#                   PostgreSQL or virtual device; tests/support/tiers.py), in under a minute
#   make test       the test suite (calls deps first)
#   make bench      memory/time budgets and sweeps, about ten minutes (calls deps first;
#                   LONG=1, hours: the full sweeps, the Pico's smallest heap for a
#                   best-of-35, its best-of-35 by keys, live's scaling)
#   make lint       ruff
#   make typecheck  pyright on firmware/ against the MicroPython stubs
#   make uf2        the Pico images with the firmware frozen in: build/pico/scoreboard-pico.uf2
#                   (RP2040), scoreboard-picow.uf2 (the Pico W: Wi-Fi) and scoreboard-pico2.uf2
#                   (RP2350, the Pico 2 variant)
#   make flash      compile the firmware and copy what changed onto a board (PORT=auto)
#   make sync       pull the finished matches off a board into the results database
#   make sim        the browser simulator on http://127.0.0.1:8000/ (SIM_PORT=...)
#   make dist       the wheel and the sdist for the club desk (`pipx install`) into dist/
#
# `deps` is idempotent: stamp files record what was installed from which pin file, so a
# second run does nothing and a changed pin file reinstalls only its own part.

PYTHON ?= python3
PORT ?= auto

VENV := .venv
BIN := $(VENV)/bin
PY_STAMP := $(VENV)/.deps-stamp
NODE_STAMP := node_modules/.deps-stamp
TYPINGS_STAMP := typings/.deps-stamp

.PHONY: deps deps-system deps-python deps-node deps-typings deps-mp32 deps-qemu deps-uf2 uf2 test slow check \
	dist bench lint typecheck flash sync sim clean-pycache mp-libs

deps: deps-system deps-python deps-node deps-typings deps-mp32 deps-qemu deps-uf2

# Debian packages: each is installed only when dpkg does not know it yet (CI runs as root).
# gcc-multilib: the 32-bit unix port.
DEB_PACKAGES := gcc-multilib
# postgresql: the results server that the host-tools tests start on loopback.
DEB_PACKAGES += postgresql
# chromium, chromium-driver: the browser tests of the simulator (Selenium drives them).
DEB_PACKAGES += chromium chromium-driver
# The Cortex-M3 build of MicroPython and QEMU to run it: the firmware's ARM Thumb path.
DEB_PACKAGES += gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
# The rp2 port (the Pico's UF2) and picotool are built with cmake; picotool is C++, the
# port links the ARM C++ library.
DEB_PACKAGES += cmake g++ libstdc++-arm-none-eabi-newlib
# xfonts-terminus: Terminus Bold (SIL OFL 1.1), the screens' typefaces 6x12, 8x16 and 12x24
# (issue 26; host_tools/gen/glyphgen.py; the generated font modules are committed).
DEB_PACKAGES += xfonts-terminus
# mosquitto: the club's MQTT broker (issue 40: `scoreboard broker` configures it, the tests
# start it on loopback as they start PostgreSQL); mosquitto_passwd comes with it.
DEB_PACKAGES += mosquitto

deps-system:
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "make deps: installing Debian packages: $$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

# The 32-bit unix port with the firmware frozen in (docs/developer.md, "Builds of
# MicroPython"): Pico-sized objects and the code in flash, not the heap. Built from a copy
# of the read-only MicroPython source tree (MP_SRC, outside the repository: a build input,
# the v1.28.0 release) into build/ (git-ignored), again only when the firmware changed.
MP_SRC := ../shared/micropython
MP_TREE := build/micropython
MP32 := build/mp32/micropython
MP32_MANIFEST := host_tools/mp/manifest_unix32.py
FIRMWARE_PY := $(shell find firmware -name '*.py' 2>/dev/null)
# The version every build reports (banner, picotool info): the tree's own release, not
# `git describe` of this repository, which the copy in build/ sits inside.
export MICROPY_GIT_TAG := $(word 3,$(shell head -n 1 $(MP_SRC)/SOURCE-COMMIT 2>/dev/null))
export MICROPY_GIT_HASH := $(shell head -c 10 $(MP_SRC)/SOURCE-COMMIT 2>/dev/null)

deps-mp32: $(MP32)

$(MP_TREE)/.copied:
	rm -rf $(MP_TREE) && mkdir -p build && cp -r $(MP_SRC) $(MP_TREE) && chmod -R u+w $(MP_TREE)
	touch $@

# The Pico W's network stack (lib/cyw43-driver, lib/lwip) and Bluetooth (lib/btstack) came
# into MP_SRC after some trees were copied: a copy that lacks one of them, or has it empty
# (a submodule not checked out then), gets it from MP_SRC, folder by folder, so the builds
# already in the copy stay. Nothing is done when the copy has them all.
MP_LIBS := lib/cyw43-driver lib/lwip lib/btstack

mp-libs: $(MP_TREE)/.copied
	@for d in $(MP_LIBS); do \
		if [ -z "$$(ls -A $(MP_TREE)/$$d 2>/dev/null)" ]; then \
			if [ -z "$$(ls -A $(MP_SRC)/$$d 2>/dev/null)" ]; then \
				echo "make: $(MP_SRC)/$$d is missing: the Pico W needs it (the v1.28.0 submodule)" >&2; \
				exit 1; \
			fi; \
			echo "make: $(MP_TREE) was copied without $$d: copying it from $(MP_SRC)"; \
			rm -rf $(MP_TREE)/$$d && cp -r $(MP_SRC)/$$d $(MP_TREE)/$$d && chmod -R u+w $(MP_TREE)/$$d \
				|| exit 1; \
		fi; \
	done

$(MP_TREE)/mpy-cross/build/mpy-cross: $(MP_TREE)/.copied
	$(MAKE) -s -C $(MP_TREE)/mpy-cross -j2

$(MP32): $(MP_TREE)/mpy-cross/build/mpy-cross $(MP32_MANIFEST) $(FIRMWARE_PY) \
		host_tools/mp/device.py host_tools/mp/mp_args.py | deps-system
	$(MAKE) -s -C $(MP_TREE)/ports/unix -j2 VARIANT=standard MICROPY_FORCE_32BIT=1 \
		MICROPY_PY_FFI=0 MICROPY_PY_BTREE=0 MICROPY_PY_SSL=0 \
		FROZEN_MANIFEST=$(abspath $(MP32_MANIFEST))
	mkdir -p $(dir $@) && cp $(MP_TREE)/ports/unix/build-standard/micropython $@

# The firmware and the key runner frozen into MicroPython for a Cortex-M3 board under QEMU
# (MPS2-AN385) with a Pico-sized heap and littlefs for a RAM flash. littlefs stamps files
# with mp_hal_time_ns(), which that board lacks (no clock): the copy gets one that says 0.
QEMU_ELF := build/qemu/firmware.elf
QEMU_MANIFEST := host_tools/mp/manifest_qemu.py
QEMU_HAL := $(MP_TREE)/ports/qemu/mphalport.c

deps-qemu: $(QEMU_ELF)

$(QEMU_ELF): $(MP_TREE)/mpy-cross/build/mpy-cross $(QEMU_MANIFEST) $(FIRMWARE_PY) \
		host_tools/mp/device.py | deps-system
	grep -q mp_hal_time_ns $(QEMU_HAL) || printf '\nuint64_t mp_hal_time_ns(void) {\n    return 0;\n}\n' >> $(QEMU_HAL)
	$(MAKE) -s -C $(MP_TREE)/ports/qemu -j2 BOARD=MPS2_AN385 MICROPY_HEAP_SIZE=196608 \
		MICROPY_VFS_LFS2=1 FROZEN_MANIFEST=$(abspath $(QEMU_MANIFEST))
	mkdir -p $(dir $@) && cp $(MP_TREE)/ports/qemu/build-MPS2_AN385/firmware.elf $@

# The Pico images (docs/developer.md, "Builds of MicroPython"): the rp2 port built from
# the copy in build/ with firmware/manifest.py (the port's own frozen modules, then the
# app and a frozen main.py that starts it at power-on), made into a UF2 by picotool built
# from a copy of its sources, which sit beside the MicroPython tree (no USB or signing
# support: neither is needed for a UF2).
# `make deps` builds the two RP2040 ones (the tests boot both: the Pico W's adds 2 to 8
# minutes from nothing here, by the machine's load, docs/figures.md; a firmware change
# rebuilds it in seconds); `make uf2` the Pico 2's too (about as long
# again as the Pico's, and no test runs it, so `make test` from nothing does not wait for it).
# The Pico W is the port's RPI_PICO_W without Bluetooth: a board folder of the project's
# own (host_tools/mp/rp2_boards/SCOREBOARD_PICO_W, which says why).
PICOTOOL_SRC := $(dir $(MP_SRC))picotool
PICOTOOL := build/picotool/bin/picotool
PICO_UF2 := build/pico/scoreboard-pico.uf2
PICOW_UF2 := build/pico/scoreboard-picow.uf2
PICOW_BOARD := host_tools/mp/rp2_boards/SCOREBOARD_PICO_W
PICO2_UF2 := build/pico/scoreboard-pico2.uf2
RP2_INPUTS := $(PICOTOOL) $(MP_TREE)/mpy-cross/build/mpy-cross firmware/manifest.py $(FIRMWARE_PY)
# What the two builds need on PATH (Debian: cmake, gcc-arm-none-eabi, g++): a missing one
# is one line on stderr, not a page of cmake errors.
RP2_TOOLS := cmake arm-none-eabi-gcc c++
RP2_CHECK = @for t in $(RP2_TOOLS); do command -v $$t >/dev/null 2>&1 || { \
	echo "make uf2: $$t is missing: run make deps (as root: it installs cmake and the ARM toolchain)" >&2; \
	exit 1; }; done
# $(call rp2_uf2,BOARD,check target[,board folder]): build the port for BOARD (the port's
# own, or the folder given) into its build-BOARD/ (the output in build/pico/build-BOARD.log,
# its tail on failure), then check the UF2 (python -m host_tools.commands.uf2, which prints
# what it covers) and only then keep it; its figures and the .mpy files' go into
# docs/figures.md (host_tools/measure/figures.py).
define rp2_uf2
	$(RP2_CHECK)
	mkdir -p build/pico
	$(if $(3),$(call rp2_board_moved,$(1),$(3)))
	CMAKE_ARGS="-Dpicotool_DIR=$(abspath build/picotool)/lib/cmake/picotool" \
		$(MAKE) -C $(MP_TREE)/ports/rp2 -j2 $(if $(3),BOARD_DIR=$(abspath $(3)),BOARD=$(1)) \
		FROZEN_MANIFEST=$(abspath firmware/manifest.py) >build/pico/build-$(1).log 2>&1 \
		|| { tail -n 30 build/pico/build-$(1).log >&2; exit 1; }
	$(BIN)/python -m host_tools.commands.uf2 $(MP_TREE)/ports/rp2/build-$(1)/firmware.uf2 $(2)
	cp $(MP_TREE)/ports/rp2/build-$(1)/firmware.uf2 $@
	$(BIN)/python -m host_tools.measure.figures uf2 $@
	$(BIN)/python -m host_tools.measure.figures mpy
endef

# A board folder of our own given by path: the port's build folder for it keeps that path
# in its cmake cache, and cmake, run again, would look for the board where it was (a
# checkout moved or renamed): such a build folder is made afresh.
define rp2_board_moved
	@cache=$(MP_TREE)/ports/rp2/build-$(1)/CMakeCache.txt; \
	if [ -f $$cache ] && ! grep -qx "MICROPY_BOARD_DIR:[A-Z]*=$(abspath $(2))" $$cache; then \
		echo "make: the board folder of build-$(1) moved: building it afresh"; \
		rm -rf $(MP_TREE)/ports/rp2/build-$(1); \
	fi
endef

deps-uf2: $(PICO_UF2) $(PICOW_UF2)
uf2: $(PICO_UF2) $(PICOW_UF2) $(PICO2_UF2)

$(PICOTOOL): $(MP_TREE)/.copied | deps-system
	$(RP2_CHECK)
	rm -rf build/picotool-src build/picotool-build build/picotool
	cp -r $(PICOTOOL_SRC) build/picotool-src && chmod -R u+w build/picotool-src
	cmake -S build/picotool-src -B build/picotool-build -DPICOTOOL_NO_LIBUSB=1 \
		-DPICO_SDK_PATH=$(abspath $(MP_TREE))/lib/pico-sdk \
		-DCMAKE_INSTALL_PREFIX=$(abspath build/picotool) >build/picotool-cmake.log 2>&1 \
		|| { cat build/picotool-cmake.log >&2; exit 1; }
	cmake --build build/picotool-build -j2 >build/picotool-build.log 2>&1 \
		|| { tail -n 30 build/picotool-build.log >&2; exit 1; }
	cmake --install build/picotool-build >/dev/null

$(PICO_UF2): $(RP2_INPUTS) | deps-system deps-python
	$(call rp2_uf2,RPI_PICO,pico)

$(PICO2_UF2): $(RP2_INPUTS) | deps-system deps-python
	$(call rp2_uf2,RPI_PICO2,pico2)

$(PICOW_UF2): $(RP2_INPUTS) $(wildcard $(PICOW_BOARD)/*) | deps-system deps-python mp-libs
	$(call rp2_uf2,SCOREBOARD_PICO_W,picow,$(PICOW_BOARD))

deps-python: $(PY_STAMP)
deps-node: $(NODE_STAMP)
deps-typings: $(TYPINGS_STAMP)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(PY_STAMP): requirements.txt pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q -r requirements.txt
	touch $@

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

$(TYPINGS_STAMP): requirements-typings.txt | $(BIN)/python
	rm -rf typings
	$(BIN)/python -m pip install --disable-pip-version-check -q --no-compile \
		--target typings -r requirements-typings.txt
	touch $@

# pytest exits 5 when it collects no test: that must never pass as green.
# The long sweeps (every byte of every power cut, ...) are marked slow: `make slow` runs
# them all (a quarter of an hour here), `make bench` those that give its figures.
test: deps
	@$(BIN)/pytest -q -n auto --dist loadfile -m "not slow"; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests" >&2; fi; \
	exit $$rc

# One process: several sweeps time real key presses and would measure each other.
slow: deps
	@$(BIN)/pytest -q -m slow; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make slow: pytest collected no tests" >&2; fi; \
	exit $$rc

# The fast tier: nothing is installed or built (`make deps` does that); a missing venv or
# node_modules is one line. The tests marked needs_build (tests/conftest.py sets it), the
# heavy ones (CPython only, but seconds each) and the slow sweeps are left to `make test`;
# the sampled sweeps take smaller samples (SCOREBOARD_TIER=check: tests/support/tiers.py).
# It prints its own time: the goal is a minute on the developers' 2-core machine, idle.
check:
	@test -x $(BIN)/python || { echo "make check: no Python venv in $(VENV)/: run make deps" >&2; exit 1; }
	@test -x node_modules/.bin/pyright || { echo "make check: no pyright in node_modules/: run make deps" >&2; exit 1; }
	@start=$$(date +%s%N); rc=0; \
	echo "ruff check firmware host_tools tests"; $(BIN)/ruff check firmware host_tools tests || rc=1; \
	if [ $$rc -eq 0 ]; then echo "pyright"; node_modules/.bin/pyright || rc=1; fi; \
	if [ $$rc -eq 0 ]; then \
		SCOREBOARD_TIER=check $(BIN)/pytest -q -n auto \
			-m "not needs_build and not slow and not heavy"; rc=$$?; \
		if [ $$rc -eq 5 ]; then echo "make check: pytest collected no tests" >&2; fi; \
	fi; \
	ms=$$(( ($$(date +%s%N) - start) / 1000000 )); \
	echo "make check: $$((ms / 1000)).$$((ms % 1000 / 100)) s"; exit $$rc

# LONG=1: the long sweeps too (host_tools/measure/bench.py says which): the fuzzer's and
# the mashing's 100,000, the Pico's smallest heap for a best-of-35 (host_tools/measure/pico_heap.py,
# half an hour a run; the best-of-3's is in every bench) and its best-of-35 by keys, live's
# boxes before the latency doubles.
bench: deps
	$(BIN)/python -m host_tools.measure.bench $(if $(LONG),--long)

lint: deps-python
	$(BIN)/ruff check firmware host_tools tests

typecheck: deps-node deps-typings
	node_modules/.bin/pyright

# The club desk's package (README, "For the club desk"): dist/scoreboard_host-V-py3-none-any.whl
# and its sdist, by PyPA's build with setup.py's package list. Both come from this tree (not
# the wheel from the sdist): the wheel then carries the Pico images of build/pico/, which
# the sdist cannot (setuptools leaves build/ out of it). The RP2040 image is brought up to
# date first, as make deps does, and the Pico 2's too once `make uf2` has made it: a wheel
# never carries an image of older firmware. build/lib is emptied first: setuptools would
# ship a module deleted since the last build. The sizes go into docs/figures.md, from
# the default folder only: DIST=DIR writes elsewhere (tests/project/test_wheel.py) and leaves the
# figures as they are (a test's build is no release).
DIST ?= dist

dist: deps-python deps-uf2 $(wildcard $(PICO2_UF2))
	rm -rf build/lib build/bdist.*
	$(BIN)/python -m build --sdist --wheel --outdir $(DIST) .
	$(if $(filter dist,$(DIST)),$(BIN)/python -m host_tools.measure.figures wheel $(DIST))

# CPython leaves __pycache__ folders in firmware/ when tests import the core: never ship them.
clean-pycache:
	find firmware -name __pycache__ -type d -prune -exec rm -rf {} +

# The firmware onto a board that runs MicroPython (compiled, only what changed, version
# checked), and the results off it into the database: the `scoreboard` commands.
flash: deps-python clean-pycache
	$(BIN)/scoreboard flash --port $(PORT)

sync: deps-python
	$(BIN)/scoreboard sync --port $(PORT)

# The browser simulator: serves the page, the firmware and the WebAssembly port on
# localhost (nothing from the network at run time) until stopped. SIM_PORT=0: any free port.
SIM_PORT ?= 8000

# Only what the simulator needs: the venv (the server) and node_modules (the WebAssembly
# port); no cross build, no UF2.
sim: deps-python deps-node
	$(BIN)/python -m host_tools.sim --port $(SIM_PORT)
