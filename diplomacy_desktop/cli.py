"""Command-line entry points: ``diplomacy-desktop`` (the app), ``adjudicate``, ``render``, ``serve``."""

from __future__ import annotations

import argparse
import gc
import io
import json
import marshal
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from json.encoder import encode_basestring_ascii as _quote
from pathlib import Path
from typing import Any, NoReturn

from .io.output import fail


def _records_text(parts: list[str]) -> str:
    """The JSON array of ``adjudicate --json``: one case's record a line."""
    return "[\n" + ",\n".join(parts) + "\n]" if parts else "[]"


_KIND_WORDS = {"A": "army", "F": "fleet"}


def _case_json(name: str, units: Sequence[Any], dislodged: Sequence[Any], rows: Sequence[Any],
               interned: Sequence[Any] | None = None) -> str:
    """A case's record, exactly as ``json.dumps(record, separators=(",", ":"))`` writes it.

    Written directly (the C string encoder doing the quoting): thousands of cases would
    otherwise each build a few hundred small dicts only to have them taken apart again.
    """
    q = _quote
    return "".join((
        '{"case":', q(name), ',"units":', _units_text(units), ',"dislodged":', _units_text(dislodged),
        # Formal Diplomacy cases (PRESTATE_RELATIONS) only: the units interned and disbanded
        "" if interned is None else ',"interned":' + _units_text(interned),
        ',"orders":[',
        ",".join([_row_json(row) for row in rows]),
        "]}"))


def _row_json(row: Any) -> str:
    """An order's record: ``power``, ``order``, ``result``, ``reason``, then ``code``, ``rule``,
    ``strength``, ``opposition``, ``involved`` and, with ``--explain``, ``explanation``."""
    q = _quote
    strength = "null" if row.strength is None else str(row.strength)
    opposition = "null" if row.opposition is None else str(row.opposition)
    involved = ",".join([q(p) for p in row.involved])
    tail = f',"explanation":{q(row.explanation)}' if row.explanation else ""
    return (f'{{"power":{q(row.power)},"order":{q(row.order)},"result":{q(row.result)},"reason":{q(row.reason)},'
            f'"code":{q(row.code)},"rule":{q(row.rule)},"strength":{strength},"opposition":{opposition},'
            f'"involved":[{involved}]{tail}}}')


def _units_text(units: Sequence[Any]) -> str:
    q = _quote
    return "[" + ",".join([f'{{"power":{q(u.power)},"type":"{_KIND_WORDS[u.kind]}","location":{q(u.location)}}}'
                           for u in units]) + "]"


