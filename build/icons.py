"""Draw IdeA's icon at build time: PNGs in the freedesktop sizes, an SVG and a Windows .ico.

Pure Python (zlib + struct), so no binary image is committed and no image library is needed.
The icon is a 2x2 grid of coloured cells on a dark rounded square: IdeA's grid of agents.

    python build/icons.py OUT_DIR     -> OUT_DIR/idea-<N>.png, idea.svg, idea.ico
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)

# (x0, y0, x1, y1, radius, RGB) in a unit square, drawn in order.
SHAPES: list[tuple[float, float, float, float, float, tuple[int, int, int]]] = [
    (0.04, 0.04, 0.96, 0.96, 0.18, (0x1B, 0x23, 0x33)),
    (0.16, 0.16, 0.47, 0.47, 0.06, (0x4F, 0xC3, 0xF7)),
    (0.53, 0.16, 0.84, 0.47, 0.06, (0x95, 0x75, 0xCD)),
    (0.16, 0.53, 0.47, 0.84, 0.06, (0x66, 0xBB, 0x6A)),
    (0.53, 0.53, 0.84, 0.84, 0.06, (0xFF, 0xB7, 0x4D)),
]


def _inside(x: float, y: float, x0: float, y0: float, x1: float, y1: float, r: float) -> bool:
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def render(size: int) -> bytes:
    """RGBA pixels (row-major) of the icon at ``size`` x ``size``, 4x4 (small) or 2x2 supersampled."""
    ss = 4 if size <= 64 else 2
    offsets = [(i + 0.5) / ss for i in range(ss)]
    out = bytearray()
    for py in range(size):
        for px in range(size):
            acc = [0.0, 0.0, 0.0, 0.0]
            for oy in offsets:
                y = (py + oy) / size
                for ox in offsets:
                    x = (px + ox) / size
                    colour = None
                    for x0, y0, x1, y1, r, rgb in SHAPES:
                        if _inside(x, y, x0, y0, x1, y1, r):
                            colour = rgb
                    if colour is not None:
                        acc[0] += colour[0]
                        acc[1] += colour[1]
                        acc[2] += colour[2]
                        acc[3] += 1
            n = ss * ss
            if acc[3]:
                out += bytes((round(acc[0] / acc[3]), round(acc[1] / acc[3]), round(acc[2] / acc[3]),
                              round(255 * acc[3] / n)))
            else:
                out += b"\0\0\0\0"
    return bytes(out)


def png(size: int, rgba: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    stride = size * 4
    raw = b"".join(b"\0" + rgba[row * stride:(row + 1) * stride] for row in range(size))
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


def ico(images: dict[int, bytes]) -> bytes:
    """A .ico holding PNG-compressed images (supported since Windows Vista)."""
    sizes = sorted(images)
    head = struct.pack("<HHH", 0, 1, len(sizes))
    offset = 6 + 16 * len(sizes)
    entries, blobs = b"", b""
    for s in sizes:
        data = images[s]
        dim = 0 if s >= 256 else s
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(data), offset)
        blobs += data
        offset += len(data)
    return head + entries + blobs


def svg() -> str:
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 1 1">']
    for x0, y0, x1, y1, r, (cr, cg, cb) in SHAPES:
        parts.append(f'<rect x="{x0}" y="{y0}" width="{x1 - x0:.2f}" height="{y1 - y0:.2f}" rx="{r}" '
                     f'fill="#{cr:02x}{cg:02x}{cb:02x}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(out_dir: str) -> int:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    pngs: dict[int, bytes] = {}
    for size in SIZES:
        pngs[size] = png(size, render(size))
        (out / f"idea-{size}.png").write_bytes(pngs[size])
    (out / "idea.svg").write_text(svg())
    (out / "idea.ico").write_bytes(ico({s: pngs[s] for s in ICO_SIZES}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "build/out/icons"))
