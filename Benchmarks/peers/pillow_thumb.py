"""Pillow peer for the whole-process benchmarks: a 400 px wide JPEG q80 thumbnail.

    python pillow_thumb.py INPUT OUTPUT            one file
    python pillow_thumb.py --batch OUTDIR INPUT... a loop over many files, one process

JPEG inputs use Image.draft, Pillow's shrink-on-load (libjpeg DCT scaling), before the
Lanczos resize, which is how a careful Pillow user makes thumbnails.
"""
import os
import sys

from PIL import Image

WIDTH = 400


def thumbnail(source, destination):
    with Image.open(source) as image:
        height = max(1, round(image.height * WIDTH / image.width))
        image.draft("RGB", (WIDTH, height))
        image = image.convert("RGB")
        image = image.resize((WIDTH, height), Image.LANCZOS)
        image.save(destination, "JPEG", quality=80)


if __name__ == "__main__":
    if sys.argv[1] == "--batch":
        out = sys.argv[2]
        for path in sys.argv[3:]:
            name = os.path.splitext(os.path.basename(path))[0] + ".jpg"
            thumbnail(path, os.path.join(out, name))
    else:
        thumbnail(sys.argv[1], sys.argv[2])
