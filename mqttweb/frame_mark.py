"""Which event a picture on `<prefix>/history/frame` shows, written inside the image.

Shared by the table, which marks each picture it publishes (`service.history`), and
the display and the desk, which read the mark (`display.history`, the desk's game page).

The topic carries raw image bytes (spec/mqtt.md), so several subscribers asking for
frames at once could not tell them apart. Each picture therefore names its game and
event in the image itself, where every viewer ignores it: a JPEG comment (a COM
segment, right after the start of the image) or a PNG text chunk (`tEXt`, keyword
`Comment`, right after the header), holding `domino-table-history ` and then
`{"game_id": "...", "seq": N}` as JSON. `read_mark` reads it back.
"""

from __future__ import annotations

import json
import struct
import zlib
from typing import Any

__all__ = ["MARK", "mark_image", "read_mark"]

MARK = b"domino-table-history "
_JPEG = b"\xff\xd8"
_PNG = b"\x89PNG\r\n\x1a\n"
_PNG_KEY = b"Comment\0"


def _text(game_id: str, seq: int) -> bytes:
    body = json.dumps({"game_id": game_id, "seq": seq}, separators=(",", ":"))
    return MARK + body.encode("utf-8")


def mark_image(image: bytes, game_id: str, seq: int) -> bytes:
    """`image` (a JPEG or a PNG) naming `game_id` and `seq` inside; other bytes as they are."""
    text = _text(game_id, seq)
    if image.startswith(_JPEG) and len(text) + 2 <= 0xFFFF:
        return _JPEG + b"\xff\xfe" + struct.pack(">H", len(text) + 2) + text + image[2:]
    if image.startswith(_PNG) and image[12:16] == b"IHDR":
        header_end = 8 + 8 + struct.unpack(">I", image[8:12])[0] + 4
        data = _PNG_KEY + text
        chunk = struct.pack(">I", len(data)) + b"tEXt" + data
        chunk += struct.pack(">I", zlib.crc32(chunk[4:]) & 0xFFFFFFFF)
        return image[:header_end] + chunk + image[header_end:]
    raise ValueError("not a JPEG or a PNG")


def read_mark(image: bytes) -> dict[str, Any] | None:
    """The `{"game_id", "seq"}` an image names (`mark_image`), or None."""
    at = image.find(MARK, 0, 4096)
    if at < 0:
        return None
    if image.startswith(_JPEG):
        (length,) = struct.unpack(">H", image[at - 2 : at])
        body = image[at + len(MARK) : at - 2 + length]
    elif image.startswith(_PNG):
        (length,) = struct.unpack(">I", image[at - len(_PNG_KEY) - 8 : at - len(_PNG_KEY) - 4])
        body = image[at + len(MARK) : at - len(_PNG_KEY) + length]
    else:
        return None
    try:
        mark = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None
    return mark if isinstance(mark, dict) else None
