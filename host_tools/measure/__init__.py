"""Measurement: `make bench` (`bench`) and what it runs — the app's heap and loop
(`app_bench`), the clock's drift, the fuzzer, the random match generator (`matchgen`),
the sync's speed, the QEMU smoke run — and their shared helpers (`common`). May import
anything on the host side; nothing imports it but the tests.
"""
