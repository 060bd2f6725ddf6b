"""Private notes between players (seed 001's written messages), without Qt: who may read which
note, and the limits the laptop and the phone host both keep.  A note goes to one or more powers;
only they and its writer ever read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .state import TableState

#: the longest note, and the most notes a game keeps (the phone host refuses beyond them too)
MAX_NOTE_TEXT = 500
MAX_NOTES = 2000


NOTES_KEY = "notes"
ALLOWED_KEY = "notes_allowed"


#: the notes one power may write in a game (its share of MAX_NOTES, seven powers and the rest)
MAX_NOTES_PER_POWER = MAX_NOTES // 8


class NoteError(ValueError):
    """A note that cannot be sent (said to the writer; nothing is kept)."""


def notes_allowed(table: TableState) -> bool:
    return table.notes_allowed is True


def notes_for(table: TableState, powers: Sequence[str]) -> list[dict[str, Any]]:
    """The notes ``powers`` wrote or received (never anyone else's)."""
    mine = set(powers)
    raw = table.notes
    if not isinstance(raw, list):
        return []
    return [dict(n) for n in raw if isinstance(n, dict)
            and (n.get("from") in mine or mine & {str(p) for p in n.get("to", []) if isinstance(p, str)})]


def with_note(table: TableState, phase: str, sender: str, to: Sequence[str], text: str,
              powers: Sequence[str]) -> list[dict[str, Any]]:
    """The table's notes with a note written at the laptop added (the same form as a phone's), as
    a new list; NoteError when it cannot be sent.  The table itself is not changed."""
    text = text.strip()
    if not text:
        raise NoteError("write the note")
    if len(text) > MAX_NOTE_TEXT:
        raise NoteError(f"a note is at most {MAX_NOTE_TEXT} characters")
    recipients = sorted(set(to))
    if not recipients or any(p not in powers or p == sender for p in recipients):
        raise NoteError("send a note to one or more other powers")
    raw = table.notes
    notes = list(raw) if isinstance(raw, list) else []
    if len(notes) >= MAX_NOTES:
        raise NoteError("this game has as many notes as it can keep")
    notes.append({"id": len(notes) + 1, "phase": phase, "from": sender, "to": recipients, "text": text})
    return notes


def add_note(table: TableState, phase: str, sender: str, to: Sequence[str], text: str,
             powers: Sequence[str]) -> dict[str, Any]:
    """Keep a note written at the laptop in ``table`` (see ``with_note``); the note."""
    notes = with_note(table, phase, sender, to, text, powers)
    table.notes = notes
    return dict(notes[-1])
