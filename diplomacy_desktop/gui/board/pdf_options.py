"""The PDF page dialog: the paper, the orientation and whether each result is explained.

Asked after Game ▸ Export… or Export every phase… when the file chosen is a PDF (a desktop's own
file dialog cannot carry these choices); the choices are kept for the next export.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QLabel,
                               QVBoxLayout, QWidget)

from .export import ORIENTATIONS, PAPER_NAMES, PAPERS, PdfOptions, default_paper
from ..widgets import choice_combo

ORIENTATION_NAMES = {"auto": "Automatic: the map across the page's width", "portrait": "Portrait",
                     "landscape": "Landscape"}
#: where the choices are kept (QSettings keys)
KEYS = {"paper": "export/pdf_paper", "orientation": "export/pdf_orientation",
        "explanations": "export/pdf_explanations"}


class PdfOptionsDialog(QDialog):
    """Paper, orientation and explanations for a PDF export; :meth:`options` is what was chosen."""

    def __init__(self, parent: QWidget | None, start: PdfOptions, *, can_explain: bool,
                 pages: int = 1) -> None:
        super().__init__(parent)
        self.setWindowTitle("PDF page")
        layout = QVBoxLayout(self)
        what = "The phase" if pages == 1 else f"Each of the {pages} phases"
        intro = QLabel(f"{what} on its own page: a title line, the map across the page, then the orders "
                       "and their results.")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        form = QFormLayout()
        self.paper = choice_combo([(PAPER_NAMES[k], k) for k in PAPERS], start.paper, "Paper size")
        form.addRow("&Paper:", self.paper)
        self.orientation = choice_combo([(ORIENTATION_NAMES[k], k) for k in ORIENTATIONS], start.orientation,
                                        "Page orientation")
        form.addRow("&Orientation:", self.orientation)
        layout.addLayout(form)
        self.explanations = QCheckBox("&Explain every result after the map, with the rule that decides it")
        self.explanations.setChecked(start.explanations and can_explain)
        self.explanations.setEnabled(can_explain)
        if not can_explain:
            self.explanations.setToolTip("This phase is not adjudicated yet: it has no results to explain.")
        layout.addWidget(self.explanations)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Save).setText("&Export")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def options(self) -> PdfOptions:
        return PdfOptions(str(self.paper.currentData()), str(self.orientation.currentData()),
                          self.explanations.isChecked() and self.explanations.isEnabled())


def saved_options(settings: QSettings) -> PdfOptions:
    """The choices of the last PDF export (A4 or Letter by the locale at first)."""
    paper = str(settings.value(KEYS["paper"], default_paper()))
    orientation = str(settings.value(KEYS["orientation"], "auto"))
    explanations = str(settings.value(KEYS["explanations"], "false")).lower() in ("true", "1")
    return PdfOptions(paper if paper in PAPERS else default_paper(),
                      orientation if orientation in ORIENTATIONS else "auto", explanations)


def ask_pdf_options(parent: QWidget | None, settings: QSettings, *, can_explain: bool,
                    pages: int = 1) -> PdfOptions | None:
    """Ask how to lay out a PDF (starting from the last choices, which it keeps); None: cancelled."""
    dialog = PdfOptionsDialog(parent, saved_options(settings), can_explain=can_explain, pages=pages)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    options = dialog.options()
    settings.setValue(KEYS["paper"], options.paper)
    settings.setValue(KEYS["orientation"], options.orientation)
    if can_explain:  # a phase with nothing to explain does not change the choice for the next one
        settings.setValue(KEYS["explanations"], "true" if options.explanations else "false")
    return options
