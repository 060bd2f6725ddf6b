"""Province names drawn once per form and screen scale, kept as images (and on disk for the next start).

A name is an antialiased outline with a halo, costly to fill: the 76 names' first paint was the
largest single part of the window's first paint, and a zoom (the magnifier) redrew every name
twice, in and back out.  Qt's own item cache keeps one picture per item and drops it at every
change of scale, so here each name is drawn into an image for its form (text, size, leader line),
the screen's scale and the sixteenth of a pixel it starts at, and that image is what is painted
from then on (into Qt's item cache, which copies it on hovers and clicks); images of other scales
are kept (up to :data:`LIMIT_BYTES`, least recently used first out), so going back to a scale
costs nothing.

The images of the scale last drawn are written to the user's cache folder when the application
quits and read at the next start (the window opens at the size it was closed at), as the board's
own picture is.  The file is named by what changes the pixels: Qt's version, the font as the
machine has it, the compiled code of the function that draws a name (``LabelItem.draw``) and
:data:`VERSION` (raise it when this module's own drawing changes).  A file that cannot be read is
ignored and replaced.

The pixels are those of drawing the name directly, but for its origin rounded to a sixteenth of a
pixel.
"""

from __future__ import annotations

import hashlib
import json
import math
import struct
from collections import OrderedDict
from collections.abc import Callable, Hashable
from pathlib import Path

from PySide6.QtCore import QPoint, QRectF, qVersion
from PySide6.QtGui import QImage, QPainter, QTransform

from ...resources import write_cache

#: raise when this module's drawing of an image changes (LabelItem.draw's own code names the file)
VERSION = 1
#: memory kept for images (bytes), least recently used dropped first
LIMIT_BYTES = 48 * 1024 * 1024
#: a name's start on screen is rounded to this share of a pixel (a scroll moves whole pixels: the
#: share changes with the scale only)
STEP = 16
_MAGIC = b"DDNAMES2"
_FORMAT = QImage.Format.Format_ARGB32_Premultiplied

Draw = Callable[[QPainter], None]
#: an image's key: the name's form, the device scale (x, y, pixel ratio) and its sixteenth of a pixel (x, y)
Key = tuple[Hashable, tuple[float, float, float], int, int]
#: the devices painted in pixels (``QPaintDevice.devType``: a widget, a pixmap, an image); a
#: printer, a PDF, an SVG or a picture gets the drawing itself.  (Asked of the device: the paint
#: engine's type is a Qt enumeration PySide makes, whole, at its first use, at the first frame.)
_PIXEL_DEVICES = (1, 2, 3)
_PLAIN = (QTransform.TransformationType.TxNone, QTransform.TransformationType.TxTranslate,
          QTransform.TransformationType.TxScale)


