"""Scoring systems: each reproduces the worked examples of its published definition."""

from __future__ import annotations

import pytest

from diplomacy_desktop.table.scoring import (
    BY_KEY,
    CONCESSION,
    DRAW,
    ONGOING,
    SOLO,
    BoardOutcome,
    score_all,
)

POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")


def board(counts: dict[str, int], kind: str = ONGOING, *, eliminated: dict[str, int] | None = None,
          winner: str | None = None, draw: tuple[str, ...] = ()) -> BoardOutcome:
    return BoardOutcome(POWERS, counts, kind, winner, draw, eliminated or {})


def scores(key: str, outcome: BoardOutcome) -> dict[str, float]:
    return dict(BY_KEY[key].score(outcome).scores)


# -- Carnage: the three examples of the Carnage rules as posted on webDiplomacy (thread 1325258) --------


def test_scoring_carnage_example_1_solo_takes_all_28034() -> None:
    out = board({"russia": 18, "turkey": 3, "france": 6, "germany": 4, "england": 3},
                eliminated={"austria": 1904, "italy": 1905})
    got = scores("carnage", out)
    assert got["russia"] == 28034
    assert all(got[p] == 0 for p in POWERS if p != "russia")


def test_scoring_carnage_example_2_ranks_then_elimination_order() -> None:
    out = board({"russia": 14, "turkey": 7, "france": 6, "germany": 4, "england": 3}, DRAW,
                eliminated={"austria": 1904, "italy": 1906})
    got = scores("carnage", out)
    assert got == {"russia": 7014, "turkey": 6007, "france": 5006, "germany": 4004, "england": 3003,
                   "italy": 2000, "austria": 1000}


def test_scoring_carnage_example_3_shared_top_splits_the_places() -> None:
    out = board({"england": 8, "russia": 8, "france": 7, "turkey": 6, "italy": 4, "austria": 1}, DRAW,
                eliminated={"germany": 1905})
    got = scores("carnage", out)
    assert got == {"england": 6508, "russia": 6508, "france": 5007, "turkey": 4006, "italy": 3004,
                   "austria": 2001, "germany": 1000}


def test_scoring_carnage_powers_eliminated_in_the_same_year_share_places() -> None:
    out = board({"england": 5, "germany": 17, "russia": 5, "turkey": 7},
                eliminated={"austria": 1904, "france": 1906, "italy": 1906})
    got = scores("carnage", out)
    assert got["germany"] == 7017 and got["turkey"] == 6007 and got["england"] == got["russia"] == 4505
    assert got["france"] == got["italy"] == 2500 and got["austria"] == 1000


# -- C-Diplo 100: the two examples of the World Diplomacy Database ----------------------------------------


def test_scoring_cdiplo_wdd_example_1() -> None:
    out = board({"austria": 4, "england": 0, "france": 9, "germany": 7, "italy": 7, "russia": 3, "turkey": 4})
    got = scores("c_diplo", out)
    assert got == {"austria": 5, "england": 1, "france": 48, "germany": 18.5, "italy": 18.5, "russia": 4,
                   "turkey": 5}
    assert sum(got.values()) == 100


def test_scoring_cdiplo_wdd_example_2() -> None:
    out = board({"austria": 5, "england": 9, "france": 4, "germany": 5, "italy": 3, "russia": 1, "turkey": 7})
    got = scores("c_diplo", out)
    assert got == {"austria": 9.5, "england": 48, "france": 5, "germany": 9.5, "italy": 4, "russia": 2,
                   "turkey": 22}
    assert sum(got.values()) == 100


def test_scoring_cdiplo_solo_scores_100() -> None:
    out = board({"germany": 18, "russia": 5, "turkey": 7, "england": 4}, SOLO, winner="germany")
    assert scores("c_diplo", out) == {p: (100 if p == "germany" else 0) for p in POWERS}


# -- Sum of Squares: DAANZ's definition ("5 centres = 25 points, 15 centres = 225 points") ---------------


