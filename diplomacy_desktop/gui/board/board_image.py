"""The board art as a graphics item: fast to show, crisp at every zoom.

Drawing the whole SVG takes a few hundred milliseconds (its coastlines are detailed), far too
slow to repaint on every hover or zoom step.  So :class:`BoardItem` paints from images:

* a *base* image of the whole board at one pixel per map unit, rendered once and kept in the
  user's cache folder (raw pixels, read in a few milliseconds at the next start);
* a *sharp* image of the part of the board on screen at exactly the screen's resolution
  (device pixels, so high-DPI screens get every pixel), rendered in a worker thread each time
  zooming or scrolling settles.  Until it arrives the base image, scaled, stands in.

For one-off drawings (the render command) ``direct = True`` paints the SVG itself.
"""

from __future__ import annotations

import atexit
import hashlib
import mmap
import os
import struct
from pathlib import Path

from PySide6.QtCore import QByteArray, QObject, QRectF, QSize, Qt, QThread, Signal, Slot
from PySide6.QtGui import QImage, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from ...resources import cache_dir, write_cache
from .. import override
from .map_art import view_box_of

_MAGIC = b"DDBOARD1"
#: pixels of earlier sharp pictures kept (about 48 MB: the whole board and two zoomed views on a laptop)
KEPT_PIXELS = 12_000_000
_BACKGROUND = Qt.GlobalColor.white


def render_svg(renderer: QSvgRenderer, view_box: QRectF, source: QRectF, size: QSize) -> QImage:
    """Draw the ``source`` part of the board (map units) into a new image of ``size`` pixels."""
    image = QImage(size, QImage.Format.Format_RGB32)
    image.fill(_BACKGROUND)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    sx = size.width() / source.width()
    sy = size.height() / source.height()
    painter.scale(sx, sy)
    painter.translate(-source.x(), -source.y())
    painter.setClipRect(source)
    renderer.render(painter, view_box)
    painter.end()
    return image


def _read_raw(path: Path) -> tuple[QImage, mmap.mmap] | None:
    """The image kept at ``path``, over the file mapped into memory (read-only), with that
    mapping: the image is valid while the mapping is kept.  Mapped, the board's 8 MB come from
    the system's file cache as they are drawn, with no copy (reading it into an image of its own
    took 5-8 ms of page faults and copying; reading the file whole and copying it, three times as
    long).  The file is only ever replaced whole (``write_cache``), which leaves a mapping of the
    old one intact."""
    head = len(_MAGIC) + 8
    try:
        with path.open("rb") as file:
            if os.fstat(file.fileno()).st_size < head:
                return None
            mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    if mapped[:len(_MAGIC)] != _MAGIC:
        mapped.close()
        return None
    w, h = struct.unpack("<II", mapped[len(_MAGIC):head])
    if w <= 0 or h <= 0 or len(mapped) != head + w * h * 4:
        mapped.close()
        return None
    image = QImage(memoryview(mapped)[head:], w, h, w * 4, QImage.Format.Format_RGB32)
    return (image, mapped) if not image.isNull() else None


def _write_raw(path: Path, image: QImage) -> None:
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    w, h = image.width(), image.height()
    data = memoryview(image.constBits())
    line = image.bytesPerLine()
    bits = bytes(data[: w * h * 4]) if line == w * 4 else b"".join(
        bytes(data[y * line: y * line + w * 4]) for y in range(h))
    write_cache(path, _MAGIC + struct.pack("<II", w, h) + bits)


def _forget_others(keep: Path) -> None:
    """Remove cached pictures of earlier versions of the same map (8 MB each)."""
    stem = keep.name.split("-")[0]
    try:
        for old in keep.parent.glob(f"{stem}-*-board1x.raw"):
            if old != keep:
                old.unlink()
    except OSError:
        pass


class _SharpWorker(QObject):
    """Renders parts of boards in its own thread, with its own SVG renderers."""

    done = Signal(object, int, QRectF, float, QImage)

    def __init__(self) -> None:
        super().__init__()
        self.renderers: dict[str, QSvgRenderer] = {}

    @Slot(object, str, object, int, QRectF, float)
    def render(self, relay: object, key: str, svg: object, ticket: int, source: QRectF, scale: float) -> None:
        renderer = self.renderers.get(key)
        if renderer is None:
            renderer = self.renderers[key] = _renderer(key, svg)
        size = QSize(max(1, round(source.width() * scale)), max(1, round(source.height() * scale)))
        image = render_svg(renderer, renderer.viewBoxF(), source, size)
        self.done.emit(relay, ticket, source, scale, image)


