"""``diplomacy-desktop serve``: the table host without a window (tournament directors, tests).

Opens the game (a new standard game when the file does not exist yet), prints one join URL per
power, serves until Ctrl+C or SIGTERM, and saves after every change.

The game is kept live in its SQLite database beside the file (``io.gamestore``: an order edit
writes one row), and the file is written from it at every new phase and on stop.  The unrevealed
part of the game (orders, declarations, notes, the phones' tokens) is written encrypted, in the
database and in the file, under the host's passphrase (``io.vault``): ``serve`` asks for it on the terminal, or
reads it from ``--passphrase-file FILE`` (scripts, tests); ``--no-passphrase`` writes them in the
clear, and says so.  A restart asks for the same passphrase and restores everything.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import signal
import socket
import sqlite3
import sys
import threading
from datetime import datetime
from functools import partial
from pathlib import Path
from types import FrameType
from typing import TextIO

from ..io.output import fail
from ..io.gamelock import GameLock, GameLockedError
from ..io.gamestore import GameStore, StoreError, file_stamp, store_path
from ..io.savefile import SaveFileError, is_secret_file, open_game
from ..io.vault import passphrase_problem
from ..table import phonebook
from ..table.changes import TableChange
from .table import RESTORED, HostError, SaveFailedError, TableHost

WILDCARDS = ("", "0.0.0.0", "::")


def lan_address() -> str:
    """This machine's address on the local network (the one a route out would use; nothing is
    sent), or 127.0.0.1 without a network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def _players(values: list[str]) -> dict[str, str]:
    out = {}
    for v in values:
        power, sep, name = v.partition("=")
        if not sep or not power.strip() or not name.strip():
            raise ValueError(f"--player takes POWER=NAME, not {v!r}")
        out[power.strip().lower()] = name.strip()
    return out


class PassphraseNeededError(ValueError):
    pass


def live_game_of(path: Path) -> bool | None:
    """Whether the live store beside ``path`` holds the game of the file as it is now (then
    ``serve`` opens it without reading the file): None when it does not, else whether that game
    is secret.  Cheap: a few rows, nothing checked or replayed."""
    where = store_path(path)
    if not where.is_file():
        return None
    try:
        store = GameStore(where)
    except (StoreError, sqlite3.Error, OSError):
        return None
    try:
        if not store.holds_game_of(file_stamp(path)):
            return None
        return store.wrapped_key() is not None
    except (StoreError, sqlite3.Error):
        return None
    finally:
        store.close()


def read_passphrase(args: argparse.Namespace, path: Path, stdin: TextIO | None = None, *,
                    secret: bool | None = None) -> str | None:
    """The host's passphrase: from ``--passphrase-file``, or typed on the terminal (twice for a
    new one); None with ``--no-passphrase``.  PassphraseNeededError when there is no way to ask.
    ``secret``: whether the game is known to be secret (None: the file is looked at)."""
    if secret is None:
        secret = path.exists() and is_secret_file(path)
    if getattr(args, "passphrase_file", None):
        try:
            text = Path(args.passphrase_file).read_text(encoding="utf-8")
        except OSError as exc:
            raise PassphraseNeededError(f"{args.passphrase_file}: {exc.strerror or exc}") from None
        passphrase = text.splitlines()[0] if text.splitlines() else ""
    elif getattr(args, "no_passphrase", False):
        return None
    else:
        stdin = stdin if stdin is not None else sys.stdin
        if stdin is None or not stdin.isatty():
            raise PassphraseNeededError("the game's secrets are written encrypted under a passphrase: run serve in "
                                        "a terminal to type it, or give --passphrase-file FILE (or --no-passphrase "
                                        "to write them in the clear)")
        existing = secret
        if not existing:
            from ..io.passphrase import generate_passphrase

            print(f"A passphrase for this game's secrets: four or more unrelated words (for example, drawn just "
                  f"now: {generate_passphrase()}). Write it down: a restart asks for it.", flush=True)
        passphrase = getpass.getpass("The game's passphrase: " if existing
                                     else "A passphrase for this game's secrets: ")
        if not existing:
            problem = passphrase_problem(passphrase)
            if problem:
                raise PassphraseNeededError(problem)
            if getpass.getpass("The same passphrase again: ") != passphrase:
                raise PassphraseNeededError("the two passphrases differ")
    if not secret:
        problem = passphrase_problem(passphrase)
        if problem:
            raise PassphraseNeededError(problem)
    return passphrase


