"""Issue 18, point 3: small situations written from seed 000's own sentences, one (or two) per
rule the explanations cite, each with the rule a rules expert expects and the words that must be
in the explanation.  Every explanation is also held against the DATC's equations by the checker.
None of these copies a rulebook example: the units and spaces are new.

The Formal Diplomacy situations at the end are written the same way from seed 003's sentences;
each fixes a sentence a rules expert found false, incomplete or unclear in the lesson cases FD.12-20
(issue 18's read of every Formal Diplomacy case): ``not_says`` holds the old words."""

from __future__ import annotations

from typing import NamedTuple

import pytest
from explanation_check import check_adjudication

from diplomacy_desktop.engine.explain import explain, results_by_province
from diplomacy_desktop.engine.formal import RULE_ALLIED, RULE_NEUTRAL, RULE_WAR
from diplomacy_desktop.engine.rules import Edition, RuleSet
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.caserun import run_case
from diplomacy_desktop.io.notation import format_order
from diplomacy_desktop.io.scenario import Scenario, read_scenarios

BOARD = load_board()


class Situation(NamedTuple):
    name: str
    seed: str  # the sentence of seed 000 the situation is written from
    case: str  # the position and orders (DATC case format, without CASE/END)
    unit: str  # the province of the order whose explanation is checked
    rule: str  # the rule a rules expert cites for it
    says: tuple[str, ...]  # words the explanation must contain
    edition: Edition = Edition.Y2023
    not_says: tuple[str, ...] = ()  # words the explanation must not contain (a sentence found false)


MOVEMENT = "PRESTATE_SETPHASE Spring 1901, Movement\n"
#: Formal Diplomacy: the relations section (pairs not listed are neutral) and the centres' owners
FORMAL = MOVEMENT + "PRESTATE_SUPPLYCENTER_OWNERS\n Austria: vie\n Austria: tri\n Austria: bud\n"