class LabelImages:
    """Images of names by (form, scale, sixteenth of a pixel); see the module's docstring."""

    def __init__(self, limit: int = LIMIT_BYTES) -> None:
        self.limit = limit
        self._images: OrderedDict[Key, QImage] = OrderedDict()
        self._bytes = 0
        #: the files' contents the images read from them are drawn from (Qt does not copy them)
        self._buffers: list[bytes] = []
        #: the device scale (sx, sy, dpr) names were last drawn at: what is saved
        self.last_scale: tuple[float, float, float] | None = None
        #: each form's extent around its origin (map units; what its item gives Qt, so a name read
        #: from the file needs no outline made to be placed and drawn)
        self.bounds: dict[Hashable, tuple[float, float, float, float]] = {}
        self._loaded_from: Path | None = None
        #: the file images are read from at the first paint and written to when the application quits
        self.path: Path | None = None
        self.hits = 0
        self.misses = 0
        #: forms whose images are not written to disk (``paint(keep=False)``)
        self._unsaved: set[Hashable] = set()

    @property
    def loaded(self) -> bool:
        """Whether the file named by :attr:`path` has been read (or found missing)."""
        return self._loaded_from == self.path

    def __len__(self) -> int:
        return len(self._images)

    def clear(self) -> None:
        self._images.clear()
        self._bytes = 0

    def paint(self, painter: QPainter, form: Hashable, bounds: QRectF, draw: Draw, keep: bool = True) -> bool:
        """Paint the name ``form`` (whose drawing ``draw`` does, within ``bounds`` around the
        item's origin) from its image, drawing that first if needed; False (nothing painted) when
        the painter is not a screen's or image's (a PDF, an SVG) or the view is turned.
        ``keep=False``: the image is never written to disk (a picture of a passing state, such as
        a highlight, whose drawing code does not name the file)."""
        if self.path is not None and self._loaded_from != self.path:
            self.load(self.path)
        device = painter.device()
        if device is None or not painter.isActive() or device.devType() not in _PIXEL_DEVICES:
            return False
        t = painter.worldTransform()
        if t.type() not in _PLAIN or t.m11() <= 0 or t.m22() <= 0:
            return False
        dpr = float(device.devicePixelRatioF())
        sx, sy = t.m11() * dpr, t.m22() * dpr
        ox, oy = t.dx() * dpr, t.dy() * dpr
        ix, iy = math.floor(ox), math.floor(oy)
        fx, fy = round((ox - ix) * STEP), round((oy - iy) * STEP)
        if fx == STEP:
            ix, fx = ix + 1, 0
        if fy == STEP:
            iy, fy = iy + 1, 0
        scale = (round(sx, 6), round(sy, 6), dpr)
        key: Key = (form, scale, fx, fy)
        image = self._images.get(key)
        if form not in self.bounds:
            self.bounds[form] = (bounds.x(), bounds.y(), bounds.width(), bounds.height())
        if image is None:
            self.misses += 1
            image = self._draw(bounds, sx, sy, fx / STEP, fy / STEP, draw)
            self._put(key, image)
            if not keep:
                self._unsaved.add(form)
        else:
            self.hits += 1
            self._images.move_to_end(key)
        self.last_scale = scale
        offset = image.offset()
        painter.save()
        painter.setWorldTransform(QTransform.fromScale(1 / dpr, 1 / dpr))
        painter.drawImage(QPoint(ix + offset.x(), iy + offset.y()), image)
        painter.restore()
        return True

    @staticmethod
    def _draw(bounds: QRectF, sx: float, sy: float, fx: float, fy: float, draw: Draw) -> QImage:
        left = math.floor(fx + bounds.left() * sx) - 1
        top = math.floor(fy + bounds.top() * sy) - 1
        right = math.ceil(fx + bounds.right() * sx) + 1
        bottom = math.ceil(fy + bounds.bottom() * sy) + 1
        image = QImage(max(1, right - left), max(1, bottom - top), _FORMAT)
        image.fill(0)
        image.setOffset(QPoint(left, top))
        painter = QPainter(image)
        painter.setWorldTransform(QTransform(sx, 0, 0, sy, fx - left, fy - top))
        draw(painter)
        painter.end()
        return image

    def _put(self, key: Key, image: QImage) -> None:
        old = self._images.pop(key, None)
        if old is not None:
            self._bytes -= old.sizeInBytes()
        self._images[key] = image
        self._bytes += image.sizeInBytes()
        while self._bytes > self.limit and len(self._images) > 1:
            _, dropped = self._images.popitem(last=False)
            self._bytes -= dropped.sizeInBytes()

    # -- on disk -------------------------------------------------------------------------------

    def save(self, path: Path) -> None:
        """Write the images of the scale last drawn to ``path`` (replacing it whole); errors are
        ignored (a cache)."""
        if self.last_scale is None:
            return
        entries = [(key, image) for key, image in self._images.items()
                   if key[1] == self.last_scale and key[0] not in self._unsaved]
        if not entries:
            return
        index = []
        blobs = []
        for key, image in entries:
            form, scale, fx, fy = key
            index.append([_jsonable(form), list(scale), fx, fy, image.width(), image.height(),
                          image.bytesPerLine(), image.offset().x(), image.offset().y(), self.bounds.get(form)])
            blobs.append(bytes(image.constBits()))
        head = json.dumps(index, separators=(",", ":")).encode()
        write_cache(path, b"".join([_MAGIC, struct.pack("<I", len(head)), head, *blobs]))

    def load(self, path: Path) -> int:
        """Read images written by :meth:`save` (once per file); how many were read. A file that
        is missing or cannot be read gives none."""
        if self._loaded_from == path:
            return 0
        self._loaded_from = path
        try:
            data = path.read_bytes()
        except OSError:
            return 0
        try:
            if data[:8] != _MAGIC:
                return 0
            (n,) = struct.unpack("<I", data[8:12])
            index = json.loads(data[12:12 + n])
            at = 12 + n
            view = memoryview(data)
            got = []
            extents = {}
            for form, scale, fx, fy, w, h, stride, x, y, extent in index:
                size = stride * h
                if at + size > len(data):
                    return 0
                image = QImage(view[at:at + size], w, h, stride, _FORMAT)  # over the file's bytes, kept
                image.setOffset(QPoint(x, y))
                sx, sy, dpr = scale
                key = _hashable(form)
                got.append(((key, (float(sx), float(sy), float(dpr)), int(fx), int(fy)), image))
                if extent is not None:
                    left, top, width, height = extent
                    extents[key] = (float(left), float(top), float(width), float(height))
                at += size
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, struct.error):
            return 0
        self._buffers.append(data)  # the images read are views of it
        for key, extent in extents.items():
            self.bounds.setdefault(key, extent)
        for key, image in got:
            if key not in self._images:
                self._put(key, image)
        return len(got)


