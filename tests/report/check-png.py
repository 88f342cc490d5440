#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Is a screenshot more than a blank page? Decodes an 8-bit RGB(A) PNG with the
# standard library and prints "pixels inked blue red": how many pixels are not
# near white, and how many have the report's corrected (#2e6db4) and
# uncorrected (#c0392b) colours.
import struct
import sys
import zlib

data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, width = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and ctype in (2, 6), "only 8-bit RGB or RGBA"
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
stride = width * bpp
prev = bytearray(stride)
inked = blue = red = 0
for y in range(height):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1:
            line[i] = (line[i] + a) & 255
        elif f == 2:
            line[i] = (line[i] + b) & 255
        elif f == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        r, g, bl = line[x], line[x + 1], line[x + 2]
        if r < 230 or g < 230 or bl < 230:
            inked += 1
        if abs(r - 0x2e) < 12 and abs(g - 0x6d) < 12 and abs(bl - 0xb4) < 12:
            blue += 1
        if abs(r - 0xc0) < 12 and abs(g - 0x39) < 12 and abs(bl - 0x2b) < 12:
            red += 1
    prev = line
print(width * height, inked, blue, red)