SITUATIONS = [
    Situation("VII.1 an army moves to an adjacent empty province",
              "An army may move to any adjacent province unless this move causes it to conflict with another unit",
              MOVEMENT + "PRESTATE\n France: A par\nORDERS\n France: A par-bur\n",
              "par", "VII.1", ("moves to Burgundy", "Nothing opposed it")),
    Situation("VII.1 no move to a province that is not adjacent",
              "An army may move to any adjacent province",
              MOVEMENT + "PRESTATE\n Austria: A vie\nORDERS\n Austria: A vie-ven\n",
              "vie", "VII.1", ("is illegal", "Venice is not next to Vienna", "the unit holds")),
    Situation("VII.3.2 a fleet must name the coast",
              "If a fleet is ordered to one of these provinces and it is possible for the fleet to move to either "
              "coast, the order must specify which coast, or the fleet does not move.",
              MOVEMENT + "PRESTATE\n France: F mao\nORDERS\n France: F mao-spa\n",
              "mao", "VII.3.2", ("is illegal", "name one")),
    Situation("VIII two units into one space",
              "If two or more units are ordered to move into the same space, none of them may move.",
              MOVEMENT + "PRESTATE\n France: A mar\n Germany: A mun\nORDERS\n France: A mar-bur\n Germany: A mun-bur\n",
              "mar", "VIII", ("stood off with the army in Munich", "prevent strength 1",
                              "equal strengths stand each other off")),
    Situation("VIII two units swapping places",
              "If two units are ordered, each to the space the other occupies, neither may move.",
              MOVEMENT + "PRESTATE\n France: A bur\n Germany: A mun\nORDERS\n France: A bur-mun\n Germany: A mun-bur\n",
              "bur", "VIII", ("coming the other way", "defend strength 1", "head-to-head")),
    Situation("IX.1 support only for the move ordered",
              "To order a support, it is necessary to write ... both the location and destination of the piece "
              "recieving support.",
              MOVEMENT + "PRESTATE\n Germany: A mun\n Germany: A bur\nORDERS\n Germany: A mun-kie\n"
              " Germany: A bur S A mun-ruh\n",
              "bur", "IX.1", ("is void", "moved to Kiel, not as supported")),
    Situation("IX.2 a better supported attack dislodges",
              "A unit which otherwise would have remained in the space attacked by a better supported unit is "
              "dislodged and must retreat or be disbanded.",
              MOVEMENT + "PRESTATE\n England: F nth\n Germany: F hel\n Germany: F ska\nORDERS\n England: F nth H\n"
              " Germany: F hel-nth\n Germany: F ska S F hel-nth\n",
              "nth", "IX.2", ("dislodged by the fleet in Helgoland Bight", "attack strength 2",
                              "hold strength 1")),
    Situation("IX.3 a support does not help dislodge its own power's unit",
              "an order by one country which supports an attack by another country against a space occupied by "
              "one of the first country's units does not permit a move dislodging that unit",
              MOVEMENT + "PRESTATE\n Italy: A ven\n Italy: A tyr\n Austria: A tri\nORDERS\n Italy: A ven H\n"
              " Austria: A tri-ven\n Italy: A tyr S A tri-ven\n",
              "tyr", "IX.3", ("counts for nothing", "the Italian army in Venice", "counted for nothing")),
    Situation("IX.3 still valid for other purposes",
              "The order would still be valid for other purposes, however, such as standing off an equally well "
              "or less well supported attack on the same space by units of other countries.",
              MOVEMENT + "PRESTATE\n Italy: A ven\n Italy: A tyr\n Austria: A tri\n France: A pie\n"
              " France: A tus\nORDERS\n Italy: A ven H\n Austria: A tri-ven\n Italy: A tyr S A tri-ven\n"
              " France: A pie-ven\n France: A tus S A pie-ven\n",
              "tyr", "IX.3", ("prevent strength 2", "valid for other purposes")),
    Situation("IX.4 a power stands itself off",
              "it can stand itself off by ordering two equally well supported attacks on the same space.",
              MOVEMENT + "PRESTATE\n France: A par\n France: A mar\n France: A gas\n France: A pic\nORDERS\n"
              " France: A par-bur\n France: A mar-bur\n France: A gas S A mar-bur\n France: A pic S A par-bur\n",
              "par", "IX.4", ("stood off with the army in Marseilles", "prevent strength 2")),
    Situation("IX.5 the garrison survives equal attacks",
              "if two equally well supported units attack the same space, thus standing each other off, a unit "
              "already in that space is not dislodged.",
              MOVEMENT + "PRESTATE\n Germany: A mun\n France: A bur\n France: A ruh\n Austria: A tyr\n"
              " Austria: A boh\nORDERS\n Germany: A mun H\n France: A bur-mun\n France: A ruh S A bur-mun\n"
              " Austria: A tyr-mun\n Austria: A boh S A tyr-mun\n",
              "mun", "IX.5", ("stood each other off", "hold strength 1", "more than 1")),
    Situation("IX.6 no support for holding to a unit ordered to move",
              "A unit ordered to move may receive support only for its attempted movement.",
              MOVEMENT + "PRESTATE\n Germany: A kie\n Germany: A ber\nORDERS\n Germany: A kie-hol\n Germany: A ber S A kie\n",
              "ber", "IX.6", ("is void", "cannot be supported to hold")),
    Situation("IX.7 a unit dislodged from the space the other goes to stands nobody off",
              "if two units are ordered to the same space, and one of them is dislodged by a unit coming from that "
              "space, the other unit may move.",
              MOVEMENT + "PRESTATE\n Austria: A gal\n Austria: A rum\n Russia: A ukr\n Germany: A sil\nORDERS\n"
              " Austria: A gal-ukr\n Austria: A rum S A gal-ukr\n Russia: A ukr-gal\n Germany: A sil-gal\n",
              "sil", "IX.7", ("lost its head-to-head battle", "stands nobody off")),
    Situation("X an attack from elsewhere cuts the support",
              "If a unit ordered to support in a given space is attacked from a space different from the one into "
              "which it is giving support ... then its support is \"cut\".",
              MOVEMENT + "PRESTATE\n France: A bur\n France: A ruh\n Germany: A mun\n Germany: A kie\nORDERS\n"
              " France: A bur-mun\n France: A ruh S A bur-mun\n Germany: A mun H\n Germany: A kie-ruh\n",
              "bur", "X", ("it was cut by the attack of the army in Kiel", "1 against 1")),
    Situation("XI no retreat to where the attacker came from",
              "The unit may not retreat, however, to any space which is occupied, nor to the space its attacker "
              "came from",
              "PRESTATE_SETPHASE Spring 1901, Retreat\nPRESTATE\n Italy: A vie\n Italy: A tri\n Austria: A bud\n"
              "PRESTATE_DISLODGED\n Austria: A vie\nPRESTATE_RESULTS\n FAILURE: Austria: A vie H\n"
              " SUCCESS: Italy: A tyr-vie\n SUCCESS: Italy: A tri S A tyr-vie\nORDERS\n Austria: A vie-tyr\n",
              "vie", "XI", ("is illegal", "the attacker came from there")),
    Situation("XI.2 retreats are not supported",
              "Retreats may neither be convoyed nor supported.",
              "PRESTATE_SETPHASE Spring 1901, Retreat\nPRESTATE\n Italy: A vie\n Italy: A tri\n Austria: A bud\n"
              "PRESTATE_DISLODGED\n Austria: A vie\nPRESTATE_RESULTS\n FAILURE: Austria: A vie H\n"
              " SUCCESS: Italy: A tyr-vie\n SUCCESS: Italy: A tri S A tyr-vie\nORDERS\n Austria: A vie-gal\n"
              " Austria: A bud S A vie-gal\n",
              "bud", "XI.2", ("is illegal", "retreats may neither be convoyed nor supported")),
    Situation("XII.1 the convoy must name the army's destination",
              "The orders must specify the same destination or the army may not move.",
              MOVEMENT + "PRESTATE\n England: A lon\n England: F nth\nORDERS\n England: A lon-bel\n"
              " England: F nth C A lon-hol\n",
              "lon", "XII.1", ("ordered to convoy this army to Holland, not to Belgium", "same destination")),
    Situation("XII.2 a chain of fleets",
              "If two or more fleets control adjacent bodies of water, an army may be convoyed through all these "
              "bodies of water on one move.",
              MOVEMENT + "PRESTATE\n England: A lon\n England: F eng\n England: F mao\nORDERS\n England: A lon-por\n"
              " England: F eng C A lon-por\n England: F mao C A lon-por\n",
              "lon", "XII.2", ("moves to Portugal by convoy", ("went by convoy through English Channel, Mid-Atlantic "
                               "Ocean"))),
    Situation("XII.3 a dislodged fleet disrupts the convoy",
              "If a fleet ordered to convoy is dislodged during the move, the army to be convoyed remains in its "
              "original province",
              MOVEMENT + "PRESTATE\n England: A lon\n England: F nth\n Germany: F hel\n Germany: F ska\nORDERS\n"
              " England: A lon-bel\n England: F nth C A lon-bel\n Germany: F hel-nth\n Germany: F ska S F hel-nth\n",
              "lon", "XII.3", ("the fleet in North Sea was dislodged", "so the army stays")),
    Situation("XII.4 another route still carries the army",
              "the army is not prevented from moving due to dislodgement of fleets, unless all the routes are "
              "disrupted.",
              MOVEMENT + "PRESTATE\n England: A lon\n England: F nth\n England: F eng\n France: F bre\n France: F mao\n"
              "ORDERS\n England: A lon-bel\n England: F nth C A lon-bel\n England: F eng C A lon-bel\n"
              " France: F bre-eng\n France: F mao S F bre-eng\n",
              "lon", "XII.4", ("went by convoy through North Sea", "had another route")),
    Situation("XII.5 the convoyed army does not cut the support against its own convoy",
              "If a convoyed army attacks a fleet which is supporting an action on a body of water; and that body "
              "of water contains a convoying fleet, that support is not cut.",
              MOVEMENT + "PRESTATE\n France: A tun\n France: F tys\n Austria: F ion\n Austria: F nap\nORDERS\n"
              " France: A tun-nap\n France: F tys C A tun-nap\n Austria: F ion-tys\n Austria: F nap S F ion-tys\n",
              "nap", "XII.5", ("does not cut it",)),
    Situation("XII.6 over land when no convoy was ordered (DATC 4.A.3: the classic fallback)",
              "If an army could arrive at its destination either in overland or by convoy, one route must be "
              "considered and the other disregarded, depending upon intent",
              MOVEMENT + "PRESTATE\n France: A bel\nORDERS\n France: A bel-hol via Convoy\n",
              "bel", "DATC 4.A.3", ("over land: it was ordered \"via convoy\", but no complete convoy was ordered",),
              Edition.CLASSIC),
    Situation("XIII.2 builds only in an unoccupied home centre",
              "he may build units by placing them, one in each unoccupied supply center, in his home country only",
              "PRESTATE_SETPHASE Fall 1901, Adjustment\nPRESTATE_SUPPLYCENTER_OWNERS\n France: A par\n France: A mar\n"
              " France: A bre\nPRESTATE\n France: A par\nORDERS\n France: Build A par\n",
              "par", "XIII.2", ("is illegal", "Paris is occupied")),
    Situation("XIV.2 the farthest unit, the fleet before the army",
              "the unit farthest from home ... is removed first, the fleet before the army.",
              "PRESTATE_SETPHASE Fall 1901, Adjustment\nPRESTATE_SUPPLYCENTER_OWNERS\n France: A par\nPRESTATE\n"
              " France: A par\n France: A gas\n France: F mao\nORDERS\n",
              "mao", "XIV.2", ("2 moves from the nearest", "farther than every unit kept")),
    Situation("XIV.3 three units in rotation",
              "does not apply to three or more units exchanging positions in rotation",
              MOVEMENT + "PRESTATE\n Russia: A mos\n Russia: A stp\n Russia: A lvn\nORDERS\n Russia: A mos-stp\n"
              " Russia: A stp-lvn\n Russia: A lvn-mos\n",
              "mos", "XIV.3", ("circular movement",)),
    Situation("XIV.3 two units exchange places by convoy",
              "Two pieces may exchange places if either or both are convoyed.",
              MOVEMENT + "PRESTATE\n England: A edi\n England: F nth\n Russia: A nwy\n Russia: F nwg\nORDERS\n"
              " England: A edi-nwy\n England: F nth C A edi-nwy\n Russia: A nwy-edi\n Russia: F nwg C A nwy-edi\n",
              "edi", "XIV.3", ("moves to Norway by convoy, exchanging places with the army in Norway",
                               "The two units exchange places, which they may do when either or both go by convoy"),
              not_says=("by convoy by convoy", "around the ring")),
    Situation("XII.4 a convoying fleet dislodged while the army goes by its other route",
              "the army is not prevented from moving due to dislodgement of fleets, unless all the routes are "
              "disrupted.",
              MOVEMENT + "PRESTATE\n Germany: A den\n Germany: F hel\n Germany: F nth\n England: F edi\n"
              " England: F nwg\nORDERS\n Germany: A den-hol via Convoy\n Germany: F hel C A den-hol\n"
              " Germany: F nth C A den-hol\n England: F edi-nth\n England: F nwg S F edi-nth\n",
              "nth", "XII.4", ("disrupted: the fleet was dislodged by the fleet in Edinburgh",
                               "the army still had a route through Helgoland Bight")),
    # Formal Diplomacy (seed 003)
    Situation("FD neutral: a convoy order for a neutral's army is refused, the army stays",
              "Convoy: You cannot convoy a neutral power's army.",
              FORMAL + "PRESTATE_RELATIONS\nPRESTATE\n Italy: A nap\n Turkey: F ion\nORDERS\n Italy: A nap-tun\n"
              " Turkey: F ion C A nap-tun\n",
              "nap", RULE_NEUTRAL, ("the fleet in Ionian Sea was ordered to convoy this army",
                                    "illegal and not followed", "Turkey is neutral towards Italy"),
              not_says=("no fleet was ordered to convoy this army", "no fleet was ordered to carry it")),
    Situation("FD war: a convoy order for an enemy's army is refused, the army stays",
              "Convoy: You cannot convoy an enemy's army",
              FORMAL + "PRESTATE_RELATIONS\n Italy Turkey: war\nPRESTATE\n Italy: A nap\n Turkey: F ion\nORDERS\n"
              " Italy: A nap-tun\n Turkey: F ion C A nap-tun\n",
              "nap", RULE_WAR, ("the fleet in Ionian Sea was ordered to convoy this army", "at war with Italy"),
              not_says=("no fleet was ordered to convoy this army",)),
    Situation("FD alliance: the ally named as the mover's ally",
              "Move: ... You cannot dislodge their units under any circumstances.",
              FORMAL + "PRESTATE_RELATIONS\n Austria Russia: alliance\nPRESTATE\n Russia: A bud\n Austria: A vie\n"
              " Austria: A gal\nORDERS\n Austria: A vie-bud\n Austria: A gal S A vie-bud\n Russia: A bud H\n",
              "vie", RULE_ALLIED, ("which belongs to Austria's ally Russia", "a unit of Austria's ally Russia"),
              not_says=("its ally",)),
    Situation("FD alliance: the support an ally's attack did not cut is named where it counted",
              "If you move on a province that is occupied by them and that issued support, however, you do not cut "
              "support",
              FORMAL + "PRESTATE_RELATIONS\n Austria Italy: alliance\n Austria Russia: war\nPRESTATE\n Austria: A vie\n"
              " Austria: A bud\n Italy: A tyr\n Russia: A rum\n Russia: A ser\nORDERS\n Austria: A vie S A bud\n"
              " Austria: A bud H\n Italy: A tyr-vie\n Russia: A rum-bud\n Russia: A ser S A rum-bud\n",
              "rum", "VIII", ("The army in Budapest held Budapest with hold strength 2",
                              ("The support of the army in Vienna was not cut: the Italian army in Tyrolia moved "
                               "against it, but an ally does not cut support"))),
    Situation("FD neutral: a move into a neutral's occupied space is void, treated as a hold",
              "your movement there is void and treated as a hold if the neutral does not move.",
              FORMAL + "PRESTATE_RELATIONS\nPRESTATE\n Turkey: A bul\n Russia: A rum\nORDERS\n Turkey: A bul-rum\n"
              " Russia: A rum H\n",
              "bul", RULE_NEUTRAL, ("is void — treated as a hold", "Russia is neutral towards Turkey"),
              not_says=("is void — void", "a neutral power,", "cannot dislodge it whatever its strength")),
    Situation("FD neutrality violation: a unit that holds in a neutral's home province is interned",
              "Any unit that is in violation of neutrality at the end of the movement phase is interned by the "
              "neutral power and disbanded.",
              FORMAL + "PRESTATE_RELATIONS\nPRESTATE\n Italy: A tyr\n Austria: A vie\nORDERS\n Italy: A tyr H\n"
              " Austria: A vie H\n",
              "tyr", "VII.1", ("holds; at the end of the phase it is interned by Austria and disbanded",
                               "Tyrolia, part of the home country of Austria", "Austria is neutral towards Italy"),
              not_says=("territory of a power neutral towards its own",)),
    Situation("FD home province kept: as many home centres held as others hold",
              "These provinces are considered owned by the original power unless they do not have an equal or "
              "greater number of owned home supply centers adjacent to it compared with enemy occupied home centers.",
              FORMAL + "PRESTATE_RELATIONS\nPRESTATE\n Russia: A bud\n Russia: A war\nORDERS\n Russia: A war-gal\n"
              " Russia: A bud H\n",
              "war", RULE_NEUTRAL, ("Galicia is part of the home country of Austria",
                                    "Austria still holds as many, Vienna, as other powers hold: Budapest, by Russia")),
    Situation("FD home province lost: fewer home centres held than others hold",
              "These provinces are considered owned by the original power unless they do not have an equal or "
              "greater number of owned home supply centers adjacent to it compared with enemy occupied home centers.",
              FORMAL + "PRESTATE_RELATIONS\nPRESTATE\n Russia: A vie\n Austria: A tyr\nORDERS\n Austria: A tyr-boh\n"
              " Russia: A vie H\n",
              "tyr", RULE_NEUTRAL, ("Bohemia is a home province of Austria that counts as Russia's",
                                    "Austria holds fewer, none, than other powers hold: Vienna, by Russia"),
              not_says=("next to home centres",)),
]


