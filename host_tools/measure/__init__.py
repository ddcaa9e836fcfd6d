"""Measurement: `make bench` (`bench`) and what it runs — the app's heap and loop
(`app_bench`), the clock's drift, the fuzzer, the random match generator (`matchgen`),
the sync's speed, the QEMU smoke run, the journal's figures (`journal_figures`), the
emulated Pico's benches (`pico_bench`, `pico_heap`, `pico_keys`) — and their shared
helpers (`common`); beside it, the tournament's play-out (`tournament_bench`). May
import every host package but the generators, the simulator and the entry point;
nothing imports it but the tests.
"""
