"""Event rules: clock presets, the end of the game, late orders, secret ballots."""

from __future__ import annotations

import datetime as dt

import pytest

from diplomacy_desktop.engine.state import GameState, Phase, Unit
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.table.event import (
    CONCESSION_PROPOSAL,
    CUSTOM,
    DRAW_PROPOSAL,
    LATE_VOID,
    PRESETS,
    Ballot,
    BallotError,
    EventRules,
    ballot_announcement,
    custom_preset,
    late_orders_verdict,
)

BOARD = load_board()
NAMES = {p.id: p.name for p in BOARD.powers}


def test_event_presets_give_the_clock_its_periods() -> None:
    by = {p.key: p for p in PRESETS}
    assert by["talks15_write5"].clock_settings()["writing_minutes"] == 5
    assert by["talks15_write2_next"].adjudicate_on_next_clock
    assert by["central18"].clock_settings()["spring_minutes"] == 18 and by["central18"].writing_minutes == 0
    s = by["spring17_fall15"]
    assert (s.spring_minutes, s.fall_minutes, s.writing_minutes) == (17, 15, 0)
    assert all(p.retreat_minutes == 5 and p.adjustment_minutes == 5 for p in PRESETS)
    assert "one 18-minute period" in by["central18"].summary()
    assert "adjudication on the next period's clock" in by["talks15_write2_next"].summary()


def test_event_custom_clock_checks_its_lengths() -> None:
    c = custom_preset(10, 8, 3, 2, 2)
    assert c.key == CUSTOM and c.fall_minutes == 8
    with pytest.raises(ValueError, match="0 to 240"):
        custom_preset(-1, 5, 5)
    with pytest.raises(ValueError, match="needs a timed period"):
        custom_preset(0, 0, 0)
    rules = EventRules(preset=CUSTOM, custom={"spring_minutes": 12, "fall_minutes": 10, "writing_minutes": 3})
    assert rules.clock.spring_minutes == 12
    assert EventRules.from_dict(rules.to_dict()) == rules


def test_event_game_end_announced_and_time_limit() -> None:
    rules = EventRules(end_year=1907, end_time="17:30")
    assert rules.end_announcement() == "The game ends after Fall 1907; at 17:30 the game year under way is the last"
    assert rules.time_limit_reached(dt.time(17, 31)) and not rules.time_limit_reached(dt.time(17, 0))
    with pytest.raises(ValueError, match="HH:MM"):
        EventRules(end_time="half past five")


def test_event_time_limit_is_the_first_such_time_after_it_was_set() -> None:
    """Issue 35 (8): "01:00" set at 21:30 is after midnight; as a bare time of day every evening
    hour was already past it."""
    set_at = dt.datetime(2026, 12, 5, 21, 30)
    rules = EventRules(end_time="01:00").with_time_set_at(set_at)
    assert rules.deadline() == dt.datetime(2026, 12, 6, 1, 0)
    assert not rules.time_limit_reached(dt.datetime(2026, 12, 5, 23, 59))
    assert rules.time_limit_reached(dt.datetime(2026, 12, 6, 1, 0))
    # the same limit set again keeps its moment; a changed one is set anew; none has none
    again = EventRules(end_time="01:00").with_time_set_at(dt.datetime(2026, 12, 6, 0, 30), rules)
    assert again.deadline() == rules.deadline()
    later = EventRules(end_time="17:00").with_time_set_at(dt.datetime(2026, 12, 6, 9, 0), rules)
    assert later.deadline() == dt.datetime(2026, 12, 6, 17, 0)
    assert EventRules().with_time_set_at(set_at).deadline() is None
    assert EventRules.from_dict(rules.to_dict()) == rules


def test_event_late_orders_warning_then_void() -> None:
    assert late_orders_verdict(EventRules(), 0) == "on_time"
    assert late_orders_verdict(EventRules(), 500) == "warning"
    void = EventRules(late_orders=LATE_VOID, late_grace_seconds=30)
    assert late_orders_verdict(void, 10) == "warning"
    assert late_orders_verdict(void, 31) == "void"


def _state(year: int = 1905) -> GameState:
    units = [Unit("england", "F", "nth"), Unit("france", "A", "par"), Unit("germany", "A", "mun"),
             Unit("russia", "A", "mos")]
    owners = {"lon": "england", "par": "france", "bre": "france", "mar": "france", "mun": "germany",
              "mos": "russia", "edi": "england"}
    return GameState.build(BOARD, Phase(year, "spring", "movement"), units, owners)