def serve_command(args: argparse.Namespace) -> int:
    path = Path(args.file) if args.file else Path(f"table-{datetime.now():%Y%m%d-%H%M%S}.dipl")
    lock = GameLock(path, "serve")
    try:
        lock.acquire()  # one host per game: a second one would write over the first one's seals
    except GameLockedError as exc:
        return fail(str(exc), 2, "serve")
    except OSError as exc:
        return fail(f"cannot lock {path}: {exc.strerror or exc}", 2, "serve")
    try:
        return _serve_locked(args, path, lock)
    finally:
        lock.release()


def _computer_seats(host: TableHost, items: list[str]) -> str | None:
    """``--computer POWER=LEVEL``: the host hands those seats to the computer, which writes and
    seals its orders now and at the start of every writing period (issue 33).  A message when an
    item is wrong."""
    from ..table.service import TableRefusal

    for item in items:
        power, _, level = item.partition("=")
        try:
            host.service.set_computer_seat(power.strip().lower(), level.strip().lower() or "club")
        except TableRefusal as exc:
            return f"--computer {item}: {exc}"
    host.service.write_computer_orders()
    return None


def _open_host(args: argparse.Namespace, path: Path) -> TableHost | int:
    """The game to serve, opened or begun, or the exit status after saying why it cannot be."""
    try:
        players = _players(args.player or [])
        secret = live_game_of(path)  # the live store holds this file's game: no need to read the file
        opened = None
        if secret is None and path.exists():
            opened = open_game(path)  # a file that is not a saved game is refused before any question
            secret = opened.locked
        passphrase = read_passphrase(args, path, secret=secret)
        if passphrase is None:
            print("diplomacy-desktop serve: --no-passphrase: the unrevealed orders, notes and the phones' links "
                  "are written in the clear", file=sys.stderr)
        # the live game in SQLite (an order edit writes one row); with a passphrase its secret rows
        # and the saved game's secret part are encrypted under the game's key
        return TableHost.open_live(path, formal=args.formal, notes_allowed=True if args.notes else None,
                                   players=players, passphrase=passphrase, opened=opened)
    except (SaveFileError, ValueError) as exc:  # PassphraseNeededError, WrongPassphraseError too
        return fail(f"{path}: {exc}", 2, "serve")
    except SaveFailedError as exc:  # a new game that cannot be written (a full disk): nothing served
        return fail(f"cannot write {path}: {exc.reason}; nothing is served", 1, "serve")
    except OSError as exc:
        return fail(f"{path}: {exc.strerror or exc}", 2, "serve")


def _print_links(host: TableHost, path: Path, base: str, *, qr: bool) -> None:
    """What is served where, and each power's link (with its QR code when asked)."""
    print(f"Serving {path} ({host.game.state.phase.label}) on {base}", flush=True)
    print(f"Table page (join with a PIN): {base}/", flush=True)
    for power, player, url in host.join_links(base):
        print(link_line(host, power, player, url), flush=True)
        if qr:
            from .qr import join_qr_text

            print(join_qr_text(url), flush=True)
    print("Ctrl+C stops the host; the game is saved after every change.", flush=True)


