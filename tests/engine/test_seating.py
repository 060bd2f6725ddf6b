"""Powers by priority (rules I) and the groupings for fewer than seven players."""

from __future__ import annotations

import pytest

from diplomacy_desktop.engine.seating import GROUPINGS, assign_by_priority, unplayed
from diplomacy_desktop.io.boardfile import load_board

BOARD = load_board()
SOLO = [(p,) for p in BOARD.power_ids]


def test_seating_first_choices_without_ties_are_granted_without_draws() -> None:
    a = assign_by_priority({"ann": ["france", "italy", "turkey"], "bob": ["italy", "france", "russia"]}, SOLO, 1,
                           BOARD.power_ids)
    assert a.powers_of("ann") == ("france",) and a.powers_of("bob") == ("italy",)
    assert a.draws == () and a.player_of("italy") == "bob" and a.player_of("england") is None
    assert set(a.unplayed) == set(BOARD.power_ids) - {"france", "italy"}


def test_seating_a_tie_is_settled_by_the_seeded_draw_and_recorded() -> None:
    choices = {"ann": ["france", "italy"], "bob": ["france", "russia"], "cat": ["france", "italy", "turkey"]}
    results = {assign_by_priority(choices, SOLO, seed).powers_of("ann") for seed in range(40)}
    assert len(results) > 1  # the draw depends on the seed
    a = assign_by_priority(choices, SOLO, 7)
    assert a == assign_by_priority(choices, SOLO, 7)  # the same seed, the same draw: repeatable
    first = a.draws[0]
    assert first.choice == 1 and first.seat == ("france",) and first.contenders == ("ann", "bob", "cat")
    assert a.powers_of(first.winner) == ("france",) and a.seed == 7
    losers = [p for p in ("ann", "bob", "cat") if p != first.winner]
    # the losers get their second choices when free (ann and cat both want Italy: another draw)
    seconds = {p: choices[p][1] for p in losers}
    if sorted(seconds.values()) == ["italy", "italy"]:
        assert a.draws[1].choice == 2 and a.draws[1].seat == ("italy",)
    else:
        for p in losers:
            assert a.powers_of(p) == (seconds[p],)


def test_seating_players_with_no_free_choice_draw_for_what_is_left() -> None:
    choices = {"ann": ["france"], "bob": ["france"]}
    a = assign_by_priority(choices, GROUPINGS[2], 3, BOARD.power_ids)
    assert {a.powers_of("ann"), a.powers_of("bob")} == set(GROUPINGS[2])
    assert [d.choice for d in a.draws] == [1, 0]
    assert a.unplayed == ("italy",)  # two players: Italy is not played


def test_seating_one_player_holds_several_powers() -> None:
    four = GROUPINGS[4]
    a = assign_by_priority({"ann": ["austria", "england"], "bob": ["france"], "cat": ["england"], "dan": ["russia"]},
                           four, 5, BOARD.power_ids)
    # Bob's "France" names the seat Austria is in too: a tie between Ann and Bob, drawn
    assert a.draws[0].contenders == ("ann", "bob") and a.powers_of(a.draws[0].winner) == ("austria", "france")
    loser = "bob" if a.draws[0].winner == "ann" else "ann"
    assert a.powers_of("cat") == ("england",) and a.powers_of("dan") == ("italy", "russia")
    assert a.powers_of(loser) == ("germany", "turkey")  # England was taken: the seat left, by lot
    assert a.player_of("turkey") == loser and a.unplayed == ()


def test_seating_groupings_are_the_rulebooks() -> None:
    powers = set(BOARD.power_ids)
    assert unplayed(GROUPINGS[7], BOARD.power_ids) == ()
    assert unplayed(GROUPINGS[6], BOARD.power_ids) == ("italy",)
    assert unplayed(GROUPINGS[5], BOARD.power_ids) == ("germany", "italy")
    for n in (4, 3):
        assert {p for seat in GROUPINGS[n] for p in seat} == powers and len(GROUPINGS[n]) == n
    assert unplayed(GROUPINGS[2], BOARD.power_ids) == ("italy",)
    assert ("england",) in GROUPINGS[4] and ("italy", "russia") in GROUPINGS[4]


def test_seating_refuses_bad_choices() -> None:
    with pytest.raises(ValueError, match="not played"):
        assign_by_priority({"ann": ["italy"]}, GROUPINGS[6], 1)
    with pytest.raises(ValueError, match="twice"):
        assign_by_priority({"ann": ["austria", "france"]}, GROUPINGS[4], 1)
    with pytest.raises(ValueError, match="at most 3"):
        assign_by_priority({"ann": ["austria", "france", "italy", "turkey"]}, SOLO, 1)
    with pytest.raises(ValueError, match="players but only"):
        assign_by_priority({"a": [], "b": [], "c": []}, GROUPINGS[2], 1)
