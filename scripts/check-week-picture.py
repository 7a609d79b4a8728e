#!/usr/bin/env python3
"""Renders a `herald simulate --html` report in headless Chromium and checks the screenshot is
not blank: a PNG of the expected size whose pixels vary (the week picture's marks, shading and
tables), not one flat colour.

Usage: python3 scripts/check-week-picture.py report.html screenshot.png [chromium]
Exit 0 when the screenshot is readable, 1 otherwise.
"""
import os
import struct
import subprocess
import sys
import zlib


def read_png(path):
    """Width, height, colour type and the raw (unfiltered) rows of an 8-bit RGB/RGBA PNG."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    offset, idat, header = 8, b"", None
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        offset += 12 + length
    width, height, depth, colour = header[0], header[1], header[2], header[3]
    if depth != 8 or colour not in (2, 6):
        raise ValueError(f"unexpected PNG format (depth {depth}, colour type {colour})")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 64
    html, png = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    chromium = sys.argv[3] if len(sys.argv) > 3 else "chromium"
    if os.path.exists(png):
        os.remove(png)
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--window-size=1100,1600", f"--screenshot={png}", "file://" + html],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    size = os.path.getsize(png)
    width, height, channels, rows = read_png(png)
    colours, dark, total = {}, 0, 0
    for row in rows[::2]:
        for x in range(0, width * channels, channels * 2):
            pixel = row[x:x + 3]
            colours[pixel] = colours.get(pixel, 0) + 1
            total += 1
            if sum(pixel) < 200:
                dark += 1
    commonest = max(colours.values()) / total
    print(f"check-week-picture: {png}: {width}x{height}, {size} bytes, {len(colours)} colours, "
          f"{commonest:.1%} the commonest colour, {dark / total:.2%} dark pixels")
    problems = []
    if (width, height) != (1100, 1600):
        problems.append(f"the screenshot is {width}x{height}, not 1100x1600")
    if size < 20_000:
        problems.append(f"the PNG is only {size} bytes")
    if len(colours) < 8:
        problems.append(f"only {len(colours)} colours: the page looks blank")
    if commonest > 0.97:
        problems.append(f"{commonest:.1%} of the pixels are one colour: the page looks blank")
    if dark < total * 0.002:
        problems.append("almost no dark pixels: no text was drawn")
    for problem in problems:
        print(f"check-week-picture: error: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
