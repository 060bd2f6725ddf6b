"""One host or window per game: an exclusive lock beside the game's file.

Two hosts writing one game lose acknowledged changes (each rewrites the file without the other's
seals).  ``GameLock(path, who).acquire()`` takes an exclusive, non-blocking ``flock`` on
``.NAME.lock`` in the game's folder and writes in it who holds it (the program, its process id,
the computer, since when); a second ``acquire`` on the same game, from any process, raises
:class:`GameLockedError` whose message names that holder.  The operating system drops the lock
when the holder exits, even by ``kill -9``: a lock file left behind is not a lock.

While the lock is held, every temporary file of the game's atomic writer is an abandoned one (a
write a kill cut short): ``remove_abandoned_temp_files`` removes them at once.

Where ``fcntl`` does not exist (Windows) the lock is not taken: ``acquire`` does nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from pathlib import Path
from typing import Any, Self

from .savefile import stale_temp_files

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class GameLockedError(OSError):
    """The game is held by another host or window; ``str()`` names it."""

    def __init__(self, message: str, holder: dict[str, Any]) -> None:
        super().__init__(message)
        self.message = message
        self.holder = holder

    def __str__(self) -> str:
        return self.message


def lock_path(path: Path) -> Path:
    return path.parent / f".{path.name}.lock"


def describe_holder(holder: dict[str, Any]) -> str:
    """ "serve (process 1234 on table-laptop, since 20:05)" from what the lock file says."""
    program = str(holder.get("program") or "another program")
    parts = []
    if holder.get("pid"):
        parts.append(f"process {holder['pid']}")
    if holder.get("host") and holder.get("host") != socket.gethostname():
        parts[-1:] = [f"{parts[-1] if parts else 'a process'} on {holder['host']}"]
    if isinstance(holder.get("since"), (int, float)):
        parts.append("since " + time.strftime("%H:%M", time.localtime(float(holder["since"]))))
    return program + (f" ({', '.join(parts)})" if parts else "")


class GameLock:
    """The lock of the game at ``path`` for ``who`` ("serve", "the Diplomacy Desktop window")."""

    def __init__(self, path: Path | str, who: str) -> None:
        self.path = Path(path)
        self.who = who
        self._fd: int | None = None
        self._file_fds: list[int] = []

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock, or raise GameLockedError naming who holds it (OSError if the folder
        cannot hold a lock file)."""
        if fcntl is None or self._fd is not None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        real = self.path.resolve()  # the real file: a symlink or a ../ path names the same lock
        target = lock_path(real)
        fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise self._locked(target) from None
        except OSError:
            os.close(fd)
            raise
        try:
            inode = _lock_inode(real)  # a hard link: another name, the same inode
        except BlockingIOError:
            os.close(fd)
            raise self._locked(None) from None
        self._file_fds = [inode] if inode is not None else []
        info = json.dumps({"program": self.who, "pid": os.getpid(), "host": socket.gethostname(),
                           "since": time.time()}).encode()
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, info, 0)
        except OSError:
            pass  # a full disk: the lock holds all the same, only its holder goes unnamed
        self._fd = fd

    def _locked(self, lock_file: Path | None) -> GameLockedError:
        holder = _holder_of(lock_file) if lock_file is not None else _holder_of_inode(self.path.resolve())
        return GameLockedError(f"{self.path.name} is already open in {describe_holder(holder)}; close it "
                               "there first (two hosts on one game would lose each other's orders)", holder)

    def follow(self) -> None:
        """The game's file was written anew (an atomic write makes a new inode): lock that one
        too, so that a hard link made to it now cannot let a second host in."""
        if fcntl is None or self._fd is None:
            return
        try:
            inode = _lock_inode(self.path.resolve())
        except OSError:
            return
        if inode is not None:
            self._file_fds.append(inode)

    def release(self) -> None:
        for inode in self._file_fds:
            os.close(inode)
        self._file_fds = []
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)  # closing drops the lock

    def remove_abandoned_temp_files(self) -> list[Path]:
        """With the lock held: the atomic writer's temporary files of this game are all left over
        from writes a kill cut short; remove them (the removed ones)."""
        if self._fd is None:
            return []
        removed = []
        for p in stale_temp_files(self.path, older_than=0.0, now=time.time() + 1.0):
            try:
                p.unlink()
                removed.append(p)
            except OSError:
                pass
        return removed

    def __enter__(self) -> Self:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _lock_inode(real: Path) -> int | None:
    """An exclusive lock on the game's file itself (its inode), when it exists: BlockingIOError
    when another host holds it under another name (a hard link)."""
    try:
        fd = os.open(real, os.O_RDONLY)
    except OSError:
        return None  # no file yet: no other name can lead to it
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _holder_of(lock_file: Path) -> dict[str, Any]:
    try:
        fd = os.open(lock_file, os.O_RDONLY)
    except OSError:
        return {}
    try:
        return _read_holder(fd)
    finally:
        os.close(fd)


def _holder_of_inode(real: Path) -> dict[str, Any]:
    """Who holds the game under another name: the lock files in the folder whose holder's
    program is running and which name a file with the same inode (best effort)."""
    try:
        ino = real.stat().st_ino
        for lock_file in real.parent.glob(".*.lock"):
            name = lock_file.name[1:-len(".lock")]
            candidate = real.parent / name
            if candidate.exists() and candidate.stat().st_ino == ino:
                holder = _holder_of(lock_file)
                if holder:
                    return holder
    except OSError:
        pass
    return {}


def _read_holder(fd: int) -> dict[str, Any]:
    try:
        data = json.loads(os.pread(fd, 4096, 0) or b"{}")
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


__all__ = ["GameLock", "GameLockedError", "describe_holder", "lock_path"]
