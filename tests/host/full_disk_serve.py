"""``diplomacy-desktop serve`` with a fault-injecting disk: every write of the game (the saved
game's file and the live game's database) fails as on a full disk while the file named by
$FULL_DISK_FLAG exists.  Run as a script (the tests start it
as a subprocess, like ``serve``)."""

from __future__ import annotations

import errno
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from diplomacy_desktop import cli
from diplomacy_desktop.host import table
from diplomacy_desktop.io import gamestore, savefile

FLAG = Path(os.environ["FULL_DISK_FLAG"])
_real = savefile.write_atomic


def write_atomic(path: Path, text: Any, **kw: Any) -> None:
    if FLAG.exists():
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
    _real(path, text, **kw)


savefile.write_atomic = write_atomic  # type: ignore[assignment]
table.write_atomic = write_atomic  # type: ignore[assignment]


def _full_db(method: Any) -> Any:
    def run(*args: Any, **kwargs: Any) -> Any:
        if FLAG.exists():  # what SQLite says on a full disk (SQLITE_FULL); the transaction is rolled back
            raise sqlite3.OperationalError("database or disk is full")
        return method(*args, **kwargs)

    return run


for _name in ("write", "write_all", "set_source"):
    setattr(gamestore.GameStore, _name, _full_db(getattr(gamestore.GameStore, _name)))

if __name__ == "__main__":
    sys.exit(cli.main(sys.argv[1:]))
