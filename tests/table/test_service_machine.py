"""Random sequences of seat and host operations through the table service (issue 30, point 8),
with the table's invariants checked after every step: one record of who sealed, a reveal only
when everybody owing orders sealed or the host forced it, no unrevealed order in the public view,
and nothing acknowledged lost when the host is killed (the game read back from its file)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.options import all_options
from diplomacy_desktop.host.table import HostError, TableHost
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.notation import format_order
from diplomacy_desktop.io.savefile import load_game
from diplomacy_desktop.table.pins import hash_pin
from diplomacy_desktop.table.service import HOST

BOARD = load_board("standard")
POWERS = BOARD.power_ids


class TableMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="service-machine-"))
        self.path = self.folder / "game.dipl"
        self.host = TableHost(Game.new(BOARD), {}, self.path)
        self.host.service.set_pin_hash(["england"], hash_pin("4826"), initiator=HOST)
        self.reveals: list[tuple[bool, bool]] = []  # (everybody sealed, forced by the host)
        self.host.service.add_listener(self._heard)
        self._ready_before = False
        self._forced = False

    def _heard(self, change: object) -> None:
        if getattr(change, "kind", "") == "phase":
            self.reveals.append((self._ready_before, self._forced))

    def _token(self, power: str) -> str:
        return self.host.token_of(power)

    @rule(power=st.sampled_from(POWERS), pick=st.integers(0, 50))
    def give(self, power: str, pick: int) -> None:
        options = [o for opts in all_options(self.host.game.state).get(power, {}).values() for o in opts]
        if not options:
            return
        order = options[pick % len(options)]
        try:
            self.host.set_order_text(self._token(power), power, self.host.phase, format_order(order))
        except HostError:
            pass

    @rule(power=st.sampled_from(POWERS), right=st.booleans())
    def seal(self, power: str, right: bool) -> None:
        self._ready_before = set(self.host.owing()) - {power} <= set(self.host.sealed)
        self._forced = False
        try:
            self.host.seal(self._token(power), power, self.host.phase, pin="4826" if right else "1111")
        except HostError:
            pass

    @rule(power=st.sampled_from(POWERS))
    def unseal(self, power: str) -> None:
        try:
            self.host.unseal(self._token(power), power, self.host.phase, pin="4826")
        except HostError:
            pass

    @rule(named=st.booleans())
    def reveal(self, named: bool) -> None:
        self._ready_before = self.host.service.ready()
        self._forced = True
        written = self.host.service.anything_written()
        before = self.host.phase
        try:
            self.host.force_adjudicate(before if named else None)
        except HostError:
            pass
        if not named and not written:
            assert self.host.phase == before  # a bare reveal never adjudicates a phase nobody wrote in

    @rule()
    def undo(self) -> None:
        self._forced = True  # the host's own action
        try:
            self.host.undo_adjudication()
        except HostError:
            pass

    @invariant()
    def one_record_of_who_sealed(self) -> None:
        table = self.host.table
        assert self.host.sealed == [p for p in POWERS if p in table["phones"]["sealed"]]
        assert set(self.host.sealed) <= set(self.host.owing())

    @invariant()
    def a_reveal_only_when_all_sealed_or_forced(self) -> None:
        assert all(ready or forced for ready, forced in self.reveals)

    @invariant()
    def no_secret_in_the_public_view(self) -> None:
        view = dict(self.host.public_state())
        view.pop("results", None)  # the last adjudicated phase's orders: revealed
        public = json.dumps(view).lower()
        for power in POWERS:
            for order in self.host.game.orders_of(power):
                assert format_order(order).lower() not in public

    @invariant()
    def nothing_acknowledged_is_lost_after_a_kill(self) -> None:
        game, table = load_game(self.path)  # what a restarted host reads
        assert game.state.phase.short == self.host.phase
        assert len(game.history) == len(self.host.game.history)
        assert {p: sorted(format_order(o) for o in game.orders_of(p)) for p in POWERS} == \
            {p: sorted(format_order(o) for o in self.host.game.orders_of(p)) for p in POWERS}
        assert [p for p in POWERS if p in table["phones"]["sealed"]] == self.host.sealed
        assert table.get("pin_failures", {}) == self.host.table.get("pin_failures", {})


TableMachine.TestCase.settings = settings(max_examples=200, stateful_step_count=5, deadline=None,
                                          suppress_health_check=[HealthCheck.too_slow])
test_service_machine = TableMachine.TestCase
