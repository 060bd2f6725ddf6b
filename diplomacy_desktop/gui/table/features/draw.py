"""The secret draw vote (one vote per player, the host ends the game in the draw all accepted)
and the game-over screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import TableModeBase
from ...widgets import open_kept

if TYPE_CHECKING:  # the dialogs are loaded when a draw is proposed or the game ends, not at every start
    from ....engine.game import GameEnd
    from ..dialogs.draw_vote import DrawVoteDialog
    from ..dialogs.game_over import GameOverDialog


class TableDraw(TableModeBase):
    """The secret draw vote and the end of the game."""

    def propose_draw(self) -> DrawVoteDialog | None:
        from ....table.changes import LAPTOP
        from ....table.computer import computer_votes
        from ....table.parts import text_entries
        from ....table.pins import HOST
        from ..dialogs.draw_vote import DrawVoteDialog
        from ....table.seating import join_names

        c = self.controller
        if c.game.is_over:
            return None
        survivors = c.state.surviving_powers()  # eliminated powers are neither asked nor counted
        in_play = self.flow.powers_in_play()
        marked = c.marked_disorder()
        # one vote per player: a player with several surviving powers votes once for all of them
        voters: list[str] = []
        seats: dict[str, list[str]] = {}
        for p in survivors:
            if p not in in_play or p in marked:
                continue
            key = c.player_name(p) or f"\0{p}"
            if key not in seats:
                voters.append(p)
            seats.setdefault(key, []).append(p)
        self.flow.step_away()  # the writer's orders are covered before the laptop goes round
        names: dict[str, str] = {}
        for p in voters:
            seat = seats[c.player_name(p) or f"\0{p}"]
            player = c.player_name(p)
            powers = join_names([c.power_name(q) for q in seat])
            names[p] = f"{player} \u2014 {powers}" if player and len(seat) > 1 else (
                powers + (f" ({player})" if player else ""))
        hashes = text_entries(c.table.pins)
        pins = {p: h for p, h in hashes.items() if p in voters}
        for p in voters:  # a player's PIN (any of their powers' PINs)
            seat = seats[c.player_name(p) or f"\0{p}"]
            if p not in pins:
                found = next((hashes[q] for q in seat if q in hashes), None)
                if found is not None:
                    pins[p] = found
        computer = computer_votes(c.table, c.state, "draw")  # the computer seats vote by their rule
        dialog = DrawVoteDialog(voters, self.window, names=names, pins=pins, guard=c.service.pin_door(LAPTOP, HOST),
                                computer={p: v for p, v in computer.items() if p in voters})
        # issue 31: a wrong PIN counted at a voter's page is on disk at once (a kill does not forget
        # it): the table service counts it and writes it (its write hook, the autosave)

        def finished(_result: int) -> None:
            if dialog.accepted_draw:
                shared = ", ".join(c.power_name(p) for p in survivors)
                if self.flow.ask_host("End the game in a draw",
                                      f"Every surviving player accepted. End the game now, as a draw shared by "
                                      f"{shared}?"):
                    self.declare_draw(survivors)

        open_kept(self, "draw_dialog", dialog, finished)
        return dialog

    def declare_draw(self, powers: list[str]) -> None:
        self.controller.declare_draw(powers)

    def show_game_over(self, end: GameEnd) -> GameOverDialog:
        from ..dialogs.game_over import GameOverDialog

        c = self.controller
        names = {p: n for p in c.board.power_ids if (n := c.player_name(p))}
        self.clock.model.pause()
        self.clock.refresh()
        if self.game_over_dialog is not None:
            self.game_over_dialog.close()
        dialog = GameOverDialog(end, c.state, self.window, names=names)

        def finished(result: int) -> None:
            if result == GameOverDialog.NEW_GAME:
                self.new_game()

        open_kept(self, "game_over_dialog", dialog, finished)
        return dialog
