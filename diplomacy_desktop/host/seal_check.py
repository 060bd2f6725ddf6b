"""``diplomacy-desktop verify-seals GAME.dipl``: every revealed phase's seal codes recomputed from
a saved game (docs/reference/seal-codes.md)."""

from __future__ import annotations

import sys
from pathlib import Path

from ..io.savefile import SaveFileError, open_game
from ..table.sealcodes import logged_verdicts
from ..table.state import TableState


def verify_seals_command(src: Path) -> int:
    """Recompute every revealed phase's seal codes from a saved game (docs/reference/seal-codes.md): the
    orders each phase revealed and the secret its reveal published give each power's code; print
    it beside the code given at sealing.  Exit 0 all match, 1 a mismatch, 2 the file cannot be
    read (the message says where)."""
    try:
        opened = open_game(src)  # the public part: the history is public, the secret is published
        verdicts = logged_verdicts(TableState.from_table(opened.table), opened.game.history)
    except (SaveFileError, ValueError) as exc:
        print(f"diplomacy-desktop verify-seals: {src.name}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"diplomacy-desktop verify-seals: cannot read {src}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    if not verdicts:
        print(f"{src.name}: no revealed phase with a published secret (nothing revealed yet, or saved by an "
              "earlier version, which did not publish it)")
        return 0
    board = opened.game.board
    bad = 0
    for phase, verdict in verdicts:
        if verdict is None:
            print(f"{phase}: not in the game's history (the host took the phase back after its reveal): not checked")
            continue
        for power in sorted(verdict.given, key=lambda p: board.power_ids.index(p) if p in board.power_ids else 99):
            name = board.power(power).name if power in board.power_ids else power
            given, now = verdict.given[power], verdict.codes.get(power, "?")
            if given == now:
                print(f"{phase} {name}: {now}: match")
            else:
                bad += 1
                print(f"{phase} {name}: MISMATCH: given at sealing \u201c{given}\u201d, the revealed orders give "
                      f"\u201c{now}\u201d")
    print(f"{src.name}: {bad} mismatch{'es' if bad != 1 else ''}" if bad else f"{src.name}: every seal code matches")
    return 1 if bad else 0