def test_event_ballot_is_secret_and_unanimous() -> None:
    rules = EventRules()
    ballot = Ballot.open(rules, _state(), "france", DRAW_PROPOSAL)
    assert ballot.powers == ("england", "france", "germany", "russia")
    for p in ("england", "france", "germany"):
        ballot.vote(p, True)
    with pytest.raises(BallotError, match="waiting"):
        ballot.count()
    ballot.vote("russia", False)
    record = ballot.count()
    assert not record.passed and record.vetoes is None  # vetoes not revealed by default
    assert "russia" not in repr(record).replace("'russia')", "")  # the record names the draw's powers only
    assert ballot._votes == {}  # forgotten once counted
    assert ballot_announcement(record, NAMES).endswith("proposed by France, failed.")


def test_event_ballot_reveals_the_number_of_vetoes_when_the_event_says() -> None:
    ballot = Ballot.open(EventRules(reveal_vetoes=True), _state(), "england", DRAW_PROPOSAL)
    for p, v in zip(ballot.voters, (True, False, False, True)):
        ballot.vote(p, v)
    record = ballot.count()
    assert record.vetoes == 2 and "(2 against)" in ballot_announcement(record, NAMES)


def test_event_ballot_majority_when_not_unanimous() -> None:
    ballot = Ballot.open(EventRules(unanimous=False), _state(), "england", DRAW_PROPOSAL)
    for p, v in zip(ballot.voters, (True, True, True, False)):
        ballot.vote(p, v)
    assert ballot.count().passed


def test_event_ballot_rules_refuse_what_the_event_does_not_allow() -> None:
    with pytest.raises(BallotError, match="from 1906"):
        Ballot.open(EventRules(earliest_draw_year=1906), _state(1905), "france", DRAW_PROPOSAL)
    with pytest.raises(BallotError, match="every survivor.*Russia left out"):
        Ballot.open(EventRules(), _state(), "france", DRAW_PROPOSAL, ("england", "france", "germany"))
    small = Ballot.open(EventRules(draw_includes_all_survivors=False), _state(), "france", DRAW_PROPOSAL,
                        ("england", "france"))
    assert small.powers == ("england", "france") and len(small.voters) == 4
    with pytest.raises(BallotError, match="no pieces left"):
        Ballot.open(EventRules(), _state(), "italy", DRAW_PROPOSAL)
    with pytest.raises(BallotError, match="does not allow concessions"):
        Ballot.open(EventRules(), _state(), "england", CONCESSION_PROPOSAL, ("france",))
    allowed = EventRules(concession_allowed=True, concession_min_centres=3)
    assert Ballot.open(allowed, _state(), "england", CONCESSION_PROPOSAL, ("france",)).powers == ("france",)
    with pytest.raises(BallotError, match="at least 3 centres"):
        Ballot.open(allowed, _state(), "france", CONCESSION_PROPOSAL, ("england",))
    tied = EventRules(concession_allowed=True)
    with pytest.raises(BallotError, match="only to the largest"):
        Ballot.open(tied, _state(), "france", CONCESSION_PROPOSAL, ("england",))
    ballot = Ballot.open(allowed, _state(), "england", CONCESSION_PROPOSAL, ("france",))
    with pytest.raises(BallotError, match="does not vote"):
        ballot.vote("italy", True)
    ballot.vote("england", True)
    with pytest.raises(BallotError, match="already voted"):
        ballot.vote("england", False)


@pytest.mark.parametrize("name, value", [
    ("end_time", {}), ("end_time", []), ("end_time", 0), ("end_time_set_at", 5), ("preset", 1), ("end_year", "1905"),
    ("end_year", True), ("late_grace_seconds", 60.5), ("late_grace_seconds", False), ("unanimous", 1),
    ("reveal_vetoes", "no"), ("scoring", None), ("earliest_draw_year", 1903.0),
])
def test_event_rules_of_another_type_are_refused_and_the_table_reads_the_defaults(name: str, value: object) -> None:
    # a hand-edited save's value (an empty object for the time limit read as no limit, and was
    # written back as {}); the table reads the defaults, as for every other damaged value
    from diplomacy_desktop.table.state import TableState

    with pytest.raises(ValueError, match="the event's"):
        EventRules.from_dict({name: value})
    state = TableState.from_table({"event": {**EventRules().to_dict(), name: value}})
    assert state.event_rules() == EventRules()


def test_event_rules_optional_years_may_be_absent() -> None:
    rules = EventRules.from_dict({"end_year": None, "earliest_draw_year": None, "end_time": ""})
    assert rules.end_year is None and rules.earliest_draw_year is None
    assert EventRules.from_dict({"end_year": 1910, "earliest_draw_year": 1905}).end_year == 1910
