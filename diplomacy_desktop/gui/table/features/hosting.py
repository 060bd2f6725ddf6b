"""Table ▸ Phones inside the window: hosting on and off (``PhonesLink`` joins the server to the
flow's ``TableSession``), the window's clock fed to the phones, and "Use my phone…", a seat's own
code on its own curtain turn (only once it proved itself with its PIN).

The phones' side of the window (``gui/table/phones.py``, and through it the host's ``TableHost``)
is imported when the host first opens Table ▸ Phones or turns hosting on, not at every start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....table.hotseat import ENTERING
from ....table.clock import EXPIRED, PAUSED, RUNNING
from ..hotseat.names import seat_title
from .base import TableModeBase
from ...widgets import open_kept

if TYPE_CHECKING:
    from ..phones import MyPhoneDialog, PhonesDialog, PhonesHosting

PHONES_WERE_ON = ("This game was being played with phones: Table ▸ Phones… turns hosting on again "
                  "(the same links; what the phones sealed is kept).")


class TableHosting(TableModeBase):
    """Table ▸ Phones: the game served to the phones, and a seat's own "Use my phone…"."""

    def _feed_phones_clock(self) -> None:
        """The window's clock on the phones, live ("Round 2 of 5" during Wilson rounds)."""
        if self.phones is None:
            return
        m = self.clock.model
        if m.period is None or m.status not in (RUNNING, PAUSED, EXPIRED) or self.controller.game.is_over:
            self.phones.show_clock("", None, False)
            return
        title = m.round_text or m.period.title
        self.phones.show_clock(title, m.remaining, m.status == RUNNING)

    # -- "Use my phone…": a seat's own code on its own curtain turn ----------------------------------

    def _hosting_on(self) -> bool:
        return self.phones is not None and self.phones.game is self.controller.game and self.phones.hosting.running

    def _update_phone_button(self) -> None:
        s = self.flow.session
        # only a seat that proved itself with its PIN may carry its link away (issue 20)
        proved = self.flow.enabled and s.stage == ENTERING and self.flow.proved
        self.my_pin_button.setVisible(proved and not s.declaring)
        on = proved and self._hosting_on()
        self.strip.phone_button.setVisible(on and not s.declaring)
        form = self.flow.declarations_form  # a seat declaring writes inside the curtain: the button is there
        if form is not None:
            form.phone_button.setVisible(on and s.declaring)

    def open_my_phone(self) -> MyPhoneDialog | None:
        """The seat at the keyboard (and only it) gets its phone's code and link: one link for
        the player, whichever of its powers; the dialog closes when the turn ends."""
        s = self.flow.session
        if not (self.flow.enabled and s.stage == ENTERING and self._hosting_on() and s.current_seat
                and self.flow.proved):
            return None
        if self.my_phone_dialog is not None:
            self.my_phone_dialog.raise_()
            return self.my_phone_dialog
        assert self.phones is not None  # _hosting_on
        from ..phones import MyPhoneDialog

        seat = s.current_seat
        url = f"{self.phones.hosting.base_url}/t/{self.phones.host.token_of(seat[0])}"
        dialog = MyPhoneDialog(seat, seat_title(self.controller, seat), url, self.window, has_pin=s.has_pin(seat[0]))
        open_kept(self, "my_phone_dialog", dialog)
        return dialog

    def _close_my_phone(self) -> None:
        if self.my_phone_dialog is not None:
            dialog, self.my_phone_dialog = self.my_phone_dialog, None
            dialog.reject()  # its code and link are cleared at once

    # -- Table ▸ Phones ------------------------------------------------------------------------------

    def show_phones(self) -> PhonesDialog:
        """The join screen: hosting on and off, one power's code at a time (a host action)."""
        self.flow.step_away()
        if self.phones_dialog is not None:
            self.phones_dialog.raise_()
            return self.phones_dialog
        from ..phones import PhonesDialog

        board = self.controller.board
        dialog = PhonesDialog(self.phones.hosting if self.phones is not None else None, self.window,
                              switch=self, host_action=self.flow.ask_host,
                              board_powers=[(p, board.power(p).name) for p in board.power_ids],
                              address=self.phones_address)
        saved_port = self.controller.table.hosting_port
        if isinstance(saved_port, int) and self.phones is None:
            dialog.port.setValue(saved_port)
        self.flow.stage_changed.connect(dialog.hide_when_someone_sits)
        open_kept(self, "phones_dialog", dialog)
        return dialog

    def turn_on(self, port: int, address: str | None = None) -> PhonesHosting:
        """Serve this game to the phones on ``port`` and ``address`` (the join screen's choice;
        by default the table's Wi-Fi/LAN address, never every interface unless chosen: issue 31).
        OSError when it cannot be bound."""
        if self.phones is not None and self.phones.game is not self.controller.game:
            self.turn_off()
        if self.phones is None:
            from ..phones import PhonesLink, default_hosting_address

            where = address or self.phones_address or default_hosting_address()
            link = PhonesLink(self.controller, self.flow, save_now=self.autosaver.save_now,
                              address=where, port=port, parent=self)
            try:
                link.start()
            except OSError:
                link.close()
                raise
            self.phones = link
            self._feed_phones_clock()
            self._update_phone_button()
            self.window.statusBar().showMessage(f"Phones: the table is at {link.hosting.base_url}/", 15000)
        return self.phones.hosting

    def turn_off(self) -> None:
        """Stop serving (the phones' links stay valid for the next time)."""
        link, self.phones = self.phones, None
        self._close_my_phone()
        self._update_phone_button()
        if link is not None:
            link.close()
            link.deleteLater()
            if self.autosaver.enabled:
                self.autosaver.save_now()
