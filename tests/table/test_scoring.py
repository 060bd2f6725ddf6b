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
          winner: str | None = None, draw: tuple[str, ...] = (), end_year: int = 0,
          conceded_as: str = "solo") -> BoardOutcome:
    return BoardOutcome(POWERS, counts, kind, winner, draw, eliminated or {}, conceded_as=conceded_as,
                        end_year=end_year)


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
    assert set(every) == {"sum_of_squares", "draw_size", "carnage", "c_diplo", "open_tribute", "bangkok", "manorcon",
                          "tribute", "half_tribute", "whipping", "sydney_league", "detour", "c_diplo_namur",
                          "c_diplo_73"}
    for s in every.values():
        assert set(s.scores) == set(POWERS) and set(s.working) == set(POWERS)


def test_scoring_outcome_rejects_a_solo_without_a_winner() -> None:
    with pytest.raises(ValueError, match="needs the power"):
        board({"france": 18}, SOLO)
    with pytest.raises(ValueError, match="not 'won'"):
        board({}, "won")


# -- the systems added for issue 35; each test names where its numbers come from ----------------------------


def _bonus(key: str, out: BoardOutcome, power: str, survival: float) -> float:
    """Bangkok's domination bonus: the score less the centres and the survival points."""
    return scores(key, out)[power] - out.count(power) - survival


def test_scoring_bangkok_published_domination_bonus_examples() -> None:
    """World Diplomacy Wiki, Bangkok 2020: "Worked Examples of DB Calculation" (three boards) and
    "players eliminated in 1905 receive 5yrs x 0.3 pts/yrs = 1.5 pts"."""
    out = board({"france": 12, "germany": 6, "italy": 6, "russia": 5, "turkey": 5},
                eliminated={"austria": 1905, "england": 1905})
    assert _bonus("bangkok", out, "france", 3) == pytest.approx(12)
    assert _bonus("bangkok", out, "germany", 3) == pytest.approx(0)
    assert scores("bangkok", out)["austria"] == pytest.approx(1.5)
    out = board({"france": 12, "germany": 11, "italy": 10, "russia": 1},
                eliminated={"austria": 1905, "england": 1906, "turkey": 1907})
    assert [_bonus("bangkok", out, p, 3) for p in ("france", "germany", "italy", "russia")] == pytest.approx(
        [6, 4, 2, 0])
    out = board({"france": 12, "germany": 12, "italy": 11}, eliminated={p: 1908 for p in
                                                                         ("austria", "england", "russia", "turkey")})
    assert [_bonus("bangkok", out, p, 3) for p in ("france", "germany", "italy")] == pytest.approx([4.5, 4.5, 3])


def test_scoring_bangkok_solo_41_others_half_a_point_per_centre() -> None:
    """Bangkok 2020: "A solo winner always gets 41 points"; "Other surviving players get 0,5
    points/centre no DB, no SB"."""
    out = board({"russia": 18, "turkey": 6, "france": 6, "germany": 4}, SOLO, winner="russia",
                eliminated={"austria": 1904, "italy": 1905, "england": 1906})
    got = scores("bangkok", out)
    assert got["russia"] == 41 and got["turkey"] == 3 and got["germany"] == 2 and got["austria"] == 0


def test_scoring_manorcon_from_its_text() -> None:
    """ManorCon's page gives the formula, not a worked board: worked here by hand.  P = S² + 4S
    + 16: 156, 112, 76, 61, 61 and 16 for each eliminated power; B = 498; an eliminated player
    0.1 per year played, the year of elimination included."""
    out = board({"france": 10, "germany": 8, "italy": 6, "russia": 5, "turkey": 5},
                eliminated={"austria": 1905, "england": 1906})
    got = scores("manorcon", out)
    assert got["france"] == pytest.approx(100 * 156 / 498) and got["russia"] == pytest.approx(100 * 61 / 498)
    assert got["austria"] == pytest.approx(0.5) and got["england"] == pytest.approx(0.6)
    # a solo: 75; a survivor is scored as eliminated in the solo's year (1901-1908: 8 years)
    out = board({"france": 18, "germany": 8, "italy": 8}, SOLO, winner="france", end_year=1908,
                eliminated={"austria": 1904, "england": 1905, "russia": 1906, "turkey": 1907})
    got = scores("manorcon", out)
    assert got["france"] == 75 and got["germany"] == pytest.approx(0.8) and got["austria"] == pytest.approx(0.4)


