"""Order notation: every form of the rules text, names and aliases, ambiguity, round trips."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_positions import BOARD, HOME, position

from diplomacy_desktop.engine.board import IMPASSABLE
from diplomacy_desktop.engine.errors import AmbiguousOrderError, IllegalOrderError, UnreadableOrderError
from diplomacy_desktop.engine.options import all_options
from diplomacy_desktop.engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from diplomacy_desktop.engine.results import Outcome
from diplomacy_desktop.engine.state import (
    ADJUSTMENT,
    FALL,
    MOVEMENT,
    RETREAT,
    SPRING,
    DislodgedUnit,
    GameState,
    Phase,
    Unit,
)
from diplomacy_desktop.engine.turns import adjudicate_phase
from diplomacy_desktop.engine.validation import check_order
from diplomacy_desktop.io.notation import format_order, parse_order

# A position with a bit of everything the rules' examples name.
RICH = position(
    "germany A bur", "germany A tyr", "england F nth", "england A lon", "england F nwg", "russia A sil",
    "russia A war", "austria A ser", "france F mao", "france F lyo", "france F eng", "england F nao",
    "italy F tys", "turkey F bla", "france F naf", "russia F bot",
)


# -- the forms of the rules ------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "power", "expected"), [
    ("A Bur S A Tyr-Mun", "germany", SupportMove("germany", "A", "bur", "A", "tyr", "mun")),
    ("F Nth C A Lon-Bel", "england", Convoy("england", "F", "nth", "A", "lon", "bel")),
    ("A Sil S RUSSIAN A War-Pru", "russia", SupportMove("russia", "A", "sil", "A", "war", "pru")),
    ("F Nth C ENGLISH A Lon-Bel", "england", Convoy("england", "F", "nth", "A", "lon", "bel")),
    ("A Ser H", "austria", Hold("austria", "A", "ser")),
    ("F Mid - Spa(nc)", "france", Move("france", "F", "mao", "spa/nc")),
    ("A Bur S A Tyr", "germany", SupportHold("germany", "A", "bur", "A", "tyr")),
    ("A Lon-Bel", "england", Move("england", "A", "lon", "bel")),
])
def test_notation_reads_the_forms_of_the_rules(text: str, power: str, expected: object) -> None:
    assert parse_order(text, power, RICH) == expected


def test_notation_reads_a_support_of_a_foreign_unit_whose_power_is_named() -> None:
    # the rules' own example: a German army in Silesia supporting the Russian army in Warsaw
    state = position("germany A sil", "russia A war")
    assert parse_order("A Sil S RUSSIAN A War-Pru", "germany", state, strict=True) == SupportMove(
        "germany", "A", "sil", "A", "war", "pru")


@pytest.mark.parametrize("text", [
    "A Bur S A Tyr-Mun", "a bur s a tyr-mun", "A BUR S A TYR - MUN", "A Bur supports A Tyr - Mun",
    "A Bur SUPPORTS A Tyr -> Mun", "A Bur S A Tyr to Mun", "A Burgundy supports A Tyrolia to Munich",
    "Army Burgundy Supports Army Tyrolia -> Munich", "A Bur S A Tyr moves to Mun", "bur s tyr - mun",
])
def test_notation_reads_supports_in_any_case_and_any_spelling(text: str) -> None:
    order = parse_order(text, "germany", RICH, strict=True)
    # as the engine understands it (unit letters filled in where the text left them out)
    assert check_order(RICH, order) == SupportMove("germany", "A", "bur", "A", "tyr", "mun")


@pytest.mark.parametrize("text", [
    "F Nth C A Lon-Bel", "F nth convoys A lon to bel", "F North Sea convoys A London -> Belgium",
    "f NTH c a LON - BEL", "F Nth Convoys English A Lon - Bel",
])
def test_notation_reads_convoys(text: str) -> None:
    assert parse_order(text, "england", RICH, strict=True) == Convoy("england", "F", "nth", "A", "lon", "bel")


@pytest.mark.parametrize("text", ["A Ser H", "A Ser holds", "A Ser HOLD", "a ser h", "A Serbia holds", "A Ser"])
def test_notation_reads_holds(text: str) -> None:
    assert parse_order(text, "austria", RICH, strict=True) == Hold("austria", "A", "ser")


@pytest.mark.parametrize("text", ["A Lon-Bel", "A Lon - Bel", "A Lon->Bel", "A Lon -> Bel", "A Lon to Bel",
                                  "A London - Belgium", "a lon moves to bel", "A LON-BEL"])
def test_notation_reads_moves_with_any_move_sign(text: str) -> None:
    assert parse_order(text, "england", RICH, strict=True) == Move("england", "A", "lon", "bel")


@pytest.mark.parametrize("text", ["A Lon-Bel via convoy", "A Lon - Bel by convoy", "A lon to bel VIA CONVOY"])
def test_notation_reads_via_convoy(text: str) -> None:
    order = parse_order(text, "england", RICH, strict=True)
    assert order == Move("england", "A", "lon", "bel", via_convoy=True)
    assert format_order(order) == "A Lon - Bel via convoy"


@pytest.mark.parametrize(("text", "expected"), [
    ("F Mid - Spa(nc)", "spa/nc"), ("F Mid-Spa (nc)", "spa/nc"), ("F mao - spa/nc", "spa/nc"),
    ("F Mid - Spa/sc", "spa/sc"), ("F Mid-Atlantic Ocean - Spain (north coast)", "spa/nc"),
    ("F Mid-Atlantic - Spain south coast", "spa/sc"), ("F MAO - SPA NC", "spa/nc"),
])
def test_notation_reads_coasts(text: str, expected: str) -> None:
    assert parse_order(text, "france", RICH, strict=True) == Move("france", "F", "mao", expected)


@pytest.mark.parametrize(("alias", "province", "power"), [
    ("mid", "mao", "france"), ("nat", "nao", "england"), ("NAt", "nao", "england"), ("nrg", "nwg", "england"),
    ("gol", "lyo", "france"), ("ech", "eng", "france"), ("gob", "bot", "russia"), ("tyn", "tys", "italy"),
    ("Mid-Atlantic Ocean", "mao", "france"), ("Gulf of Lyon", "lyo", "france"), ("English Channel", "eng", "france"),
    ("Gulf of Bothnia", "bot", "russia"), ("Tyrrhenian Sea", "tys", "italy"), ("Norwegian Sea", "nwg", "england"),
    ("North Atlantic Ocean", "nao", "england"), ("North Sea", "nth", "england"), ("Black Sea", "bla", "turkey"),
])
def test_notation_reads_aliases_and_full_names(alias: str, province: str, power: str) -> None:
    assert parse_order(f"F {alias} H", power, RICH, strict=True) == Hold(power, "F", province)


def test_notation_reads_north_africa_abbreviation() -> None:
    assert parse_order("F NAf H", "france", RICH, strict=True) == Hold("france", "F", "naf")
    assert parse_order("F Mid - NAf", "france", RICH, strict=True) == Move("france", "F", "mao", "naf")
    assert parse_order("F Mid - North Africa", "france", RICH, strict=True) == Move("france", "F", "mao", "naf")


# -- adjustment and retreat forms ---------------------------------------------------------------------


ADJ = position("france A pic", "france A bur", "france A par", "france A mar", "russia A mos",
               phase=Phase(1901, FALL, ADJUSTMENT), owners={**HOME, "pic": "england"})


@pytest.mark.parametrize(("text", "expected"), [
    ("Build F StP/nc", Build("russia", "F", "stp/nc")),
    ("build f stp(nc)", Build("russia", "F", "stp/nc")),
    ("BUILD F St Petersburg north coast", Build("russia", "F", "stp/nc")),
    ("Build F StP/sc", Build("russia", "F", "stp/sc")),
    ("Build A StP", Build("russia", "A", "stp")),
    ("Build A War", Build("russia", "A", "war")),
    ("waive", Waive("russia")),
    ("WAIVE", Waive("russia")),
])
def test_notation_reads_builds_and_waives(text: str, expected: object) -> None:
    assert ADJ.adjustment_delta("russia") > 0
    assert parse_order(text, "russia", ADJ, strict=True) == expected


@pytest.mark.parametrize("text", ["Remove A Pic", "remove a picardy", "REMOVE A PIC", "A Pic disband"])
def test_notation_reads_removals(text: str) -> None:
    assert ADJ.adjustment_delta("france") < 0
    assert parse_order(text, "france", ADJ, strict=True) == Remove("france", "A", "pic")


def test_notation_build_fleet_in_stp_without_coast_is_ambiguous() -> None:
    with pytest.raises(AmbiguousOrderError) as err:
        parse_order("Build F StP", "russia", ADJ, strict=True)
    assert set(err.value.candidates) == {"stp/nc", "stp/sc"}
    with pytest.raises(AmbiguousOrderError):
        parse_order("Build Sev", "russia", ADJ, strict=True)  # army or fleet?


RET = position("russia A bul", phase=Phase(1901, SPRING, RETREAT),
               dislodged=(DislodgedUnit(Unit("turkey", "A", "bul"), "rum"),), contested=("ser",))


@pytest.mark.parametrize(("text", "expected"), [
    ("A Bul - Con", Retreat("turkey", "A", "bul", "con")),
    ("A bul r gre", Retreat("turkey", "A", "bul", "gre")),
    ("A Bul retreats to Greece", Retreat("turkey", "A", "bul", "gre")),
    ("A Bul disband", Disband("turkey", "A", "bul")),
    ("A bul d", Disband("turkey", "A", "bul")),
])
def test_notation_reads_retreats_and_disbands(text: str, expected: object) -> None:
    assert parse_order(text, "turkey", RET, strict=True) == expected


def test_notation_strict_refuses_a_retreat_to_the_attackers_origin_or_a_standoff() -> None:
    with pytest.raises(IllegalOrderError, match="attacker"):
        parse_order("A Bul - Rum", "turkey", RET, strict=True)
    with pytest.raises(IllegalOrderError, match="standoff"):
        parse_order("A Bul - Ser", "turkey", RET, strict=True)


# -- ambiguity ---------------------------------------------------------------------------------------


def test_notation_refuses_nor_when_two_readings_are_legal() -> None:
    state = position("england F nth", "england F nwg")
    with pytest.raises(AmbiguousOrderError) as err:
        parse_order("F Nth - Nor", "england", state)
    assert set(err.value.candidates) == {"F Nth - Nwg", "F Nth - Nwy"}
    with pytest.raises(AmbiguousOrderError) as err:
        parse_order("F Nor - Nwy", "england", state)
    assert set(err.value.candidates) == {"F Nth - Nwy", "F Nwg - Nwy"}


def test_notation_accepts_nor_when_only_one_reading_is_legal() -> None:
    state = position("england F nth", "england A lon")
    # an army can reach only Norway (by convoy through the North Sea)
    assert parse_order("A Lon - Nor", "england", state, strict=True) == Move("england", "A", "lon", "nwy")
    # the only unit whose space starts with "Nor" is the fleet in the North Sea
    assert parse_order("F Nor H", "england", state, strict=True) == Hold("england", "F", "nth")


def test_notation_without_a_position_refuses_nor_and_lists_every_space() -> None:
    with pytest.raises(AmbiguousOrderError) as err:
        parse_order("F Nor H", "england", board=BOARD)
    assert {"F Nth H", "F Nwg H", "F Nwy H", "F Nao H", "F Naf H"} <= set(err.value.candidates)
    assert parse_order("A Bur - Mun", "france", board=BOARD) == Move("france", "A", "bur", "mun")


@pytest.mark.parametrize("fleet", ["mao", "por"])
def test_notation_fleet_to_spain_without_coast_is_ambiguous_in_strict_mode(fleet: str) -> None:
    state = position(f"france F {fleet}")
    with pytest.raises(AmbiguousOrderError) as err:
        parse_order(f"F {fleet} - Spa", "france", state, strict=True)
    assert set(err.value.candidates) == {"spa/nc", "spa/sc"}
    # lenient mode keeps the order, and the adjudicator does not move the fleet (rules VII.3.B)
    order = parse_order(f"F {fleet} - Spa", "france", state)
    out = adjudicate_phase(state, [order])
    result = next(r for r in out.results if r.order == order)
    assert result.outcome is Outcome.ILLEGAL
    assert "coast" in result.reason
    assert out.after.units[fleet] == Unit("france", "F", fleet)


@pytest.mark.parametrize(("fleet", "coast"), [("gas", "spa/nc"), ("wes", "spa/sc"), ("lyo", "spa/sc")])
def test_notation_fleet_to_spain_with_one_reachable_coast_needs_no_coast(fleet: str, coast: str) -> None:
    state = position(f"france F {fleet}")
    order = parse_order(f"F {fleet} - Spa", "france", state, strict=True)
    out = adjudicate_phase(state, [order])
    assert out.after.units["spa"] == Unit("france", "F", coast)


# -- errors --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "   ", "A Bur X Mun", "Foo - Bar", "A Bur -", "A Ser H now",
                                  "A Lon - Bel via", "F Nth C A Lon", "A Bur S"])
def test_notation_refuses_unreadable_text(text: str) -> None:
    with pytest.raises(UnreadableOrderError) as err:
        parse_order(text, "germany", RICH)
    assert str(err.value)


def test_notation_error_kinds_are_value_errors() -> None:
    for exc in (UnreadableOrderError("x"), IllegalOrderError("x"), AmbiguousOrderError("x", ("a", "b"))):
        assert isinstance(exc, ValueError)


def test_notation_keeps_an_illegal_order_unless_strict() -> None:
    order = parse_order("A Bur - Lon", "germany", RICH)
    assert order == Move("germany", "A", "bur", "lon")
    with pytest.raises(IllegalOrderError, match="London"):
        parse_order("A Bur - Lon", "germany", RICH, strict=True)
    out = adjudicate_phase(RICH, [order])
    result = next(r for r in out.results if r.order == order)
    assert result.outcome is Outcome.ILLEGAL and "London" in result.reason
    assert out.after.units["bur"] == Unit("germany", "A", "bur")


def test_notation_a_badly_written_order_with_one_meaning_is_followed() -> None:
    # no unit letters, lower case, full name for one space and an abbreviation for the other
    assert parse_order("burgundy - mun", "germany", RICH, strict=True) == Move("germany", None, "bur", "mun")
    assert parse_order("ser holds", "austria", RICH, strict=True) == Hold("austria", None, "ser")


# -- writing and round trips ---------------------------------------------------------------------------


@pytest.mark.parametrize(("order", "text"), [
    (SupportMove("germany", "A", "bur", "A", "tyr", "mun"), "A Bur S A Tyr - Mun"),
    (Convoy("england", "F", "nth", "A", "lon", "bel"), "F Nth C A Lon - Bel"),
    (Hold("austria", "A", "ser"), "A Ser H"),
    (Move("france", "F", "mao", "spa/nc"), "F Mao - Spa/nc"),
    (Build("russia", "F", "stp/nc"), "Build F StP/nc"),
    (Remove("france", "A", "pic"), "Remove A Pic"),
    (Waive("russia"), "Waive"),
    (Retreat("turkey", "A", "bul", "con"), "A Bul - Con"),
    (Disband("turkey", "A", "bul"), "A Bul disband"),
])
def test_notation_formats_in_rulebook_notation(order: object, text: str) -> None:
    assert format_order(order) == text  # type: ignore[arg-type]


def test_notation_formats_with_the_power_name() -> None:
    assert format_order(Hold("austria", "A", "ser"), BOARD, power_prefix=True) == "Austria: A Ser H"


def _round_trip(state: GameState) -> int:
    n = 0
    for power, per_unit in all_options(state).items():
        for options in per_unit.values():
            for option in options:
                text = format_order(option)
                assert parse_order(text, power, state, strict=True) == option, text
                n += 1
    return n


def test_notation_round_trips_every_legal_option_of_the_start_position() -> None:
    assert _round_trip(GameState.initial(BOARD)) > 200


def test_notation_round_trips_options_with_convoys_retreats_and_adjustments() -> None:
    assert _round_trip(RICH) > 100
    assert _round_trip(RET) == 3
    assert _round_trip(ADJ) >= 4 + 7


PLACES = {p: ([("A", p)] if BOARD.unit_can_stand("A", p) else []) + [("F", loc) for loc in BOARD.fleet_locations(p)]
          for p, s in BOARD.spaces.items() if s.kind != IMPASSABLE}


@settings(max_examples=25, deadline=None)
@given(rnd=st.randoms(use_true_random=False))
def test_notation_round_trips_every_option_of_random_positions(rnd: random.Random) -> None:
    provinces = rnd.sample(sorted(PLACES), rnd.randint(5, 30))
    state = position(*(f"{rnd.choice(BOARD.power_ids)} {' '.join(rnd.choice(PLACES[p]))}" for p in provinces))
    assert _round_trip(state) > 0


# -- the plain-text fast path ----------------------------------------------------------------------


def _variants(text: str) -> list[str]:
    """The text as printed and written other ways, some of them not plain."""
    return [text, text.lower(), text.upper(), text.replace(" - ", "-"), text.replace(" - ", " -> "),
            text + " via convoy", text + " by convoy", text + " via", text + " H", text + " nc",
            text.replace("/", " "), text.replace(" S ", " S RUSSIAN "), text.replace(" C ", " C "),
            text.replace("A ", "Army ", 1), text.replace(" - ", " - (nc) ")]


TRICKY = ["A Ven H", "F Nth", "A Ven - Tyr", "F Spa/nc - Mao", "F Spa nc - Mao", "F stp/sc - bot",
          "F Mid - Spa(nc)", "F Mao - spa/xx", "F Mao - Spa/n", "A Nor - Swe via convoy", "A Con - Smy by convoy",
          "A Bur S Mun - Ruh", "A Bur S A Mun", "A Bur S A Mun H", "A Bur S A Mun holds", "F Nth C A Lon",
          "F Nth C A Lon - Bel H", "A North - Hol", "F Nor - Nor", "A Ven disband", "A Ven d", "A Ven R Tus",
          "A Ven - Tyr - Boh", "A Ven m Tyr", "A Ven to Tyr", "F Eng - Bre via", "F Bul/ec - Bla", "A Ven - Ven",
          "A Mun S A Ber - Kie via convoy", "F Nth C F Lon - Bel", "A Swi - Mun", "A Mos", "Build A Mos", "Waive",
          "A Sev - Arm -", "A Ven S A Tyr - Mun nc", "F Gas - Spa/sc", "A Gal-War", "a ven h", "A  Ven  H"]


@pytest.mark.parametrize("phase_kind", [MOVEMENT, RETREAT, ADJUSTMENT])
def test_notation_plain_reading_agrees_with_the_word_by_word_reading(phase_kind: str) -> None:
    from diplomacy_desktop.io.notation import _plain_shape, _read_shape, place_names

    names = place_names(BOARD)
    texts = list(TRICKY)
    for state in (GameState.initial(BOARD), RICH):
        for orders in all_options(state).values():
            for options in orders.values():
                texts += [v for o in options for v in _variants(format_order(o, BOARD))]
    plain = 0
    for text in texts:
        fast = _plain_shape(names, text, phase_kind)
        if fast is None:
            continue
        plain += 1
        assert fast == _read_shape(names, text, phase_kind), text
    assert plain > len(texts) // 4  # the printed forms are all read the plain way


def test_notation_plain_reading_covers_every_printed_unit_order() -> None:
    from diplomacy_desktop.io.notation import _plain_shape, place_names

    names = place_names(BOARD)
    for orders in all_options(RICH).values():
        for options in orders.values():
            for o in options:
                text = format_order(o, BOARD)
                assert _plain_shape(names, text, MOVEMENT) is not None, text


@pytest.mark.parametrize(("text", "expected"), [
    ("A Galacia - Boh", Move("russia", "A", "gal", "boh")),
    ("F Tri - Adriatc", Move("russia", "F", "tri", "adr")),
    ("A Bohemai H", Hold("russia", "A", "boh")),
])
def test_notation_reads_a_misspelt_name_close_to_one_space(text: str, expected: object) -> None:
    assert parse_order(text, "russia", board=BOARD) == expected


@pytest.mark.parametrize("text", ["A Galxxxx - Boh", "A Ven - Nortx"])
def test_notation_refuses_a_name_close_to_no_space_or_to_several(text: str) -> None:
    with pytest.raises(UnreadableOrderError):
        parse_order(text, "russia", board=BOARD)
