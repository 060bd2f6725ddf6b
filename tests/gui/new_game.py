"""New Game as a table fills it in (issue 20): secrecy on asks for PINs, or the explicit "no PINs",
and for the host's passphrase."""

from __future__ import annotations

from typing import Any

PASSPHRASE = "our table's passphrase"


def no_pins_and_a_passphrase(dialog: Any, passphrase: str = PASSPHRASE) -> Any:
    dialog.no_pins_box.setChecked(True)
    dialog.passphrase_edit.setText(passphrase)
    dialog.passphrase_again.setText(passphrase)
    return dialog
