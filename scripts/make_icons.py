"""Draw the web app's icons: a cream spade on the table's felt green, as PNGs for the manifest.

    python scripts/make_icons.py   # writes src/callbreak/server/static/icons/*.png

The spade is drawn from two circles, a triangle and a stem at four times the size and scaled
down, so its edges are smooth. The maskable icon keeps the spade inside the middle 80 % (the
safe zone a launcher's mask never cuts) on a full-bleed background.
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw

FELT = (31, 95, 63)  # --felt in style.css, also the manifest's theme colour
CREAM = (251, 248, 241)  # --paper
OUT = Path(__file__).resolve().parents[1] / "src" / "callbreak" / "server" / "static" / "icons"
SUPERSAMPLE = 4


def spade(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float) -> None:
    """A spade ``size`` tall centred on (cx, cy): two lobes, the point above them joined to each
    lobe along its tangent (so the outline is smooth), and a flared stem below."""
    r = size * 0.24
    lobe_y = cy + size * 0.06
    apex = (cx, cy - size * 0.5)
    tangents = []
    for side in (-1, 1):
        centre = (cx + side * r * 0.95, lobe_y)
        draw.ellipse([centre[0] - r, lobe_y - r, centre[0] + r, lobe_y + r], fill=CREAM)
        dx, dy = apex[0] - centre[0], apex[1] - centre[1]
        d = math.hypot(dx, dy)
        turn = side * math.acos(r / d)  # from the centre-to-apex direction to the tangent point
        angle = math.atan2(dy, dx) + turn
        tangents.append((centre, (centre[0] + r * math.cos(angle), centre[1] + r * math.sin(angle))))
    (left_centre, left_touch), (right_centre, right_touch) = tangents
    draw.polygon([apex, right_touch, right_centre, left_centre, left_touch], fill=CREAM)
    bottom = cy + size * 0.5
    draw.polygon([(cx - size * 0.04, lobe_y), (cx + size * 0.04, lobe_y),
                  (cx + size * 0.2, bottom), (cx - size * 0.2, bottom)], fill=CREAM)


def icon(pixels: int, *, maskable: bool) -> Image.Image:
    big = pixels * SUPERSAMPLE
    image = Image.new("RGB", (big, big), FELT)
    draw = ImageDraw.Draw(image)
    if not maskable:  # a rounded card-table square on transparent corners
        image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
        draw = ImageDraw.Draw(image)
        draw.rounded_rectangle([0, 0, big - 1, big - 1], radius=big * 0.18, fill=FELT)
    spade(draw, big / 2, big / 2, big * (0.5 if maskable else 0.66))
    return image.resize((pixels, pixels), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for pixels in (192, 512):
        icon(pixels, maskable=False).save(OUT / f"icon-{pixels}.png", optimize=True)
    icon(512, maskable=True).save(OUT / "icon-maskable-512.png", optimize=True)
    print(f"icons written to {OUT}")


if __name__ == "__main__":
    main()
