"""PNG encoding of palette boards, about twice as fast as Pillow's encoder for the same size.

Pillow tries every PNG row filter on every row and compresses with zlib.  A board mapped onto a
fixed palette compresses as well without filters (rows of flat colour repeat the row above, which
deflate finds by itself), so rows go out unfiltered and are compressed by zlib-ng, a faster
implementation of the same deflate format.  Any PNG reader decodes the result.
"""

from __future__ import annotations

import struct
import zlib

from PIL import Image
from zlib_ng import zlib_ng

COMPRESS_LEVEL = 2  # zlib-ng level 2: smaller than Pillow's level 1 output, at under half its time
_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def encode_palette_png(image: Image.Image) -> bytes:
    """``image`` (mode ``P``, 8 bits) as a PNG with its palette, no transparency, rows unfiltered."""
    if image.mode != "P":
        raise ValueError(f"expected a palette image, got mode {image.mode}")
    width, height = image.size
    # each PNG row starts with its filter type (0: none).  Pillow's raw encoder with a stride of
    # width + 1 zero-pads each row at its end; one zero before them all and the last one dropped
    # give the scanlines, without copying the picture into a wider one
    padded = image.tobytes("raw", ("P", width + 1))
    compressor = zlib_ng.compressobj(COMPRESS_LEVEL)
    idat = compressor.compress(b"\x00") + compressor.compress(memoryview(padded)[:-1]) + compressor.flush()
    palette = bytes(image.getpalette() or [0, 0, 0])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette, deflate, row filters, no interlace
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette[: 3 * 256]),
            _chunk(b"IDAT", idat),
            _chunk(b"IEND", b""),
        )
    )