def _serve_locked(args: argparse.Namespace, path: Path, lock: GameLock) -> int:
    lock.remove_abandoned_temp_files()  # writes a kill cut short (nobody else writes this game)
    host = _open_host(args, path)
    if isinstance(host, int):
        return host
    if host.store_note:
        print(f"diplomacy-desktop serve: {host.store_note}", file=sys.stderr, flush=True)
    refusal = _computer_seats(host, args.computer or [])
    if refusal is not None:
        return fail(str(refusal), 2, "serve")
    lock.follow()  # the file as opening wrote it (a new inode): a hard link to it is refused too
    host.file_written = lock.follow
    host.restore_clock()  # the clock the table had when the host last stopped
    host.add_listener(partial(_say_taken_back, host))  # a failed write is told at once, not only at stop
    # issue 31: every new device, on the host's terminal (those that joined before are known)
    host.add_listener(partial(_say_joined, host, {d for d, _p in host.devices()}))
    host.add_listener(partial(_say_seal_alarm, host))  # issue 31: a revealed code that does not match
    from .server import HostServer  # aiohttp: only when serving

    # Ctrl+C and SIGTERM only ask the main thread to stop the server (set before the links are
    # printed: whoever reads them may stop the host at once)
    stop = threading.Event()

    def on_signal(_signum: int, _frame: FrameType | None) -> None:
        stop.set()

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    server = HostServer(host, args.host, args.port)
    try:
        server.start()
    except OSError as exc:
        for s, handler in previous.items():
            signal.signal(s, handler)
        print(f"diplomacy-desktop serve: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    shown = lan_address() if args.host in WILDCARDS else args.host
    base = f"http://{'[' + shown + ']' if ':' in shown else shown}:{server.port}"
    _print_links(host, path, base, qr=args.qr)
    print(f"Commands: {COMMANDS}", flush=True)
    if sys.stdin is not None:
        threading.Thread(target=_console, args=(host, base, sys.stdin), name="serve-console", daemon=True).start()
    try:
        while not stop.wait(0.5):
            pass
    finally:
        server.stop()
        for s, handler in previous.items():
            signal.signal(s, handler)
    return _stopped(host, path)


def _say_joined(host: TableHost, announced: set[str], change: TableChange) -> None:
    """On the terminal, at once: a new device on a power's link (joined by PIN: named, with a
    token of its own; or a link opened on another device), so that a link carried away is seen
    by the host too.  ``announced``: the devices already told."""
    if change.kind != "joined" or not change.powers:
        return
    names = ", ".join(host.game.board.power(p).name for p in sorted(change.powers))
    devices = host.devices()
    new = [d for d, p in devices if p in change.powers and d not in announced]
    announced.update(d for d, _p in devices)
    if new:
        print(f"A new device joined {names} with its PIN: device {new[-1]} (kick {new[-1]} cuts that device "
              f"off alone; kick POWER cuts off every device and the link)", flush=True)
        return
    phones = host.table.phones
    count = max((phonebook.joins(phones, p) for p in change.powers), default=0) if phones is not None else 0
    print(f"A new device joined {names} ({count} so far on that link; kick POWER cuts them all off)", flush=True)


def _say_seal_alarm(host: TableHost, change: TableChange) -> None:
    """On the terminal, at the reveal: a seal code recomputed from the revealed orders that is
    not the one its power was given at sealing (the phones show the same alarm)."""
    if change.kind != "phase":
        return
    codes = host.public_state().get("seal_codes") or {}
    if codes.get("alarm"):
        print(f"ALARM: {codes['alarm']}", file=sys.stderr, flush=True)


def _say_taken_back(host: TableHost, change: TableChange) -> None:
    """On the terminal, at once: a change that could not be written was taken back."""
    if change.kind != RESTORED:
        return
    why = host.last_save_error or "the disk refused it"
    full = " (the disk is full)" if "space" in why or "full" in why else ""
    print(f"A change could not be saved{full}: {why}; it was taken back and the phones were told. Free some "
          "space; the game goes on from what is on disk.", flush=True)


def _stopped(host: TableHost, path: Path) -> int:
    """The last word: where the game is, and, truthfully, what could not be saved (exit 1)."""
    with contextlib.suppress(SaveFailedError):  # taken back, and counted in save_failures
        host.flush()
    trouble = host.write_file()  # the saved game, from the live one
    host.close()
    code = 0
    if host.save_failures:
        n = host.save_failures
        print(f"Stopped. {n} change{'s' if n != 1 else ''} could not be saved ({host.last_save_error}) and "
              f"{'were' if n != 1 else 'was'} taken back (the phones were told); {path} holds the game as it "
              "was last saved.", file=sys.stderr, flush=True)
        code = 1
    if trouble:
        print(f"Stopped, but {path} could not be written ({trouble}): the game is kept in the live game "
              f"{store_path(path).name} beside it, and \"serve {path}\" goes on from there.", file=sys.stderr,
              flush=True)
        return 1
    if code == 0:
        print(f"Stopped; the game is in {path}", flush=True)
    return code


COMMANDS = ("kick POWER (new link for that power, every device cut off), kick DEVICE (that device alone), "
            "devices (those that joined by PIN), pin POWER DIGITS (a new PIN), reveal (adjudicate now; never a "
            "phase nobody wrote in), reveal PHASE (adjudicate that phase now, e.g. reveal S1901M), undo (take back the last "
            "adjudication), "
            "clock MINUTES [TITLE] (a clock on every phone), pause, resume, clock off, links, help")



def shared_link_note(host: TableHost, power: str) -> str:
    """For a player holding several powers: that any one of their links covers all of them
    (a two-power player gets two links, and either phone gives and seals both powers' orders)."""
    player = host.player_of(power)
    if not player:
        return ""
    board = host.game.board
    theirs = [p for p in board.power_ids if host.player_of(p) == player]
    if len(theirs) < 2:
        return ""
    names = [board.power(p).name for p in theirs]
    both = "both powers" if len(names) == 2 else f"all {len(names)} powers"
    return f"this link covers {both}: {', '.join(names[:-1])} and {names[-1]} (one phone is enough)"


def link_line(host: TableHost, power: str, player: str, url: str) -> str:
    """One power's line of the printed links: name, URL, player, and what a shared link covers."""
    note = shared_link_note(host, power)
    who = f"{player}: {note}" if note else player
    return f"  {host.game.board.power(power).name:<8} {url}" + (f"  ({who})" if who else "")

def _kick(host: TableHost, base: str, target: str) -> None:
    """``kick DEVICE``: that device alone (issue 31); ``kick POWER``: a new link for the power's
    player, every device and the old link cut off."""
    if target in dict(host.devices()):
        power = host.kick_device(target)
        print(f"  Device {target} ({host.game.board.power(power).name}) is cut off; the power's other devices "
              "and link go on. Its PIN no longer joins: pin POWER DIGITS gives a new one", flush=True)
        return
    if target not in host.game.board.power_ids:
        listed = ", ".join(d for d, _p in host.devices()) or "none has joined by PIN"
        raise HostError(f"there is no power or device {target!r} (devices: {listed})")
    token = host.kick(target)
    host.flush()
    print(f"  {host.game.board.power(target).name:<8} {base}/t/{token}  (the old link is cut off)", flush=True)


def _console(host: TableHost, base: str, stdin: TextIO) -> None:
    """The host's commands, typed into the terminal ``serve`` runs in (one a line)."""
    for line in stdin:
        words = line.split()
        if not words:
            continue
        try:
            if words[0] == "kick" and len(words) == 2:
                _kick(host, base, words[1].lower())
            elif words == ["devices"]:
                listed = host.devices()
                print("  " + (", ".join(f"{d} ({host.game.board.power(p).name})" for d, p in listed)
                              if listed else "No device has joined by PIN"), flush=True)
            elif words[0] == "reveal" and len(words) <= 2:
                phase = words[1].upper() if len(words) == 2 else None
                before = host.game.state.phase.label
                waiting = ", ".join(host.game.board.power(p).name for p in host.service.waiting())
                host.force_adjudicate(phase)
                host.flush()  # on disk before the terminal (and any phone) hears of it
                print(f"Revealed and adjudicated {before}"
                      + (f" (not sealed: {waiting}; their orders as written, a unit without one holds)" if waiting
                         else "") + f": now {host.game.state.phase.label}", flush=True)
            elif words == ["undo"]:
                label = host.undo_adjudication()
                host.flush()
                print(f"The last adjudication is taken back: {label} again, its orders as they were, nobody "
                      "sealed", flush=True)
            elif words == ["clock", "off"]:
                host.set_clock("", None)
                host.flush(durable=False)
                print("The clock is off", flush=True)
            elif words[0] == "clock" and len(words) >= 2:
                minutes = float(words[1])
                if not 0 < minutes <= 24 * 60:
                    raise ValueError("a clock runs for 1 second to 24 hours")
                title = " ".join(words[2:]) or "Negotiation"
                host.set_clock(title, minutes * 60)
                host.flush(durable=False)
                print(f"{title}: {minutes:g} min, running", flush=True)
            elif words in (["pause"], ["resume"]):
                host.pause_clock(words == ["resume"])
                host.flush(durable=False)
                view = host.clock_view()
                print(f"The clock is {'running' if view and view['running'] else 'stopped'}"
                      + (f" ({int(view['remaining'])} s left)" if view else " (there is none)"), flush=True)
            elif words[0] == "pin" and len(words) == 3:
                power = words[1].lower()
                host.set_pin(power, words[2])
                host.flush()
                print(f"  {host.game.board.power(power).name}: a new PIN (a phone cut off may join again with it)",
                      flush=True)
            elif words == ["links"]:
                for power, player, url in host.join_links(base):
                    print(link_line(host, power, player, url), flush=True)
            else:
                print(f"Commands: {COMMANDS}", flush=True)
        except (HostError, ValueError) as exc:
            print(f"Not done: {exc}", flush=True)
