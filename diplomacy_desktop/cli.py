"""Command-line entry points: ``diplomacy-desktop`` (the app), ``adjudicate``, ``render``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from json.encoder import encode_basestring_ascii as _quote
from pathlib import Path


def _records_text(records: list[dict[str, object]]) -> str:
    """``json.dumps(records, indent=1)``, byte for byte, written several times faster.

    The standard library uses its C encoder only without indentation, and ``adjudicate --json``
    prints thousands of small objects indented.  Records of the two shapes this command makes
    (a case with units and orders, a case with an error) are written directly, with the C
    string encoder doing the quoting; anything else goes through the standard library.
    """
    parts = []
    for rec in records:
        if list(rec) == ["case", "units", "dislodged", "orders"]:
            parts.append(f'{{\n  "case": {_quote(str(rec["case"]))},\n  "units": {_units_text(rec["units"])},'
                         f'\n  "dislodged": {_units_text(rec["dislodged"])},\n  "orders": {_rows_text(rec["orders"])}\n }}')
        elif list(rec) == ["case", "error"]:
            parts.append(f'{{\n  "case": {_quote(str(rec["case"]))},\n  "error": {_quote(str(rec["error"]))}\n }}')
        else:
            parts.append(json.dumps(rec, indent=1).replace("\n", "\n "))
    return "[\n " + ",\n ".join(parts) + "\n]" if parts else "[]"


def _units_text(units: object) -> str:
    assert isinstance(units, list)
    if not units:
        return "[]"
    return "[\n   " + ",\n   ".join([
        f'{{\n    "power": {_quote(u["power"])},\n    "type": {_quote(u["type"])},\n    "location": {_quote(u["location"])}\n   }}'
        for u in units]) + "\n  ]"


def _rows_text(rows: object) -> str:
    assert isinstance(rows, list)
    if not rows:
        return "[]"
    return "[\n   " + ",\n   ".join([
        f'{{\n    "power": {_quote(r["power"])},\n    "order": {_quote(r["order"])},\n    "result": {_quote(r["result"])},'
        f'\n    "reason": {_quote(r["reason"])}\n   }}' for r in rows]) + "\n  ]"


def _units_json(units: Sequence[object]) -> list[dict[str, str]]:
    from .engine.state import Unit

    out = []
    for u in units:
        assert isinstance(u, Unit)
        out.append({"power": u.power, "type": "army" if u.kind == "A" else "fleet", "location": u.location})
    return out


def cmd_adjudicate(args: argparse.Namespace) -> int:
    from .engine.rules import RuleSet
    from .io.boardfile import load_board
    from .io.caserun import result_rows, run_case
    from .io.notation import location_label
    from .io.scenario import CaseError, ScenarioError, read_scenarios

    try:
        rules = RuleSet.for_edition(args.rules)
    except ValueError as exc:
        print(f"diplomacy-desktop: {exc}", file=sys.stderr)
        return 2
    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        print(f"diplomacy-desktop: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    board = load_board("standard")
    items = read_scenarios(text, board)
    failures = 0
    records: list[dict[str, object]] = []
    lines: list[str] = []
    for item in items:
        if isinstance(item, CaseError):
            failures += 1
            records.append({"case": item.name, "error": item.message})
            lines.append(f"CASE {item.name}: cannot be read: {item.message}")
            continue
        try:
            run = run_case(item, board, rules)
        except ScenarioError as exc:
            failures += 1
            records.append({"case": item.name, "error": str(exc)})
            lines.append(f"CASE {item.name}: cannot be set up: {exc}")
            continue
        rows = result_rows(run, board)
        records.append({"case": item.name, "units": _units_json(run.units),
                        "dislodged": _units_json(run.dislodged), "orders": rows})
        if not run.matched:
            failures += 1
        if not args.json:
            status = ("matches the expected position" if run.matched else "DOES NOT MATCH") if run.checked \
                else "no expected position given"
            lines.append(f"CASE {item.name} ({rules.edition.value} rules): {status}")
            for row in rows:
                name = board.power(row["power"]).name if row["power"] in board.power_ids else row["power"]
                lines.append(f"  {name}: {row['order']:<28} {row['result']:<8} {row['reason']}")
            if run.dislodged:
                lines.append("  dislodged: " + ", ".join(f"{u.kind} {location_label(u.location)}" for u in run.dislodged))
            for m in run.mismatches:
                lines.append(f"  ! {m}")
    if args.json:
        sys.stdout.write((json.dumps(records) if args.compact else _records_text(records)) + "\n")
    else:
        total = len(items)
        lines.append(f"{total - failures} of {total} cases passed" if total else "no cases found")
        sys.stdout.write("\n".join(lines) + "\n")
    if not items:
        return 1
    return 1 if failures else 0


def cmd_render(args: argparse.Namespace) -> int:
    try:
        from .gui.render import render_command
    except ImportError as exc:
        print(f"diplomacy-desktop: rendering needs the map and Qt: {exc}", file=sys.stderr)
        return 2
    return render_command(args)


def cmd_run(args: argparse.Namespace) -> int:
    try:
        from .gui.app import run_app
    except ImportError as exc:
        print(f"diplomacy-desktop: cannot start the window: {exc}", file=sys.stderr)
        return 2
    return run_app(args)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="diplomacy-desktop", description="Play Diplomacy face to face on one laptop.")
    sub = p.add_subparsers(dest="command")
    a = sub.add_parser("adjudicate", help="adjudicate every case of a DATC-format scenario file")
    a.add_argument("file")
    a.add_argument("--rules", default="classic", help="rule edition: classic (default) or 2023")
    a.add_argument("--json", action="store_true", help="print one JSON array, one object per case")
    a.add_argument("--compact", action="store_true", help=argparse.SUPPRESS)
    a.set_defaults(func=cmd_adjudicate)
    r = sub.add_parser("render", help="draw a scenario or saved game to a PNG, without a window")
    r.add_argument("file")
    r.add_argument("-o", "--output", required=True)
    r.add_argument("--size", default="1600x1200", help="WxH in pixels")
    r.add_argument("--phase", type=int, default=None, help="which case (scenario file) or phase (saved game), from 1")
    r.add_argument("--results", action="store_true", help="adjudicate and draw the results")
    r.add_argument("--rules", default="classic")
    r.set_defaults(func=cmd_render)
    g = sub.add_parser("play", help="open the game window (the default)")
    g.add_argument("file", nargs="?", help="a saved game to open")
    g.set_defaults(func=cmd_run)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not argv or (argv[0] not in ("adjudicate", "render", "play", "-h", "--help") and not argv[0].startswith("-")):
        argv = ["play", *argv]
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
