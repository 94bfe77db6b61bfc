"""The web client's app icons, drawn by this code: a white spade on the table's green felt.

``python -m batak.web.icons`` writes ``static/icon.svg``, ``static/icon-192.png`` and
``static/icon-512.png`` (PNG written with zlib alone: no imaging library). The spade is two
round lobes under a pointed top, with a flared stem; each pixel is
sampled 3 × 3 times for smooth edges. A test checks that the files in the package are what this
code draws.
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

STATIC = Path(__file__).parent / "static"
FELT = (13, 92, 54)  # --felt in style.css
WHITE = (255, 255, 255)
SIZES = (192, 512)


#: The spade: two round lobes, a pointed top between them, and a flared stem.
LOBES = ((0.355, 0.56), (0.645, 0.56))
LOBE_R = 0.165
TOP = ((0.5, 0.15), (0.205, 0.5), (0.795, 0.5))  # the point, then the lobes' outer sides
STEM = ((0.47, 0.6), (0.53, 0.6), (0.6, 0.84), (0.4, 0.84))


def _in_polygon(x: float, y: float, poly: tuple[tuple[float, float], ...]) -> bool:
    inside = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _inside(x: float, y: float) -> bool:
    """Is the point (x, y) of the unit square (y down) inside the spade?"""
    if any((x - cx) ** 2 + (y - cy) ** 2 <= LOBE_R**2 for cx, cy in LOBES):
        return True
    return _in_polygon(x, y, TOP) or _in_polygon(x, y, STEM)


def _corner(x: float, y: float, radius: float = 0.18) -> bool:
    """Is (x, y) inside the icon's rounded square?"""
    cx = min(max(x, radius), 1 - radius)
    cy = min(max(y, radius), 1 - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius * radius


def draw(size: int) -> bytes:
    """The icon as RGBA rows (``size`` × ``size``)."""
    n = 3
    rows = bytearray()
    for py in range(size):
        rows.append(0)  # filter: none
        for px in range(size):
            felt = spade = 0
            for sy in range(n):
                for sx in range(n):
                    x = (px + (sx + 0.5) / n) / size
                    y = (py + (sy + 0.5) / n) / size
                    if _corner(x, y):
                        felt += 1
                        if _inside(x, y):
                            spade += 1
            total = n * n
            alpha = felt / total
            if felt:
                w = spade / felt
                colour = [round(FELT[i] * (1 - w) + WHITE[i] * w) for i in range(3)]
            else:
                colour = [0, 0, 0]
            rows.extend((*colour, round(255 * alpha)))
    return bytes(rows)


def png(size: int) -> bytes:
    def chunk(tag: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body))
            + tag
            + body
            + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(draw(size), 9))
        + chunk(b"IEND", b"")
    )


def svg() -> str:
    """The same icon as SVG."""

    def pts(poly: tuple[tuple[float, float], ...]) -> str:
        return " ".join(f"{x},{y}" for x, y in poly)

    lobes = "".join(f'<circle cx="{x}" cy="{y}" r="{LOBE_R}"/>' for x, y in LOBES)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">'
        '<rect width="1" height="1" rx="0.18" fill="#0d5c36"/>'
        f'<g fill="#fff">{lobes}<polygon points="{pts(TOP)}"/>'
        f'<polygon points="{pts(STEM)}"/></g>'
        "</svg>\n"
    )


def write(folder: Path = STATIC) -> list[Path]:
    out = []
    for size in SIZES:
        path = folder / f"icon-{size}.png"
        path.write_bytes(png(size))
        out.append(path)
    path = folder / "icon.svg"
    path.write_text(svg(), encoding="utf-8")
    out.append(path)
    return out


if __name__ == "__main__":  # pragma: no cover - a maintainer's tool
    for p in write(Path(sys.argv[1]) if len(sys.argv) > 1 else STATIC):
        print(p)