class _SharpThread:
    """One worker thread for the whole application, stopped when Python exits."""

    thread: QThread | None = None
    worker: _SharpWorker | None = None
    dispatcher: _Dispatcher | None = None

    @classmethod
    def get(cls) -> _SharpWorker:
        if cls.worker is None:
            cls.thread = QThread()
            cls.thread.setObjectName("board-sharpener")
            cls.worker = _SharpWorker()
            cls.worker.moveToThread(cls.thread)
            cls.dispatcher = _Dispatcher()  # created in the GUI thread, so it delivers there
            cls.worker.done.connect(cls.dispatcher.deliver, Qt.ConnectionType.QueuedConnection)
            cls.thread.start(QThread.Priority.LowPriority)
            atexit.register(cls.stop)
        return cls.worker

    @classmethod
    def stop(cls) -> None:
        if cls.thread is not None:
            cls.thread.quit()
            cls.thread.wait(5000)
            cls.thread = None
            cls.worker = None


class _Dispatcher(QObject):
    @Slot(object, int, QRectF, float, QImage)
    def deliver(self, relay: object, ticket: int, source: QRectF, scale: float, image: QImage) -> None:
        if isinstance(relay, _Relay) and relay.item is not None:
            relay.item._on_sharp(ticket, source, scale, image)


def _renderer(svg_path: str, svg: object) -> QSvgRenderer:
    """A renderer for the SVG text ``svg`` (bytes), or for the file ``svg_path`` when there is none."""
    if isinstance(svg, bytes):
        return QSvgRenderer(QByteArray(svg))
    return QSvgRenderer(svg_path)


