"""The app's icon files for the three desktops, made from ``assets/icon.svg``.

    python packaging/icons.py OUT_DIR

writes ``OUT_DIR/diplomacy-desktop.png`` (256 px, the Linux menu icon), ``OUT_DIR/hicolor/SIZE/apps/
diplomacy-desktop.png`` for the freedesktop icon theme sizes, ``OUT_DIR/diplomacy-desktop.ico`` (Windows:
16 to 256 px in one file) and ``OUT_DIR/diplomacy-desktop.icns`` (macOS: 16 to 1024 px).

Qt rasterises the SVG: it is the renderer the app itself draws the icon and the map with (QtSvg is a
dependency already), and Pillow cannot read SVG.  Pillow writes the ICO and ICNS containers (it is
maintained and writes every size into one file; Qt's ``ico`` plugin writes one image per file and
PySide6-Essentials has no ``icns`` writer).  Pillow is a build-time dependency only (the ``package``
extra); the bundle does not carry it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SVG = ROOT / "assets" / "icon.svg"
NAME = "diplomacy-desktop"
THEME_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
ICNS_SIZES = (16, 32, 64, 128, 256, 512, 1024)


def rasterise(svg: Path, sizes: tuple[int, ...]) -> dict[int, bytes]:
    """``svg`` drawn at each size (square, transparent background) as PNG bytes, by QtSvg."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication([])  # the text in the icon needs fonts
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"{svg} is not an SVG image Qt can draw")
    out: dict[int, bytes] = {}
    for size in sizes:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        renderer.render(painter)
        painter.end()
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        if not image.save(buffer, "PNG"):  # type: ignore[call-overload]  # stubs say bytes; Qt takes str
            raise OSError(f"Qt could not encode the {size} px icon as PNG")
        buffer.close()
        out[size] = bytes(data.data())
    del app
    return out


def make_icons(out_dir: Path, svg: Path = SVG) -> dict[str, Path]:
    """Write the PNGs, the ICO and the ICNS into ``out_dir``; return them by kind."""
    import io

    from PIL import Image

    out_dir.mkdir(parents=True, exist_ok=True)
    pngs = rasterise(svg, tuple(sorted(set(THEME_SIZES) | set(ICO_SIZES) | set(ICNS_SIZES))))
    for size in THEME_SIZES:
        target = out_dir / "hicolor" / f"{size}x{size}" / "apps" / f"{NAME}.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(pngs[size])
    png = out_dir / f"{NAME}.png"
    png.write_bytes(pngs[256])
    images = {size: Image.open(io.BytesIO(data)).convert("RGBA") for size, data in pngs.items()}
    ico = out_dir / f"{NAME}.ico"
    images[256].save(ico, format="ICO", sizes=[(s, s) for s in ICO_SIZES],
                     append_images=[images[s] for s in ICO_SIZES if s != 256])
    icns = out_dir / f"{NAME}.icns"
    images[1024].save(icns, format="ICNS", append_images=[images[s] for s in ICNS_SIZES if s != 1024])
    return {"png": png, "ico": ico, "icns": icns}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python packaging/icons.py OUT_DIR", file=sys.stderr)
        return 2
    for kind, path in make_icons(Path(argv[0])).items():
        print(f"{kind}: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
