"""QR codes of the join links, drawn by segno: pure Python, no Pillow, maintained, and it
writes SVG (for the window's join screen) and terminal output (for ``serve --qr``) itself."""

from __future__ import annotations

import io

import segno


def join_qr_svg(url: str, *, scale: int = 6) -> str:
    """An SVG picture of the QR code for ``url`` (error correction M: readable off a screen)."""
    out = io.BytesIO()
    segno.make(url, error="m", micro=False).save(out, kind="svg", scale=scale, border=2, xmldecl=False)
    return out.getvalue().decode("utf-8")


def join_qr_text(url: str) -> str:
    """The QR code for ``url`` in block characters, for a terminal."""
    out = io.StringIO()
    segno.make(url, error="m", micro=False).terminal(out=out, compact=True)
    return out.getvalue()
