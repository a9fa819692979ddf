"""A link as a QR code, drawn on our own server (no outside service sees the link)."""

import io

import segno


def qr_svg(link: str) -> str:
    """``link`` as a QR code: a whole SVG document, namespace included. Without ``xmlns`` a browser
    draws an ``<img>`` of it at zero width, and a phone's camera has nothing to read."""
    drawn = io.BytesIO()
    segno.make(link, error="m").save(drawn, kind="svg", scale=6, border=2, xmldecl=False)
    return drawn.getvalue().decode()