class BoardItem(QGraphicsItem):
    """The board art.  Coordinates are the SVG's user units.

    ``svg_data``, when given, is the SVG text to draw (the map file without the parts the scene
    draws itself); ``svg_path`` still names the map (and its cache file).
    """

    def __init__(self, svg_path: Path | str, *, cache_dir: Path | None = None, sharpen: bool = True,
                 svg_data: bytes | None = None) -> None:
        super().__init__()
        self.svg_path = str(svg_path)
        self.svg_data = svg_data
        self._digest: str | None = None
        self._key = self.svg_path if svg_data is None else f"{self.svg_path}#{(self._svg_digest() or '')[:16]}"
        self._cache_dir = cache_dir
        self._renderer: QSvgRenderer | None = None
        view_box = view_box_of(svg_data.decode("utf-8", "replace")) if svg_data is not None else None
        path = self._cache_file()
        if view_box is not None and path is not None and path.is_file():
            # drawn before (the cache file is named by the art's digest): the first paint reads
            # that picture, and Qt reads the SVG (a few milliseconds) only when a picture is drawn
            self.view_box = QRectF(*view_box)
        else:
            self.view_box = self.renderer.viewBoxF()  # art Qt cannot draw fails here, not in a paint
            if self.view_box.isEmpty():
                self.view_box = QRectF(0, 0, self.renderer.defaultSize().width(),
                                       self.renderer.defaultSize().height())
        self.direct = False
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._base: QImage | None = None
        #: the kept picture's file, mapped into memory: the base image's pixels (kept with it)
        self._mapped: mmap.mmap | None = None
        self._base_pixmap: QPixmap | None = None
        self._sharp: tuple[QRectF, float, QPixmap] | None = None
        #: earlier sharp images, the newest last: the view going back to a place and size it had
        #: (the magnifier zooming back out) finds its picture made, with no wait and no repaint
        self._kept: list[tuple[QRectF, float, QPixmap]] = []
        self._sharpen = sharpen
        self._relay = _Relay(self)
        self._ticket = 0
        self._busy = False
        self._pending: tuple[QRectF, float] | None = None

    # -- images ------------------------------------------------------------------------------

    @property
    def renderer(self) -> QSvgRenderer:
        """Qt's renderer of the art, made when first needed."""
        if self._renderer is None:
            renderer = _renderer(self.svg_path, self.svg_data)
            if not renderer.isValid():
                raise ValueError(f"cannot draw the map {self.svg_path}")
            self._renderer = renderer
        return self._renderer

    def _svg_digest(self) -> str | None:
        if self._digest is None:
            try:
                data = self.svg_data if self.svg_data is not None else Path(self.svg_path).read_bytes()
            except OSError:
                return None
            self._digest = hashlib.sha256(data).hexdigest()
        return self._digest

    def _cache_file(self) -> Path | None:
        folder = self._cache_dir if self._cache_dir is not None else cache_dir()
        digest = self._svg_digest()
        if digest is None:
            return None
        return folder / f"{Path(self.svg_path).stem}-{digest[:32]}-board1x.raw"

    def base_image(self) -> QImage:
        """The whole board at one pixel per map unit (from the cache, else rendered now)."""
        if self._base is None:
            path = self._cache_file()
            size = QSize(max(1, round(self.view_box.width())), max(1, round(self.view_box.height())))
            read = _read_raw(path) if path is not None else None
            image = None
            if read is not None:
                image, self._mapped = read
            if image is None or image.size() != size:
                self._mapped = None
                image = render_svg(self.renderer, self.view_box, self.view_box, size)
                if path is not None:
                    _write_raw(path, image)
                    _forget_others(path)
            self._base = image
        return self._base

    def base_pixmap(self) -> QPixmap:
        if self._base_pixmap is None:
            self._base_pixmap = QPixmap.fromImage(self.base_image())
        return self._base_pixmap

    @property
    def sharp(self) -> tuple[QRectF, float, QPixmap] | None:
        return self._sharp

    def request_sharp(self, visible: QRectF, scale: float) -> None:
        """Ask for the ``visible`` part (map units) at ``scale`` device pixels per map unit."""
        if not self._sharpen or scale <= 0:
            return
        area = visible.intersected(self.view_box)
        if area.isEmpty():
            return
        if self._sharp is not None:
            rect, s, _ = self._sharp
            if abs(s - scale) / scale < 0.01 and rect.contains(area):
                return
        for i, (rect, s, _) in enumerate(self._kept):
            if abs(s - scale) / scale < 0.01 and rect.contains(area):
                found = self._kept.pop(i)
                self._keep(self._sharp)
                self._sharp = found
                self._pending = None
                self._ticket += 1  # a picture still being made for another view is not wanted now
                self.update()
                return
        # a margin around the visible part, so a little panning stays sharp
        mx, my = area.width() * 0.25, area.height() * 0.25
        source = area.adjusted(-mx, -my, mx, my).intersected(self.view_box)
        limit = 40_000_000  # pixels
        if source.width() * source.height() * scale * scale > limit:
            source = area
        if area.width() * area.height() * scale * scale > limit:
            return
        self._pending = (source, scale)
        self._start_next()

    def _start_next(self) -> None:
        if self._busy or self._pending is None:
            return
        worker = _SharpThread.get()
        if not self._relay.connected:
            self._relay.request.connect(worker.render, Qt.ConnectionType.QueuedConnection)
            self._relay.connected = True
        source, scale = self._pending
        self._pending = None
        self._busy = True
        self._ticket += 1
        self._relay.request.emit(self._relay, self._key, self.svg_data, self._ticket, source, scale)

    def _on_sharp(self, ticket: int, source: QRectF, scale: float, image: QImage) -> None:
        self._busy = False
        if ticket == self._ticket:
            # a pixmap is in the screen's own format: drawing it is a plain copy
            self._keep(self._sharp)
            self._sharp = (source, scale, QPixmap.fromImage(image))
            self.update()
        self._start_next()

    def _keep(self, sharp: tuple[QRectF, float, QPixmap] | None) -> None:
        """Keep ``sharp`` among the earlier pictures (:data:`KEPT_PIXELS` of them at most)."""
        if sharp is None:
            return
        self._kept.append(sharp)
        while sum(p.width() * p.height() for _, _, p in self._kept) > KEPT_PIXELS and self._kept:
            self._kept.pop(0)

    def stop(self) -> None:
        """Take no more sharp images (the item is going away); late ones are dropped."""
        self._sharpen = False
        self._pending = None
        self._relay.item = None

    # -- painting ----------------------------------------------------------------------------

    @override
    def boundingRect(self) -> QRectF:
        return self.view_box

    @override
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        exposed = option.exposedRect.intersected(self.view_box)
        if exposed.isEmpty():
            return
        if self.direct:
            painter.save()
            painter.setClipRect(exposed)
            self.renderer.render(painter, self.view_box)
            painter.restore()
            return
        dpr = widget.devicePixelRatioF() if widget is not None else painter.device().devicePixelRatioF()
        scale = painter.worldTransform().m11() * dpr
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        if self._sharp is not None:
            rect, s, image = self._sharp
            if abs(s - scale) / max(scale, 1e-9) < 0.01 and rect.contains(exposed):
                src = QRectF((exposed.x() - rect.x()) * s, (exposed.y() - rect.y()) * s,
                             exposed.width() * s, exposed.height() * s)
                painter.drawPixmap(exposed, image, src)
                return
        base = self.base_pixmap()
        bx = base.width() / self.view_box.width()
        by = base.height() / self.view_box.height()
        src = QRectF((exposed.x() - self.view_box.x()) * bx, (exposed.y() - self.view_box.y()) * by,
                     exposed.width() * bx, exposed.height() * by)
        painter.drawPixmap(exposed, base, src)


class _Relay(QObject):
    """Lives in the GUI thread: sends one item's requests to the worker."""

    request = Signal(object, str, object, int, QRectF, float)

    def __init__(self, item: BoardItem) -> None:
        super().__init__()
        self.item: BoardItem | None = item
        self.connected = False


def stop_sharpening() -> None:
    """End the worker thread (the application is quitting)."""
    _SharpThread.stop()