def cmd_adjudicate(args: argparse.Namespace) -> int:
    from .engine.rules import RuleSet
    from .io.boardfile import load_board
    from .io.scenario import ScenarioError, case_file_text

    try:
        rules = RuleSet.for_edition(args.rules)
    except ValueError as exc:
        return fail(str(exc))
    if args.jobs < 0:
        return fail(f"--jobs must be 0 (one per core) or more, not {args.jobs}")
    path = Path(args.file)
    try:
        text = case_file_text(path.read_bytes())
    except OSError as exc:
        return _file_error(args, f"cannot read {path}: {exc.strerror or exc}")
    except ScenarioError as exc:
        return _file_error(args, f"{path.name}: {exc}")
    # a batch of short-lived values that make no reference cycles: the cycle collector would
    # only spend time looking for them
    gc.disable()
    style = "json" if args.json else "text"
    lines = text.splitlines()
    cases = _case_count(text)
    jobs = min(args.jobs or min(_cores(), len(lines) // _LINES_PER_JOB), cases)
    from .io import caserun, notation, scenario  # noqa: F401  (imported once, before any fork)

    outputs = _case_outputs(_Batch(lines, load_board("standard"), rules, style, args.explain), jobs)
    failures = sum(failed for _, failed in outputs)
    if args.json:
        parts = [out for out, _ in outputs]
        written = write_stdout(_records_text(parts) + "\n")
    else:
        total = len(outputs)
        report = [out for out, _ in outputs]
        report.append(f"{total - failures} of {total} cases passed" if total else "no cases found")
        written = write_stdout("\n".join(report) + "\n")
    if not written:
        return 1
    if not outputs:
        return 1
    return 1 if failures else 0


def _file_error(args: argparse.Namespace, message: str) -> int:
    """A file that cannot be read at all: one line on stderr, and with ``--json`` a JSON array
    holding one error object (``"case": null``) on stdout.  Exit code 2."""
    fail(message)
    if getattr(args, "json", False):
        write_stdout(_records_text([_json_out({"case": None, "error": message})]) + "\n")
    return 2


def write_stdout(text: str) -> bool:
    """Write ``text`` to stdout, all of it; on an error (a full disk, ``/dev/full``) say so in
    one line on stderr and return False.  A reader that went away raises BrokenPipeError.

    The bytes go straight to the file descriptor, each short write continued: Python's own
    buffered stdout takes a short write on a nearly full disk for success and drops the rest.
    """
    try:
        stream = sys.stdout
        stream.flush()
        try:
            fd = stream.fileno()
        except (AttributeError, ValueError, io.UnsupportedOperation):
            stream.write(text)  # not a real file (a test capturing the output)
            stream.flush()
            return True
        view = memoryview(text.encode(stream.encoding or "utf-8", errors="replace"))
        while view:
            view = view[os.write(fd, view):]
    except BrokenPipeError:
        raise
    except OSError as exc:
        _drop_stdout()
        print(f"diplomacy-desktop: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True


def _drop_stdout() -> None:
    """After a failed write: what is still buffered goes nowhere (instead of failing again, with
    a traceback, when the interpreter flushes it at exit)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


_CASE_LINE = re.compile(r"^[ \t]*case\b", re.IGNORECASE | re.MULTILINE)


def _case_count(text: str) -> int:
    """At least the number of cases in ``text`` (lines starting with the word CASE): more
    processes than that would have nothing to do."""
    return max(1, len(_CASE_LINE.findall(text)))


_LINES_PER_JOB = 10_000  # about 100 cases: for fewer, a second process costs more than it saves


def _cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@dataclass(frozen=True, slots=True)
class _Batch:
    """The lines of one ``adjudicate`` file and how to adjudicate and print its cases."""

    lines: list[str]
    board: Any  # Board
    rules: Any  # RuleSet
    style: str  # "text" or "json"
    explain: bool = False  # each order's result explained in plain words, with its rule


def _case_outputs(batch: _Batch, jobs: int) -> list[tuple[str, bool]]:
    """Each case's printed form and whether it failed, in file order.

    With ``jobs`` > 1 the file is cut into that many pieces, each right after an ``END`` line
    (where the reader is back where it starts).  This process reads and adjudicates the first
    piece while forked children do the others and send back their outputs through pipes; a
    piece whose child fails (or a system without fork) is done here.  The output is the same
    as from one process.
    """
    if not batch.lines:
        return []
    pieces = _pieces(batch.lines, jobs) if jobs > 1 and hasattr(os, "fork") else [(0, len(batch.lines))]
    children = [_fork_piece(span, batch) for span in pieces[1:]]
    outputs = _piece_outputs(pieces[0], batch)
    for span, child in zip(pieces[1:], children, strict=True):
        part = _child_outputs(child)
        outputs.extend(part if part is not None else _piece_outputs(span, batch))
    return outputs


def _fork_piece(span: tuple[int, int], batch: _Batch) -> tuple[int, int] | None:
    """Start a child that does one piece and writes its outputs to a pipe: (pid, read end)."""
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid:
        os.close(write_end)
        return pid, read_end
    status = 1
    try:  # the child: nothing it does may reach the parent's output, and it never returns
        os.close(read_end)
        data = marshal.dumps(_piece_outputs(span, batch))
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(data)
        status = 0
    finally:
        os._exit(status)


def _child_outputs(child: tuple[int, int] | None) -> list[tuple[str, bool]] | None:
    """What a child sent, or None if it did not finish its piece."""
    if child is None:
        return None
    pid, read_end = child
    with os.fdopen(read_end, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    if status != 0:
        return None
    try:
        outputs = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None
    return outputs if isinstance(outputs, list) else None


def _pieces(lines: list[str], count: int) -> list[tuple[int, int]]:
    """About ``count`` ranges of lines covering ``lines``, each but the first starting at a
    ``CASE`` line that follows an ``END`` line (with the comments right above it), where the
    reader is back where it starts and no run of lines outside a case goes on."""
    bounds = [0]
    n = len(lines)
    for k in range(1, count):
        at = max(bounds[-1], n * k // count)
        while at < n and _keyword(lines[at]) != "END":
            at += 1
        end = at
        while at < n and _keyword(lines[at]) != "CASE":
            at += 1
        if at >= n:
            break
        while at - 1 > end and not lines[at - 1].split("#", 1)[0].strip():
            at -= 1  # the comments (and blank lines) right above the CASE go with it
        if at > bounds[-1]:
            bounds.append(at)
    bounds.append(n)
    return [(a, b) for a, b in pairwise(bounds) if b > a]


def _keyword(raw: str) -> str:
    """The first word of a line of a case file, as ``read_scenarios`` reads it."""
    line = raw.split("#", 1)[0].strip()
    return line.partition(" ")[0].upper().rstrip(":")


def _piece_outputs(span: tuple[int, int], batch: _Batch) -> list[tuple[str, bool]]:
    from .io.scenario import read_scenario_lines

    start, end = span
    items = read_scenario_lines(batch.lines[start:end], batch.board, first_line=start + 1)
    return [_case_output(item, batch) for item in items]


def _case_output(item: object, batch: _Batch) -> tuple[str, bool]:
    """One case adjudicated: its JSON record or its lines of text, and whether it failed."""
    from .io.caserun import result_rows, run_case
    from .io.notation import location_label
    from .io.scenario import CaseError, ScenarioError

    board, rules, style = batch.board, batch.rules, batch.style
    if isinstance(item, CaseError):
        return (_json_out({"case": item.name, "error": item.message}) if style != "text"
                else f"CASE {item.name}: cannot be read: {item.message}"), True
    try:
        run = run_case(item, board, rules)  # type: ignore[arg-type]
        rows = result_rows(run, board, explain=batch.explain)
    except ScenarioError as exc:
        return (_json_out({"case": item.name, "error": str(exc)}) if style != "text"  # type: ignore[attr-defined]
                else f"CASE {item.name}: cannot be set up: {exc}"), True  # type: ignore[attr-defined]
    except Exception as exc:  # noqa: BLE001  (a bug: this case says so, the others are still adjudicated)
        why = f"internal error, please report it: {type(exc).__name__}: {exc}"
        return (_json_out({"case": item.name, "error": why}) if style != "text"  # type: ignore[attr-defined]
                else f"CASE {item.name}: {why}"), True  # type: ignore[attr-defined]
    if style != "text":
        return _case_json(run.scenario.name, run.units, run.dislodged, rows,
                          run.interned if run.formal else None), not run.matched
    status = ("matches the expected position" if run.matched else "DOES NOT MATCH") if run.checked \
        else "no expected position given"
    lines = [f"CASE {run.scenario.name} ({rules.edition.value} rules): {status}"]
    for row in rows:
        name = board.power(row.power).name if row.power in board.power_ids else row.power
        if batch.explain:
            text = row.explanation.replace("\n", "\n      ")
            lines.append(f"  {name}: {text}")
        else:
            lines.append(f"  {name}: {row.order:<28} {row.result:<8} {row.reason}")
    if run.dislodged:
        lines.append("  dislodged: " + ", ".join(f"{u.kind} {location_label(u.location)}" for u in run.dislodged))
    if run.interned:
        lines.append("  interned: " + ", ".join(f"{u.kind} {location_label(u.location)}" for u in run.interned))
    for m in run.mismatches:
        lines.append(f"  ! {m}")
    return "\n".join(lines), not run.matched


def _json_out(record: dict[str, object]) -> str:
    return json.dumps(record, separators=(",", ":"))


def cmd_render(args: argparse.Namespace) -> int:
    try:
        from .gui.board.render import render_command
    except ImportError as exc:
        return fail(f"rendering needs the map and Qt: {exc}")
    return render_command(args)


def cmd_run(args: argparse.Namespace) -> int:
    from .gui import startup

    startup.pause()  # no garbage collection while Qt and the window start (gui/startup.py)
    try:
        from .gui.app import run_app
    except ImportError as exc:
        return fail(f"cannot start the window: {exc}")
    return run_app(args)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from .host.serve import serve_command
    except ImportError as exc:
        return fail(f"cannot host: {exc}")
    return serve_command(args)


#: ``serve``'s port when none is given
SERVE_PORT = 8642


def cmd_convert(args: argparse.Namespace) -> int:
    """Games in and out: a game of the diplomacy package (its saved-game JSON) to our saved game,
    ours to its JSON, either to a gamemaster's text (``--to text`` or an OUT ending in .txt).

    OUT is a regular file (written whole or not at all) or ``-`` / ``/dev/stdout``; a device, a
    FIFO or a folder is refused before anything is read.  Exit 0 done, 1 the output could not be
    written (the input is never touched), 2 the input could not be read or converted."""
    from .io.dipjson import InterchangeError, dumps, import_saved_game, read_json
    from .io.output import OutputError, check_output, is_stdout, write_output
    from .io.savefile import FORMAT, SaveFileError, game_from_dict
    from .io.savefile import dumps as save_dumps
    from .io.transcript import game_transcript

    src, out = Path(args.input), Path(args.output)
    try:
        check_output(args.output)
    except OutputError as exc:
        return fail(str(exc), 1)
    try:
        data = read_json(src.read_bytes(), "the file")
        ours = isinstance(data, dict) and data.get("format") == FORMAT
        if ours:
            game, _table = game_from_dict(data)
        else:
            imported = import_saved_game(data, edition=args.rules)
            game = imported.game
            print(f"{src.name}: replayed {imported.phases} phases, {len(imported.differences)} differences "
                  f"from the recorded results", file=sys.stderr)
            for d in imported.differences:
                print(f"  {d.text()}", file=sys.stderr)
            for note in imported.notes:
                print(f"  note: {note}", file=sys.stderr)
        kind = args.to or ("text" if out.suffix.lower() == ".txt" else "dipjson" if ours else "game")
        if kind == "text":
            text = game_transcript(game, src.name)
        elif kind == "dipjson":
            text = dumps(game, src.stem if is_stdout(args.output) else out.stem)
        else:
            text = save_dumps(game) + "\n"
    except (InterchangeError, SaveFileError) as exc:
        return fail(f"{src.name}: {exc}")
    except RecursionError:
        return fail(f"{src.name}: nested too deeply to be a game")
    except OSError as exc:
        return fail(f"cannot read {src}: {exc.strerror or exc}")
    try:
        write_output(args.output, text)
    except OutputError as exc:
        return fail(str(exc), 1)
    return 0


def cmd_verify_seals(args: argparse.Namespace) -> int:
    """Recompute every revealed phase's seal codes from a saved game (host.seal_check)."""
    from .host.seal_check import verify_seals_command

    return verify_seals_command(Path(args.game))


def _seat_choices(args: argparse.Namespace, powers: Sequence[str]) -> dict[str, str] | str:
    """Each power's seat from ``--seat POWER=KIND`` and ``--others``; a message when one is wrong."""
    from .bots import SEAT_KINDS

    seats = {p: args.others for p in powers}
    for item in args.seat or ():
        power, _, kind = item.partition("=")
        power, kind = power.strip().lower(), kind.strip().lower()
        if power not in powers:
            return f"--seat {item}: no power {power!r} (one of {', '.join(powers)})"
        if kind not in SEAT_KINDS:
            return f"--seat {item}: a seat is {', '.join(SEAT_KINDS)}"
        seats[power] = kind
    return seats


def cmd_selfplay(args: argparse.Namespace) -> int:
    """Play a game from Spring 1901 to the end of ``--until`` (or a solo) with every power's orders
    from a seat (the computer, holding, or random legal orders), save it and print one line of
    final centres."""
    from .bots.selfplay import play
    from .engine.game import Game
    from .io.boardfile import load_board
    from .io.savefile import save_game

    board = load_board()
    seats = _seat_choices(args, board.power_ids)
    if isinstance(seats, str):
        return fail(seats)
    game = play(Game.new(board), seats, until=args.until, level=args.level, seed=args.seed)
    try:
        save_game(args.output, game)
    except OSError as exc:
        return fail(f"cannot write {args.output}: {exc.strerror or exc}", 1)
    counts = game.state.centre_counts()
    centres = ", ".join(f"{board.power(p).name} {counts.get(p, 0)}" for p in board.power_ids)
    end = game.ended
    how = f"{end.text}; " if end is not None and end.kind == "victory" else ""
    print(f"{Path(args.output).name}: {game.state.phase.label}: {how}centres {centres}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="diplomacy-desktop", description="Play Diplomacy face to face on one laptop.")
    sub = p.add_subparsers(dest="command")
    a = sub.add_parser("adjudicate", help="adjudicate every case of a DATC-format scenario file")
    a.add_argument("file")
    a.add_argument("--rules", default="classic", help="rule edition: classic (default) or 2023")
    a.add_argument("--json", action="store_true", help="print one JSON array, one object per case")
    a.add_argument("--explain", action="store_true",
                   help="explain each result in plain words with the rule that decides it")
    a.add_argument("--jobs", type=int, default=0, metavar="N",
                   help="processes to share the cases out to (default: one per core for big files)")
    a.set_defaults(func=cmd_adjudicate)
    r = sub.add_parser("render", help="draw a scenario or saved game to PNG, SVG or PDF (by -o's extension), "
                                      "without a window")
    r.add_argument("file")
    r.add_argument("-o", "--output", required=True)
    r.add_argument("--size", default="1600x1200", help="WxH in pixels")
    r.add_argument("--phase", type=int, default=None, help="which case (scenario file) or phase (saved game), from 1")
    r.add_argument("--results", action="store_true", help="adjudicate and draw the results")
    r.add_argument("--reveal", action="store_true",
                   help="draw a hot-seat save's unrevealed orders of the current phase (sealed or being "
                        "written); without it they are not drawn")
    r.add_argument("--rules", default="classic")
    r.add_argument("--all-phases", action="store_true",
                   help="a PDF page for every phase of a saved game, or every case of a scenario file")
    r.add_argument("--order-sheets", action="store_true",
                   help="a PDF page per power with its units, to write orders on (the phase or case of --phase)")
    r.add_argument("--map-only", action="store_true", help="a PNG of the map alone, without title and legend")
    r.add_argument("--explain", action="store_true",
                   help="a PDF: adjudicate (as --results) and explain every result after the map, with the rule "
                        "that decides it")
    r.add_argument("--paper", choices=("a4", "letter"), default=None,
                   help="a PDF's paper (default: Letter where the system measures in US units, else A4)")
    r.add_argument("--orientation", choices=("auto", "portrait", "landscape"), default="auto",
                   help="a PDF's orientation (default auto: the one where the map spans the printable width)")
    r.set_defaults(func=cmd_render)
    s = sub.add_parser("serve", help="host a game for the players' phones on the local network, without a window")
    s.add_argument("file", nargs="?", help="the saved game (.dipl); a new standard game when it does not exist")
    s.add_argument("--host", default="0.0.0.0", help="the address to listen on (default: every interface)")
    s.add_argument("--port", type=int, default=SERVE_PORT, help=f"the port (default {SERVE_PORT}; 0: any free one)")
    s.add_argument("--notes", action="store_true", help="allow private written notes between powers")
    s.add_argument("--formal", action="store_true", help="a new game is a game of Formal Diplomacy")
    s.add_argument("--player", action="append", metavar="POWER=NAME",
                   help="who plays a power (repeat it; one player's link covers all their powers)")
    s.add_argument("--computer", action="append", metavar="POWER=LEVEL",
                   help="the computer plays a power (beginner, club or strong; repeat it): it writes and seals "
                        "its orders when each phase starts, secret until the reveal")
    s.add_argument("--qr", action="store_true", help="also print each join link as a QR code")
    s.add_argument("--passphrase-file", metavar="FILE",
                   help="read the passphrase that encrypts the game's secrets from FILE's first line "
                        "(default: ask on the terminal)")
    s.add_argument("--no-passphrase", action="store_true",
                   help="write the unrevealed orders, notes and the phones' links in the clear")
    s.set_defaults(func=cmd_serve)

    c = sub.add_parser("convert", help="convert a game: the diplomacy package's saved-game JSON to our saved game, "
                                       "ours to that JSON, or either to orders and results as text")
    c.add_argument("input")
    c.add_argument("output")
    c.add_argument("--to", choices=("game", "dipjson", "text"), default=None,
                   help="what to write (default: text for a .txt OUT, else the other program's format)")
    c.add_argument("--rules", default="classic", help="rule edition to replay an import by: classic or 2023")
    c.set_defaults(func=cmd_convert)
    from .bots import LEVELS, SEAT_KINDS

    sp = sub.add_parser("selfplay", help="play a whole game with the computer (and holding or random seats) "
                                         "and save it")
    sp.add_argument("output", metavar="OUT.dipl")
    sp.add_argument("--seed", type=int, default=0, help="the computer's chance (one seed, one game; default 0)")
    sp.add_argument("--until", type=int, default=1910, metavar="YEAR", help="play to the end of YEAR (default 1910)")
    sp.add_argument("--level", choices=LEVELS, default="club", help="the computer's level (default club)")
    sp.add_argument("--seat", action="append", metavar="POWER=KIND",
                    help=f"one power's seat, KIND one of {', '.join(SEAT_KINDS)} (repeat it)")
    sp.add_argument("--others", choices=SEAT_KINDS, default="bot", help="the seat of every power not named "
                                                                        "(default bot)")
    sp.set_defaults(func=cmd_selfplay)
    v = sub.add_parser("verify-seals", help="recompute every revealed phase's seal codes from a saved game and "
                                            "say which match (docs/reference/seal-codes.md)")
    v.add_argument("game", metavar="GAME.dipl")
    v.set_defaults(func=cmd_verify_seals)
    g = sub.add_parser("play", help="open the game window (the default)")
    g.add_argument("file", nargs="?", help="a saved game to open")
    g.set_defaults(func=cmd_run)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    commands = ("adjudicate", "render", "serve", "convert", "selfplay", "verify-seals", "play", "-h", "--help")
    if not argv or (argv[0] not in commands and not argv[0].startswith("-")):
        argv = ["play", *argv]
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


def console_main() -> NoReturn:
    """The ``diplomacy-desktop`` command: :func:`main`, then exit with its code.

    ``adjudicate`` leaves as soon as its output is flushed, without the interpreter's
    teardown: a big file leaves hundreds of thousands of objects behind, and freeing them one
    by one would take a good part of the time the whole adjudication took.
    """
    code = main()
    if sys.argv[1:2] == ["adjudicate"]:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BrokenPipeError:
            pass  # the reader went away: what it did not read is its own affair
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    console_main()
