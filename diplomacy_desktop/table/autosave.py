"""The autosave and its policy, without Qt.

* ``Autosave``: one file, ``autosave.json``, in a data folder (the window passes the app's data
  folder), written atomically by ``io.savefile.save_game`` (a temporary file, then a rename) and
  private (mode 0600: it holds every power's unrevealed orders), so a crash or a pulled plug leaves
  the previous one whole.  ``set_aside_if_damaged`` moves an autosave that cannot be read to
  ``autosave.damaged-<time>.json`` (never over another file); ``clean_temp_files`` removes the
  temporary files a kill mid-write left behind (only ours, only old ones).
* ``autosave_timing``: when a change is written: an adjudication (or its undo) at once and again
  once the table has followed it; orders, seals, table settings and a new game soon after
  (the window's ``Autosaver`` runs the timer).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from ..engine.game import Game
from ..io.savefile import SaveFileError, load_game, save_game, stale_temp_files
from ..io.vault import Vault
from .changes import ChangeRecord

AUTOSAVE_NAME = "autosave.json"
#: the file holding the name of the game's own file (a resumed game keeps its name)
ORIGIN_NAME = "autosave-origin.txt"

#: write now (and once more soon after, when the table has followed)
NOW = "now"
#: write a moment later (one write for a burst of edits)
SOON = "soon"


def autosave_timing(record: ChangeRecord) -> str | None:
    """When a change named by ``record`` is written to the autosave: ``NOW``, ``SOON`` or
    ``None`` (nothing the file keeps changed: who is looking, which phase is shown)."""
    if record.phase and not record.game:
        return NOW
    if record.orders or record.table or record.game:
        return SOON
    return None


@dataclass(frozen=True, slots=True)
class AutosaveInfo:
    """What the resume offer tells the table."""

    path: Path
    phase: str
    saved_at: datetime
    phases_played: int

    @property
    def text(self) -> str:
        when = self.saved_at.strftime("%d %b %Y, %H:%M")
        return f"{self.phase} ({self.phases_played} phase{'s' if self.phases_played != 1 else ''} played), saved {when}"


class Autosave:
    """The one autosave file, in ``folder``."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)

    @property
    def path(self) -> Path:
        return self.folder / AUTOSAVE_NAME

    @property
    def origin_path(self) -> Path:
        return self.folder / ORIGIN_NAME

    def write(self, game: Game, table: dict[str, Any] | None = None, origin: Path | str | None = None, *,
              vault: Vault | None = None) -> Path:
        """Atomic: either the new file or the previous one is there, never half of one.
        ``origin``: the game's own file, so a resumed game keeps its name; ``vault``: a secret
        game's key, under which the unrevealed part is written encrypted (io.vault)."""
        self._write_origin(origin)
        # private whatever it holds (README's threat model): nobody else on this computer reads it
        save_game(self.path, game, table, mode=0o600, vault=vault)
        return self.path

    def _write_origin(self, origin: Path | str | None) -> None:
        if origin is None:
            self.origin_path.unlink(missing_ok=True)
            return
        text = str(Path(origin).resolve())
        if self.origin() == Path(text):
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.origin_path.with_name(self.origin_path.name + ".tmp")
        tmp.write_text(text + "\n", encoding="utf-8")
        tmp.chmod(0o600)  # like the autosave: where a game is kept is nobody else's business
        os.replace(tmp, self.origin_path)

    def origin(self) -> Path | None:
        """The file the autosaved game came from (``None``: it was never saved under a name)."""
        try:
            text = self.origin_path.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            return None
        return Path(text) if text else None

    def exists(self) -> bool:
        return self.path.is_file()

    def load(self) -> tuple[Game, dict[str, Any]]:
        """The autosaved game and table; SaveFileError if it is damaged."""
        return load_game(self.path)

    def info(self) -> AutosaveInfo | None:
        """What there is to resume: ``None`` without a readable autosave or when it holds only an
        untouched new game (nothing would be lost by starting afresh)."""
        if not self.exists():
            return None
        try:
            game, _table = self.load()
        except SaveFileError:
            return None
        if not game.history and not game.all_orders() and game.draw is None:
            return None
        saved = datetime.fromtimestamp(self.path.stat().st_mtime)
        return AutosaveInfo(self.path, game.state.phase.label, saved, len(game.history))

    def clear(self) -> None:
        """Forget the autosaved game (the table discarded it)."""
        for path in (self.path, self.origin_path):
            try:
                path.unlink()
            except FileNotFoundError:
                pass

    def set_aside_if_damaged(self, *, now: datetime | None = None) -> DamagedAutosave | None:
        """If the autosave cannot be read, move it to ``autosave.damaged-<time>.json`` in the
        same folder (never replacing a file there) and say where and why; ``None`` if there is
        no autosave or it reads well.  An OS error while moving it is in the answer too."""
        if not self.exists():
            return None
        try:
            self.load()
        except SaveFileError as exc:
            reason = str(exc)
        else:
            return None
        stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
        for n in range(1, 1000):
            kept = self.folder / f"autosave.damaged-{stamp}{'' if n == 1 else f'-{n}'}.json"
            try:
                os.link(self.path, kept)  # fails if the name is taken: nothing is ever overwritten
            except FileExistsError:
                continue
            except OSError:  # no hard links here (some file systems): rename, having looked first
                if kept.exists():
                    continue
                try:
                    os.rename(self.path, kept)
                except OSError as exc:
                    return DamagedAutosave(self.path, reason, f"it could not be moved aside: {exc.strerror or exc}")
                return DamagedAutosave(kept, reason)
            try:
                self.path.unlink()
            except OSError as exc:
                return DamagedAutosave(kept, reason, f"the damaged file could not be removed: {exc.strerror or exc}")
            return DamagedAutosave(kept, reason)
        return DamagedAutosave(self.path, reason, "no free name to keep it under")  # pragma: no cover

    def clean_temp_files(self) -> list[Path]:
        """Remove the temporary files of autosaves a kill left half-written (only files named
        after the autosave, and only ones untouched for a while); the removed ones."""
        removed = []
        for p in stale_temp_files(self.path):
            try:
                p.unlink()
            except OSError:
                continue
            removed.append(p)
        return removed


@dataclass(frozen=True, slots=True)
class DamagedAutosave:
    """An autosave that could not be read: where it is now, why, and any trouble moving it."""

    kept: Path
    reason: str
    trouble: str = ""

    @property
    def text(self) -> str:
        if self.trouble:
            return (f"The autosaved game cannot be read ({self.reason}), and {self.trouble}. "
                    f"It is still at {self.kept}; the app starts with a new game, and its autosave "
                    "will replace that file.")
        return (f"The autosaved game cannot be read ({self.reason}). It was kept as {self.kept} "
                "and will not be overwritten; the app starts with a new game.")
