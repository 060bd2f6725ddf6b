"""Issue 17 (finding 9): a forfeited build is said in the results and has no "+1" in the centre table."""

from __future__ import annotations

from window_harness import Table

from diplomacy_desktop.engine.forfeits import buildable, unused_builds
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.state import Phase


def _winter_italy_blocked(t: Table) -> None:
    c = t.controller
    game = Game.new(c.board)
    owners = dict(game.state.owners)
    owners["tun"] = "italy"  # four centres, three units, every home centre occupied
    game.state = game.state.evolve(phase=Phase(1901, "fall", "adjustment"), owners=owners)
    c.replace_game(game)


def test_forfeited_build_has_no_plus_one_and_is_said_in_the_results(table: Table) -> None:
    t = table
    _winter_italy_blocked(t)
    state = t.controller.state
    assert state.adjustment_delta("italy") == 1 and buildable(state, "italy") == 0
    dock = t.window.centres_dock
    dock.flush()
    row = next(r for r in range(dock.table.rowCount()) if dock.table.item(r, 0).text() == "Italy")
    cell = dock.table.item(row, 3)
    assert cell.text() == ""  # not "+1": it cannot be built
    assert "forfeited" in cell.toolTip() and "XIII.2" in cell.toolTip()
    t.adjudicate()
    t.window.results_dock.flush()
    lines = " ".join(t.window.results_dock.result_texts())
    assert "Italy: 1 build forfeited: no free home centre of its own to build in (rules XIII.2)." in lines


def test_unused_builds_tells_forfeited_from_waived() -> None:
    from diplomacy_desktop.io.boardfile import load_board

    game = Game.new(load_board("standard"))
    owners = dict(game.state.owners)
    owners["tun"] = "italy"
    owners["bel"] = "france"
    units = {p: u for p, u in game.state.units.items() if p != "par"}  # France: two builds, one site free
    winter = game.state.evolve(phase=Phase(1901, "fall", "adjustment"), owners=owners, units=units)
    found = {u.power: u for u in unused_builds(winter, [])}
    assert (found["italy"].forfeited, found["italy"].waived) == (1, 0)
    assert (found["france"].forfeited, found["france"].waived) == (1, 1)
