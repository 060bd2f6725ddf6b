"""The comparison for the CLI benchmark: the ``diplomacy`` package (PyPI) doing the same work.

    python bench/diplomacy_adjudicate.py FILE

Reads a DATC-format case file as ``bench_engine.py`` writes it (``CASE``,
``PRESTATE_SETPHASE``, ``PRESTATE_SUPPLYCENTER_OWNERS``, ``PRESTATE``, ``ORDERS``, ``END``),
loads each position and its orders into a ``diplomacy.Game``, calls ``process()`` and prints
one JSON array: per case the units on the board and the dislodged units, in the shape of
``diplomacy-desktop adjudicate --json``.  Only the standard library and ``diplomacy`` are
imported, so the whole process is the other engine's cost.
"""

from __future__ import annotations

import json
import sys

from diplomacy import Game

PHASES = {"spring": "S", "fall": "F", "winter": "W"}
KINDS = {"movement": "M", "retreat": "R", "adjustment": "A"}


def read_cases(text: str) -> list[dict]:
    cases: list[dict] = []
    case: dict | None = None
    section = None
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        if word == "CASE":
            case = {"name": rest.strip(), "phase": None, "centres": {}, "units": {}, "orders": {}}
            section = None
        elif word == "PRESTATE_SETPHASE":
            season, year, kind = rest.replace(",", " ").split()
            case["phase"] = f"{PHASES[season.lower()]}{year}{KINDS[kind.lower()]}"  # type: ignore[index]
        elif word in ("PRESTATE_SUPPLYCENTER_OWNERS", "PRESTATE", "ORDERS"):
            section = word
        elif word == "END":
            cases.append(case)  # type: ignore[arg-type]
            case = None
        else:
            power, _, body = line.partition(":")
            power, body = power.strip().upper(), body.strip().upper()
            if section == "PRESTATE_SUPPLYCENTER_OWNERS":
                case["centres"].setdefault(power, []).append(body)  # type: ignore[index]
            elif section == "PRESTATE":
                case["units"].setdefault(power, []).append(body)  # type: ignore[index]
            elif section == "ORDERS":
                order = body.replace(" VIA CONVOY", " VIA")
                case["orders"].setdefault(power, []).append(order)  # type: ignore[index]
    return cases


def adjudicate(case: dict) -> dict:
    game = Game()
    game.clear_units()
    game.clear_centers()
    game.set_current_phase(case["phase"])
    for power, units in case["units"].items():
        game.set_units(power, units)
    for power, centres in case["centres"].items():
        game.set_centers(power, centres)
    for power, orders in case["orders"].items():
        game.set_orders(power, orders)
    game.process()
    units, dislodged = [], []
    for name, power in game.powers.items():
        for unit in power.units:
            units.append(_unit_json(name, unit))
        for unit in power.retreats:
            dislodged.append(_unit_json(name, unit))
    return {"case": case["name"], "units": units, "dislodged": dislodged}


def _unit_json(power: str, unit: str) -> dict[str, str]:
    kind, _, loc = unit.partition(" ")
    return {"power": power.lower(), "type": "army" if kind == "A" else "fleet", "location": loc.lower()}


def main(argv: list[str]) -> int:
    with open(argv[1], encoding="utf-8") as fh:
        cases = read_cases(fh.read())
    sys.stdout.write(json.dumps([adjudicate(c) for c in cases], indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