def test_scoring_sum_of_squares_daanz_squares_standardised_to_100() -> None:
    out = board({"austria": 15, "england": 5, "france": 5, "germany": 5, "italy": 4},
                eliminated={"russia": 1905, "turkey": 1906})
    got = scores("sum_of_squares", out)
    total = 225 + 25 + 25 + 25 + 16
    assert got["austria"] == pytest.approx(100 * 225 / total)
    assert got["england"] == pytest.approx(100 * 25 / total)
    assert got["russia"] == 0
    assert sum(got.values()) == pytest.approx(100)
    assert "15² = 225 of 316" in BY_KEY["sum_of_squares"].score(out).working["austria"]


def test_scoring_sum_of_squares_solo_takes_100_even_by_the_victory_count() -> None:
    out = board({"france": 18, "england": 10, "germany": 6})
    got = scores("sum_of_squares", out)
    assert got["france"] == 100 and sum(got.values()) == 100


# -- Draw size --------------------------------------------------------------------------------------------


def test_scoring_draw_size_shares_100_among_the_draw() -> None:
    out = board({"england": 10, "france": 10, "germany": 9, "russia": 5}, DRAW,
                draw=("england", "france", "germany"), eliminated={"austria": 1903, "italy": 1904, "turkey": 1905})
    got = scores("draw_size", out)
    assert got["england"] == got["france"] == got["germany"] == pytest.approx(100 / 3)
    assert got["russia"] == 0 and got["austria"] == 0


def test_scoring_draw_size_if_the_game_ended_now_all_survivors_share() -> None:
    out = board({p: 4 for p in POWERS[:4]}, eliminated={"italy": 1903, "russia": 1904, "turkey": 1905})
    got = scores("draw_size", out)
    assert got == {p: (25.0 if p in POWERS[:4] else 0.0) for p in POWERS}


# -- OpenTribute: windycityweasels.org's definition and its simplified forms --------------------------------


def test_scoring_opentribute_simplified_forms_once_all_neutrals_are_claimed() -> None:
    # "Lone board-toppers: 10 x centers; non-topping survivors: 34 + 4 x centers - toppercenters;
    # eliminated players: 0"
    out = board({"england": 5, "france": 3, "germany": 13, "italy": 3, "russia": 4, "turkey": 6},
                eliminated={"austria": 1904})
    got = scores("open_tribute", out)
    assert got["germany"] == 10 * 13
    for p in ("england", "france", "italy", "russia", "turkey"):
        assert got[p] == 34 + 4 * out.count(p) - 13
    assert got["austria"] == 0


def test_scoring_opentribute_shared_top_each_receives_one_over_n_squared() -> None:
    out = board({"england": 5, "france": 4, "germany": 8, "italy": 4, "russia": 5, "turkey": 8},
                eliminated={"austria": 1904})
    got = scores("open_tribute", out)
    tribute = 8 + 3 + 4 + 0 + 4 + 3 + 0
    assert got["germany"] == got["turkey"] == 34 + 3 * 8 + tribute / 4
    assert got["france"] == 34 + 3 * 4 - 4


def test_scoring_opentribute_solo_340() -> None:
    out = board({"germany": 18, "russia": 5, "turkey": 7, "england": 4}, SOLO, winner="germany")
    assert scores("open_tribute", out)["germany"] == 340


# -- the outcome ---------------------------------------------------------------------------------------------


def test_scoring_a_concession_is_scored_as_the_winners_solo() -> None:
    out = board({"france": 14, "england": 10, "germany": 10}, CONCESSION, winner="france")
    for key, win in (("sum_of_squares", 100), ("draw_size", 100), ("c_diplo", 100), ("open_tribute", 340),
                     ("carnage", 28034)):
        assert scores(key, out)["france"] == win, key


def test_scoring_all_systems_every_power_scored() -> None:
    out = board({p: 4 for p in POWERS})
    every = score_all(out)
    assert set(every) == {"sum_of_squares", "draw_size", "carnage", "c_diplo", "open_tribute"}
    for s in every.values():
        assert set(s.scores) == set(POWERS) and set(s.working) == set(POWERS)


def test_scoring_outcome_rejects_a_solo_without_a_winner() -> None:
    with pytest.raises(ValueError, match="needs the power"):
        board({"france": 18}, SOLO)
    with pytest.raises(ValueError, match="not 'won'"):
        board({}, "won")
