"""How fast the board codec runs, and what an idle link costs.

    .venv/bin/python -m benchmarks.serial_codec [--seconds 4]

At 115200 baud 8N1 the wire carries at most 11,520 bytes/s, about 330 frames/s of 35
bytes: the decoder must keep far ahead of that on a Raspberry Pi.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

from firmware_bridge.codec import Decoder, Frame, encode
from firmware_bridge.emulator import BoardEmulator
from firmware_bridge.link import BoardLink, LinkSettings
from firmware_bridge.messages import Direction, Heartbeat, Place, TileAt

WIRE_BYTES_S = 115200 / 10  # 8N1: ten bits a byte


def codec(seconds: float) -> None:
    frames = [
        Frame(i % 65536, Place(TileAt(6, 4, 474 + i % 300, 300, 498, 300))) for i in range(2000)
    ]
    frames += [Frame(i, Heartbeat(i * 1000, 0, 0, 12)) for i in range(2000)]
    data = b"".join(encode(f) for f in frames)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds / 2:
        assert len(Decoder(Direction.FROM_BOARD).frames(data)) == len(frames)
        n += len(frames)
    decode_rate = n / (time.perf_counter() - start)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds / 2:
        for f in frames:
            encode(f)
        n += len(frames)
    encode_rate = n / (time.perf_counter() - start)
    size = len(data) / len(frames)
    wire = WIRE_BYTES_S / size  # what 115200 baud 8N1 can carry of these frames
    print(f"decode: {decode_rate:,.0f} frames/s ({size:.0f} bytes each), "
          f"{decode_rate / wire:,.0f}x the wire's {wire:,.0f} frames/s")  # fmt: skip
    print(f"encode: {encode_rate:,.0f} frames/s, {encode_rate / wire:,.0f}x the wire")


def idle(seconds: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        link = Path(tmp) / "board"
        with (
            BoardEmulator(link=link),
            BoardLink(LinkSettings(path=str(link)), lambda e: None) as host,
        ):
            host.open(3)
            before = resource.getrusage(resource.RUSAGE_SELF)
            time.sleep(seconds)
            after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"idle link + emulator: {100 * cpu / seconds:.1f} % of one core over {seconds:g} s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0)
    args = parser.parse_args(argv)
    codec(args.seconds)
    idle(args.seconds)


if __name__ == "__main__":
    main()
