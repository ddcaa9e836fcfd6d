"""A UF2 boot ROM's drive for the tests of `scoreboard flash --uf2`: a folder with the
INFO_UF2.TXT a Pico (RP2040) or a Pico 2 (RP2350) shows on its mass-storage drive."""

PICO_INFO = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"
PICO2_INFO = "UF2 Bootloader v1.0\nModel: Raspberry Pi RP2350\nBoard-ID: RP2350\n"


def drive(root, name, info=PICO_INFO):
    """The folder `root/name`, made, with `info` as its INFO_UF2.TXT (None: no such file,
    a drive with no boot ROM behind it)."""
    path = root / name
    path.mkdir(parents=True)
    if info is not None:
        (path / "INFO_UF2.TXT").write_text(info)
    return path
