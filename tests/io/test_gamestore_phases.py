"""Issue 21 build 3: opening a game from its live store replays nothing: each phase's position
and orders are read as stored, and a phase's results are adjudicated only when asked for (the
same results as when it was played: the adjudicator is deterministic)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from diplomacy_desktop.engine.game import HistoryEntry
from diplomacy_desktop.io import gamestore, savefile
from diplomacy_desktop.io.gamestore import GameStore, StoredPhase
from diplomacy_desktop.io.savefile import game_to_dict

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from long_game import long_game


def test_gamestore_opening_adjudicates_no_phase(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = long_game(40)
    store = GameStore(tmp_path / "g.sqlite")
    store.write_all(game, {"players": {"france": "Anna"}}, None)
    calls: list[str] = []
    real = gamestore.adjudicate_phase

    def counting(state, *a, **k):  # type: ignore[no-untyped-def]
        calls.append(state.phase.short)
        return real(state, *a, **k)

    monkeypatch.setattr(gamestore, "adjudicate_phase", counting)
    monkeypatch.setattr(savefile, "adjudicate_phase", counting)
    loaded, table = store.load()
    assert calls == [] and len(loaded.history) == 40 and all(isinstance(h, StoredPhase) for h in loaded.history)
    assert loaded.history[7].orders == game.history[7].orders and calls == []  # orders: read, not adjudicated
    assert game_to_dict(loaded, table) == game_to_dict(game, table)  # (writing it back needs no results)
    assert calls == []
    last = loaded.history[-1]
    assert last.results == game.history[-1].results and calls == [last.state.phase.short]  # asked: adjudicated once
    assert last.results == game.history[-1].results and len(calls) == 1
    for mine, theirs in zip(loaded.history, game.history, strict=True):
        assert mine == theirs and theirs == mine
        assert (mine.after, mine.next_state, mine.interned) == (theirs.after, theirs.next_state, theirs.interned)
    assert hash(loaded.history[3]) == hash(game.history[3])
    assert isinstance(loaded.history[3], HistoryEntry)
    store.close()


def test_gamestore_a_stored_game_plays_on(tmp_path: Path) -> None:
    game = long_game(12)
    store = GameStore(tmp_path / "g.sqlite")
    store.write_all(game, {}, None)
    loaded, _ = store.load()
    game.adjudicate()
    loaded.adjudicate()
    assert loaded.state == game.state and loaded.history[-1].results == game.history[-1].results
    assert loaded.undo_adjudication() is not None and loaded.state == game.history[-1].state
    store.close()