@pytest.mark.parametrize("survivors, published", [(7, 9.4), (6, 11), (5, 13.2), (4, 16.5), (3, 22), (2, 33)])
def test_scoring_tribute_draw_size_shares_as_published(survivors: int, published: float) -> None:
    """Tribute (Windy City Weasels; the World Diplomacy Wiki's table): "66 points are divided
    equally between each surviving player: 7-way Draw 9.4 pts ... 2-way Draw 33 pts"."""
    alive = POWERS[:survivors]
    counts = {p: 34 // survivors + (1 if i < 34 % survivors else 0) for i, p in enumerate(alive)}
    out = board(counts, eliminated={p: 1905 for p in POWERS[survivors:]})
    got = scores("tribute", out)
    top = max(counts.values())
    low = min(alive, key=lambda p: counts[p])
    paid = min(66 / survivors, max(0, top - 6)) if counts[low] < top else 0
    assert round(got[low] - counts[low] + paid, 1) == published


def test_scoring_tribute_paid_to_the_topper_capped_by_the_draw_share() -> None:
    """Tribute: each player pays the topper 1 per centre over 6, "Tribute paid cannot exceed the
    draw size score"; tied toppers split it; Half-Tribute pays half."""
    out = board({"france": 17, "germany": 13, "italy": 4}, eliminated={p: 1906 for p in
                                                                          ("austria", "england", "russia", "turkey")})
    got = scores("tribute", out)
    assert got["germany"] == pytest.approx(13 + 22 - 11) and got["italy"] == pytest.approx(4 + 22 - 11)
    assert got["france"] == pytest.approx(17 + 22 + 22) and got["austria"] == 0
    capped = board({"france": 16, "germany": 3, "italy": 3, "russia": 3, "turkey": 3, "austria": 3, "england": 3})
    got = scores("tribute", capped)
    assert got["germany"] == pytest.approx(3)  # 66/7 less the same 66/7 (not 10)
    assert sum(got.values()) == pytest.approx(34 + 66)
    half = scores("half_tribute", out)
    assert half["germany"] == pytest.approx(13 + 22 - 5.5)
    tied = scores("tribute", board({"france": 12, "germany": 12, "italy": 10}, eliminated={
        p: 1906 for p in ("austria", "england", "russia", "turkey")}))
    assert tied["france"] == pytest.approx(12 + 22 + 6 / 2) and tied["italy"] == pytest.approx(10 + 22 - 6)


def test_scoring_whipping_weasel_moot_2007() -> None:
    """WDD, Weasel Moot 2007 (no worked board published; by hand): 10 per centre, 60 / survivors,
    2 per centre to a lone board-topper, 1 per year for an eliminated position; a win 450."""
    out = board({"france": 10, "germany": 8, "italy": 6, "russia": 5, "turkey": 5},
                eliminated={"austria": 1905, "england": 1906})
    got = scores("whipping", out)
    assert got == pytest.approx({"france": 100 + 12 + 20, "germany": 92, "italy": 72, "russia": 62, "turkey": 62,
                                 "austria": 5, "england": 6})
    tied = scores("whipping", board({"france": 10, "germany": 10, "italy": 14}, eliminated={
        p: 1906 for p in ("austria", "england", "russia", "turkey")}))
    assert tied["italy"] == pytest.approx(140 + 20 + 28) and tied["france"] == pytest.approx(120)
    won = scores("whipping", board({"france": 18}, SOLO, winner="france"))
    assert won["france"] == 450 and won["germany"] == 0


def test_scoring_sydney_league_dipvis_examples() -> None:
    """Sydney League: no published text was found; these are the three boards of dipvis's
    ``test_sydney_league.py`` (the only examples we found)."""
    got = scores("sydney_league", board({"austria": 5, "england": 4, "france": 5, "germany": 5, "italy": 4,
                                         "russia": 5, "turkey": 4}))
    assert got["austria"] == pytest.approx(2200 / 4 + 125) and got["england"] == pytest.approx(600 / 3 + 100)
    elim = {"austria": 1904, "france": 1906, "italy": 1906}
    got = scores("sydney_league", board({"england": 5, "germany": 17, "russia": 5, "turkey": 7}, eliminated=elim))
    assert got == pytest.approx({"austria": 104, "england": 450 + 125, "france": 250 + 6, "germany": 700 + 425,
                                 "italy": 256, "russia": 575, "turkey": 600 + 175})
    got = scores("sydney_league", board({"england": 4, "germany": 18, "russia": 5, "turkey": 7}, SOLO,
                                        winner="germany", eliminated=elim))
    assert got["germany"] == pytest.approx((700 + 450) * 1.5) and got["england"] == pytest.approx(500 * 0.5)
    assert got["austria"] == pytest.approx(104 * 0.5)


def test_scoring_detour_published_rules() -> None:
    """Detour (National World Cup 2 rules): 2 per survivor, 1 per centre, 4/3/2/1 with ties taking
    the lowest place's points ("2nd and 3rd tied both get 2 points but a twice tied fourth place
    or a three time tied third place yield no point"), the lone leader's margin, standardised to
    100, then 0.25 per year survived to the eliminated, at most 2 ("an elimination at the end of
    diplomatic year 1902 yields 0.25")."""
    out = board({"france": 10, "germany": 8, "italy": 8, "russia": 4, "turkey": 4},
                eliminated={"austria": 1902, "england": 1911})
    got = scores("detour", out)
    # raw: France 2+10+4+2 = 18; Germany, Italy 2+8+2 = 12; Russia, Turkey 2+4+0 = 6; total 54
    assert got["france"] == pytest.approx(100 * 18 / 54) and got["germany"] == pytest.approx(100 * 12 / 54)
    assert got["russia"] == pytest.approx(100 * 6 / 54)
    assert got["austria"] == pytest.approx(0.25) and got["england"] == pytest.approx(2)
    three = scores("detour", board({"france": 12, "germany": 7, "italy": 5, "russia": 5, "turkey": 5},
                                   eliminated={"austria": 1905, "england": 1906}))
    # raw: 2+12+4+5 = 23; 2+7+3 = 12; three tied for 3rd: 2+5+0 = 7 each; total 56
    assert three["italy"] == pytest.approx(100 * 7 / 56) and three["france"] == pytest.approx(100 * 23 / 56)
    won = scores("detour", board({"france": 18}, SOLO, winner="france"))
    assert won["france"] == 110 and won["germany"] == 0


def test_scoring_c_diplo_namur_and_73() -> None:
    """C-Diplo Namur (National World Cup 1 rules): C-Diplo (the WDD's first example board, 48,
    18.5, 5 ...) plus the survival bonus by centres (1: 4 ... 6 or more: 12); a solo 73 and −15
    for each other player.  C-Diplo 73 (diplomania-gen.fr): C-Diplo with a solo of 73."""
    out = board({"austria": 4, "england": 0, "france": 9, "germany": 7, "italy": 7, "russia": 3, "turkey": 4})
    got = scores("c_diplo_namur", out)
    assert got == pytest.approx({"austria": 5 + 10, "england": 1, "france": 48 + 12, "germany": 18.5 + 12,
                                 "italy": 18.5 + 12, "russia": 4 + 9, "turkey": 5 + 10})
    won = board({"france": 18}, SOLO, winner="france")
    assert scores("c_diplo_namur", won)["france"] == 73 and scores("c_diplo_namur", won)["italy"] == -15
    assert scores("c_diplo_73", won)["france"] == 73 and scores("c_diplo_73", won)["italy"] == 0
    assert scores("c_diplo_73", out) == pytest.approx(scores("c_diplo", out))


def test_scoring_a_concession_as_the_event_scores_it() -> None:
    """A concession: as the winner's solo, as the board stands (a draw of all survivors), or as a
    draw of the winner alone; the event chooses."""
    counts = {"france": 15, "germany": 10, "italy": 9}
    elim = {p: 1906 for p in ("austria", "england", "russia", "turkey")}
    as_solo = board(counts, CONCESSION, winner="france", eliminated=elim)
    assert scores("sum_of_squares", as_solo)["france"] == 100 and as_solo.scored_as_draw == ()
    survivors = board(counts, CONCESSION, winner="france", eliminated=elim, conceded_as="survivors")
    assert scores("draw_size", survivors)["germany"] == pytest.approx(100 / 3)
    assert scores("sum_of_squares", survivors)["france"] == pytest.approx(100 * 225 / (225 + 100 + 81))
    assert survivors.scored_as_draw == ("france", "germany", "italy")
    alone = board(counts, CONCESSION, winner="france", eliminated=elim, conceded_as="winner_draw")
    assert scores("draw_size", alone) == pytest.approx({p: (100 if p == "france" else 0) for p in POWERS})
    assert alone.scored_as_draw == ("france",)
    with pytest.raises(ValueError, match="scored"):
        board(counts, CONCESSION, winner="france", conceded_as="half")