def _jsonable(value: object) -> object:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def _hashable(value: object) -> Hashable:
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    return value


#: the application's images of names, units (without their selection ring) and owned provinces (one
#: set for every view and window, kept on disk: see ``keep_on_disk``)
IMAGES = LabelImages()


def cache_file(folder: Path, draw: Callable[..., object]) -> Path:
    """The file of name images for this Qt, font and drawing code ``draw`` (a function: its
    compiled code is part of the name, so a change to it never reads old images)."""
    from .label_layout import code_digest, font_fingerprint

    digest = hashlib.sha256(f"{VERSION}|{qVersion()}|{font_fingerprint()}".encode())
    code = getattr(draw, "__code__", None)
    if code is not None:
        code_digest(code, digest)
    return folder / f"names-{digest.hexdigest()[:16]}.raw"


def keep_on_disk(folder: Path, draw: Callable[..., object]) -> None:
    """Read the names' images and places from ``folder`` at the first paint, and write them there
    when the application quits (the images of the scale last drawn; once, whatever the number of
    windows)."""
    from PySide6.QtWidgets import QApplication

    from .label_layout import GEOMETRY, LAYOUTS

    path = cache_file(folder, draw)
    if IMAGES.path == path:
        return
    first = IMAGES.path is None
    IMAGES.path = path
    LAYOUTS.path = folder / "names-layouts.json"  # where the names go, by size (label_layout)
    GEOMETRY.path = folder / "names-fitted.json"  # the spots, markers and names fitted to the units
    app = QApplication.instance()
    if first and app is not None:
        app.aboutToQuit.connect(_save)


def _save() -> None:
    from .label_layout import GEOMETRY, LAYOUTS

    if IMAGES.path is not None:
        IMAGES.save(IMAGES.path)
    for memo in (LAYOUTS, GEOMETRY):
        if memo.path is not None:
            memo.save(memo.path)


__all__ = ["IMAGES", "VERSION", "LabelImages", "cache_file", "keep_on_disk"]
