"""Makes the handmade hostile files in Fixtures/hostile/ (committed; run again to regenerate):

    python3 Fixtures/make-hostile.py

- png-bomb-at-limit.png       10000x10000 gray, all zeros: 100 MB of pixels in ~100 KB, exactly
                              at the default 100-megapixel limit.
- png-bomb-extra-idat.png     a 64x64 image whose IDAT stream goes on to inflate to 256 MB.
- png-huge-dimensions.png     a header claiming 30000x30000 pixels over a tiny IDAT.
- jpeg-thousands-of-scans.jpg a tiny progressive JPEG whose last scan is repeated 3000 times
                              (libjpeg only warns about such scans: a known denial of service).
Needs Python 3 and cjpeg (libjpeg-turbo-progs) for the JPEG.
"""
import os
import struct
import subprocess
import zlib

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hostile")


def chunk(kind, payload):
    body = kind + payload
    return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png(width, height, color_type, idat):
    header = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def zeros_stream(total):
    compressor = zlib.compressobj(9)
    block = bytes(1 << 20)
    out = []
    while total > 0:
        out.append(compressor.compress(block[: min(total, len(block))]))
        total -= min(total, len(block))
    out.append(compressor.flush())
    return b"".join(out)


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as handle:
        handle.write(data)
    print(f"{name}: {len(data)} bytes")


os.makedirs(HERE, exist_ok=True)
# Each row is a filter byte (0) plus the pixels: all zeros either way.
write("png-bomb-at-limit.png", png(10000, 10000, 0, zeros_stream(10000 * 10001)))
write("png-bomb-extra-idat.png", png(64, 64, 0, zeros_stream(256 << 20)))
write("png-huge-dimensions.png", png(30000, 30000, 2, zlib.compress(b"\0" * 1000)))

# A 16x16 progressive JPEG, then its last scan (SOS to EOI) repeated.
ppm = b"P6\n16 16\n255\n" + bytes((x * 16) % 256 for x in range(16 * 16 * 3))
jpeg = subprocess.run(["cjpeg", "-progressive", "-quality", "90"], input=ppm, capture_output=True, check=True).stdout
last_scan = jpeg.rindex(b"\xff\xda")
scan = jpeg[last_scan:-2]
write("jpeg-thousands-of-scans.jpg", jpeg[:last_scan] + scan * 3000 + b"\xff\xd9")