def _run(sit: Situation) -> tuple[str, list[str]]:
    (sc,) = read_scenarios(f"CASE {sit.name}\n{sit.case}END\n", BOARD)
    assert isinstance(sc, Scenario), sc
    run = run_case(sc, BOARD, RuleSet.for_edition(sit.edition))
    assert run.state is not None and not run.unreadable, run.unreadable
    by = results_by_province(run.results)
    mine = [r for r in run.results if getattr(r.order, "province", None) == sit.unit]
    assert mine, f"no result for {sit.unit}"
    r = next((x for x in mine if x.rule == sit.rule), mine[0])
    text = explain(r, run.state, by).text(format_order(r.order, BOARD))
    return text + f"\n[rule {r.rule}]", check_adjudication(run.state, run.results)


def test_seed_situations_cover_twenty_rules() -> None:
    assert len({s.rule for s in SITUATIONS}) >= 20


@pytest.mark.parametrize("sit", SITUATIONS, ids=[s.name for s in SITUATIONS])
def test_seed_situation(sit: Situation) -> None:
    text, problems = _run(sit)
    assert text.endswith(f"[rule {sit.rule}]"), text
    for words in sit.says:
        assert words in text, f"{words!r} not in:\n{text}"
    for words in sit.not_says:
        assert words not in text, f"{words!r} still in:\n{text}"
    assert not problems, "\n".join(problems)
