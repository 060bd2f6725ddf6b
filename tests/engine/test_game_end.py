"""The end of a game: the short game's winner by centres (XIV.4) or pieces (III), and the draw vote."""

from __future__ import annotations

import pytest

from diplomacy_desktop.engine.errors import IllegalOrderError
from diplomacy_desktop.engine.game import BY_PIECES, Game, draw_passes, short_game_leaders
from diplomacy_desktop.engine.state import FALL, MOVEMENT, SPRING, GameState, Phase, Unit
from diplomacy_desktop.io.boardfile import load_board

BOARD = load_board()


def ended_game(measure: str, units: list[tuple[str, str, str]], owners: dict[str, str]) -> Game:
    game = Game.new(BOARD, end_year=1905, short_game_by=measure)
    game.state = GameState.build(BOARD, Phase(1906, SPRING, MOVEMENT), [Unit(*u) for u in units], owners)
    return game


UNITS = [("france", "A", "par"), ("france", "A", "bur"), ("france", "A", "pic"), ("germany", "A", "ber")]
OWNERS = {"par": "france", "bre": "france", "ber": "germany", "kie": "germany", "mun": "germany", "hol": "germany"}


def test_short_game_winner_by_centres_or_by_pieces() -> None:
    by_centres = ended_game("centres", UNITS, OWNERS).ended
    assert by_centres is not None and by_centres.winners == ("germany",) and by_centres.measure == "centres"
    assert dict(by_centres.counts)["germany"] == 4 and "4 centres" in by_centres.text
    by_pieces = ended_game(BY_PIECES, UNITS, OWNERS).ended
    assert by_pieces is not None and by_pieces.winners == ("france",) and "3 pieces" in by_pieces.text
    assert not by_pieces.tied


def test_short_game_ties_are_reported_both_ways() -> None:
    owners = {**OWNERS, "mar": "france", "spa": "france"}
    tie = ended_game("centres", UNITS, owners).ended
    assert tie is not None and tie.tied and tie.winners == ("france", "germany") and "(tied)" in tie.text
    leaders, counts = short_game_leaders(ended_game("pieces", UNITS, owners).state, "pieces")
    assert leaders == ("france",) and counts["germany"] == 1
    with pytest.raises(ValueError):
        short_game_leaders(ended_game("pieces", UNITS, owners).state, "votes")


def test_short_game_not_over_before_the_end_year() -> None:
    game = Game.new(BOARD, end_year=1905, short_game_by=BY_PIECES)
    assert game.ended is None
    game.state = game.state.evolve(phase=Phase(1905, FALL, MOVEMENT))
    assert game.ended is None


def test_draw_vote_counts_only_surviving_powers() -> None:
    game = ended_game("centres", UNITS, OWNERS)
    game.end_year = None
    survivors = ("france", "germany")
    assert draw_passes(game.state, {"france": True, "germany": True}) == (True, survivors)
    # an eliminated power's vote does not count either way
    assert draw_passes(game.state, {"france": True, "germany": True, "italy": False})[0]
    assert not draw_passes(game.state, {"france": True, "italy": True})[0]  # Germany has not agreed
    assert not game.vote_draw({"france": True, "germany": False}) and game.draw is None
    assert game.vote_draw({"france": True, "germany": True, "austria": False})
    assert game.draw == survivors and game.ended is not None and game.ended.kind == "draw"
    with pytest.raises(IllegalOrderError, match="no pieces"):
        game.declare_draw(["france", "italy"])
