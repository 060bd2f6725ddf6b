"""Private notes between players (seed 001's written messages), without Qt: who may read which
note, and the limits the laptop and the phone host both keep.  A note goes to one or more powers;
only they and its writer ever read it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .parts import NotePart, NotesPart
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


def notes_for(table: TableState, powers: Iterable[str]) -> list[NotePart]:
    """The notes ``powers`` wrote or received (never anyone else's)."""
    mine = set(powers)
    notes = table.notes.entries() if table.notes is not None else []
    return [n for n in notes if n.sender in mine or mine & set(n.recipients())]


def with_note(table: TableState, phase: str, sender: str, to: Sequence[str], text: str,
              powers: Sequence[str]) -> NotesPart:
    """The table's notes with a note written at the laptop added (the same form as a phone's), as
    a new list (the note last); NoteError when it cannot be sent.  The table itself is not changed."""
    text = text.strip()
    if not text:
        raise NoteError("write the note")
    if len(text) > MAX_NOTE_TEXT:
        raise NoteError(f"a note is at most {MAX_NOTE_TEXT} characters")
    recipients = sorted(set(to))
    if not recipients or any(p not in powers or p == sender for p in recipients):
        raise NoteError("send a note to one or more other powers")
    notes = table.notes if table.notes is not None else NotesPart()
    if len(notes.items) >= MAX_NOTES:
        raise NoteError("this game has as many notes as it can keep")
    return notes.added(NotePart(id=len(notes.items) + 1, phase=phase, sender=sender, to=recipients, text=text))


def add_note(table: TableState, phase: str, sender: str, to: Sequence[str], text: str,
             powers: Sequence[str]) -> NotePart:
    """Keep a note written at the laptop in ``table`` (see ``with_note``); the note."""
    notes = with_note(table, phase, sender, to, text, powers)
    table.notes = notes
    return notes.entries()[-1]
