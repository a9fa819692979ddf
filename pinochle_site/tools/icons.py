"""Draw the app's icons (static/icons/*.png): two fanned cards, a spade and a heart, on the table's green.

Run once when the design changes; the PNGs are committed. Pillow is needed only here, so it is not
a dependency of the app: ``python -m venv /tmp/icons && /tmp/icons/bin/pip install pillow &&
/tmp/icons/bin/python -m pinochle_site.tools.icons`` (from the checkout).
"""

from pathlib import Path

from PIL import Image, ImageDraw

GREEN = (31, 111, 74, 255)  # --accent in static/css/app.css
CARD = (255, 255, 255, 255)
EDGE = (216, 211, 199, 255)
RED = (179, 38, 30, 255)  # --red
BLACK = (29, 29, 27, 255)  # --fg
SCALE = 4  # drawn large, then shrunk: smooth edges without an antialiasing library
OUT = Path(__file__).resolve().parent.parent / "static" / "icons"


def heart(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, ...]) -> None:
    draw.ellipse((cx - 2 * r, cy - r, cx, cy + r), fill=fill)
    draw.ellipse((cx, cy - r, cx + 2 * r, cy + r), fill=fill)
    draw.polygon(
        [(cx - 1.98 * r, cy + 0.2 * r), (cx + 1.98 * r, cy + 0.2 * r), (cx, cy + 2.5 * r)], fill=fill
    )


def spade(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, ...]) -> None:
    draw.ellipse((cx - 2 * r, cy - r, cx, cy + r), fill=fill)
    draw.ellipse((cx, cy - r, cx + 2 * r, cy + r), fill=fill)
    draw.polygon(
        [(cx - 1.98 * r, cy - 0.2 * r), (cx + 1.98 * r, cy - 0.2 * r), (cx, cy - 2.5 * r)], fill=fill
    )
    draw.polygon([(cx, cy + 0.2 * r), (cx - 0.9 * r, cy + 2.2 * r), (cx + 0.9 * r, cy + 2.2 * r)], fill=fill)


def card(size: int, angle: float, suit: str, shift: float) -> Image.Image:
    """One card on a transparent layer the size of the icon, turned by ``angle`` degrees."""
    layer = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    w, h = size * 0.36, size * 0.50
    x0, y0 = size / 2 - w / 2 + shift, size / 2 - h / 2
    draw.rounded_rectangle(
        (x0, y0, x0 + w, y0 + h), radius=size * 0.04, fill=CARD, outline=EDGE, width=size // 120
    )
    cx, cy, r = x0 + w / 2, y0 + h / 2 - size * 0.01, size * 0.055
    (heart if suit == "H" else spade)(draw, cx, cy, r, RED if suit == "H" else BLACK)
    return layer.rotate(angle, resample=Image.Resampling.BICUBIC, center=(size / 2, size * 0.78))


def icon(size: int, *, maskable: bool) -> Image.Image:
    big = size * SCALE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:  # full bleed: the launcher cuts its own shape; the cards sit in the middle 80%
        draw.rectangle((0, 0, big, big), fill=GREEN)
    else:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 0.2, fill=GREEN)
    scale = 0.82 if maskable else 1.0
    cards = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    cards.alpha_composite(card(big, 14, "S", -big * 0.06))
    cards.alpha_composite(card(big, -12, "H", big * 0.07))
    if scale != 1.0:
        inner = cards.resize((round(big * scale),) * 2, Image.Resampling.LANCZOS)
        cards = Image.new("RGBA", (big, big), (0, 0, 0, 0))
        offset = (big - inner.width) // 2
        cards.alpha_composite(inner, (offset, offset))
    image.alpha_composite(cards)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    icon(192, maskable=False).save(OUT / "icon-192.png", optimize=True)
    icon(512, maskable=False).save(OUT / "icon-512.png", optimize=True)
    icon(512, maskable=True).save(OUT / "icon-maskable-512.png", optimize=True)
    icon(180, maskable=True).convert("RGB").save(OUT / "apple-touch-icon.png", optimize=True)  # iOS: opaque


if __name__ == "__main__":
    main()
