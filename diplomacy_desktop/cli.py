"""Command-line entry points: ``diplomacy-desktop`` (the app), ``adjudicate``, ``render``."""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from json.encoder import encode_basestring_ascii as _quote
from pathlib import Path
from typing import Any


def _record_text(rec: dict[str, Any]) -> str:
    """One record as ``json.dumps([rec], indent=1)`` writes it inside the array, byte for byte.

    The standard library uses its C encoder only without indentation, and ``adjudicate --json``
    prints thousands of small objects indented.  Records of the two shapes this command makes
    (a case with units and orders, a case with an error) are written directly, with the C
    string encoder doing the quoting; anything else goes through the standard library.
    """
    if list(rec) == ["case", "units", "dislodged", "orders"]:
        return (f'{{\n  "case": {_quote(rec["case"])},\n  "units": {_units_text(rec["units"])},'
                f'\n  "dislodged": {_units_text(rec["dislodged"])},\n  "orders": {_rows_text(rec["orders"])}\n }}')
    if list(rec) == ["case", "error"]:
        return f'{{\n  "case": {_quote(rec["case"])},\n  "error": {_quote(rec["error"])}\n }}'
    return json.dumps(rec, indent=1).replace("\n", "\n ")


def _records_text(parts: list[str]) -> str:
    """The array of records written by :func:`_record_text`: ``json.dumps(records, indent=1)``."""
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
    # a batch of short-lived values that make no reference cycles: the cycle collector would
    # only spend time looking for them
    gc.disable()
    style = "text" if not args.json else "compact" if args.compact else "json"
    lines = text.splitlines()
    jobs = args.jobs or min(os.cpu_count() or 1, len(lines) // _LINES_PER_JOB)
    outputs = _case_outputs(_Batch(lines, load_board("standard"), rules, style), jobs)
    failures = sum(failed for _, failed in outputs)
    if args.json:
        parts = [out for out, _ in outputs]
        sys.stdout.write(("[" + ", ".join(parts) + "]" if args.compact else _records_text(parts)) + "\n")
    else:
        total = len(outputs)
        report = [out for out, _ in outputs]
        report.append(f"{total - failures} of {total} cases passed" if total else "no cases found")
        sys.stdout.write("\n".join(report) + "\n")
    if not outputs:
        return 1
    return 1 if failures else 0


_LINES_PER_JOB = 25_000  # about 250 cases: fewer per process, and starting processes costs more than it saves


@dataclass(frozen=True, slots=True)
class _Batch:
    """The lines of one ``adjudicate`` file and how to adjudicate and print its cases."""

    lines: list[str]
    board: Any  # Board
    rules: Any  # RuleSet
    style: str  # "text", "json" or "compact"


def _case_outputs(batch: _Batch, jobs: int) -> list[tuple[str, bool]]:
    """Each case's printed form and whether it failed, in file order.

    With ``jobs`` > 1 the file is cut into pieces, each right after an ``END`` line (where the
    reader is back where it starts), and the pieces are read and adjudicated by that many
    processes (forked, so the lines need not be sent); the output is the same as from one.
    """
    if jobs > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        global _current_batch
        pieces = _pieces(batch.lines, jobs * 4)  # a few per process, so none waits on a slow one
        _current_batch = batch
        try:
            context = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(jobs, mp_context=context) as pool:
                return [out for part in pool.map(_piece_outputs, pieces) for out in part]
        except (ValueError, OSError, BrokenProcessPool):
            pass  # no fork on this system, or no processes to be had: do it here
        finally:
            _current_batch = None
    return _piece_outputs((0, len(batch.lines)), batch)


_current_batch: _Batch | None = None  # what forked workers inherit


def _pieces(lines: list[str], count: int) -> list[tuple[int, int]]:
    """About ``count`` ranges of lines covering ``lines``, each but the last ending with an
    ``END`` line as the scenario reader sees one."""
    bounds = [0]
    for k in range(1, count):
        at = max(bounds[-1], len(lines) * k // count)
        while at < len(lines) and _keyword(lines[at]) != "END":
            at += 1
        if at + 1 < len(lines):
            bounds.append(at + 1)
    bounds.append(len(lines))
    return [(a, b) for a, b in pairwise(bounds) if b > a]


def _keyword(raw: str) -> str:
    """The first word of a line of a case file, as ``read_scenarios`` reads it."""
    line = raw.split("#", 1)[0].strip()
    return line.partition(" ")[0].upper().rstrip(":")


def _piece_outputs(span: tuple[int, int], batch: _Batch | None = None) -> list[tuple[str, bool]]:
    from .io.scenario import read_scenarios

    batch = batch or _current_batch
    assert batch is not None
    start, end = span
    # blank lines in front keep the line numbers of messages those of the whole file
    items = read_scenarios("\n" * start + "\n".join(batch.lines[start:end]), batch.board)
    return [_case_output(item, batch) for item in items]


def _case_output(item: object, batch: _Batch) -> tuple[str, bool]:
    """One case adjudicated: its JSON record or its lines of text, and whether it failed."""
    from .io.caserun import result_rows, run_case
    from .io.notation import location_label
    from .io.scenario import CaseError, ScenarioError

    board, rules, style = batch.board, batch.rules, batch.style
    if isinstance(item, CaseError):
        return (_json_out({"case": item.name, "error": item.message}, style) if style != "text"
                else f"CASE {item.name}: cannot be read: {item.message}"), True
    try:
        run = run_case(item, board, rules)  # type: ignore[arg-type]
    except ScenarioError as exc:
        return (_json_out({"case": item.name, "error": str(exc)}, style) if style != "text"  # type: ignore[attr-defined]
                else f"CASE {item.name}: cannot be set up: {exc}"), True  # type: ignore[attr-defined]
    rows = result_rows(run, board)
    if style != "text":
        return _json_out({"case": run.scenario.name, "units": _units_json(run.units),
                          "dislodged": _units_json(run.dislodged), "orders": rows}, style), not run.matched
    status = ("matches the expected position" if run.matched else "DOES NOT MATCH") if run.checked \
        else "no expected position given"
    lines = [f"CASE {run.scenario.name} ({rules.edition.value} rules): {status}"]
    for row in rows:
        name = board.power(row["power"]).name if row["power"] in board.power_ids else row["power"]
        lines.append(f"  {name}: {row['order']:<28} {row['result']:<8} {row['reason']}")
    if run.dislodged:
        lines.append("  dislodged: " + ", ".join(f"{u.kind} {location_label(u.location)}" for u in run.dislodged))
    for m in run.mismatches:
        lines.append(f"  ! {m}")
    return "\n".join(lines), not run.matched


def _json_out(record: dict[str, object], style: str) -> str:
    return json.dumps(record) if style == "compact" else _record_text(record)


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
    a.add_argument("--jobs", type=int, default=0, metavar="N",
                   help="processes to share the cases out to (default: one per core for big files)")
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
