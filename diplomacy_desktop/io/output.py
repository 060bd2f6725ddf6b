"""Where a command writes its result: a regular file, or standard output.

``write_output(name, data)`` is the one door for the command line's output files (``convert``'s
OUT, ``render -o``):

* ``-``, ``/dev/stdout`` (and ``/dev/fd/1``, ``/proc/self/fd/1``) mean standard output: the
  bytes go straight to file descriptor 1, each short write continued;
* anything else must be a regular file or not exist yet: a directory, a device (``/dev/full``,
  ``/dev/null``), a FIFO or a socket is refused with one line and left as it is (an atomic
  write would otherwise replace the device node with a regular file);
* a file is written whole or not at all (``savefile.write_atomic``: a temporary file, fsynced,
  renamed, the folder fsynced); a full disk is ``cannot write OUT: no space left``.

Every failure is an :class:`OutputError` whose message is the one line to print.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from pathlib import Path


#: the names that mean standard output
STDOUT_NAMES = frozenset({"-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"})


class OutputError(OSError):
    """An output that cannot be written; ``str()`` is the one-line message."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


def fail(message: str, code: int = 2, command: str = "") -> int:
    """A command's refusal: one line on stderr, named after the program (and the subcommand when
    given), and the exit code to return."""
    print(f"diplomacy-desktop{' ' + command if command else ''}: {message}", file=sys.stderr)
    return code


def is_stdout(name: str | Path) -> bool:
    return str(name) in STDOUT_NAMES


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def in_words(exc: Exception) -> str:
    """An error as the user reads it: an OS error's own words ("No such file or directory"), not
    its number; any other error's message."""
    return (exc.strerror or str(exc)) if isinstance(exc, OSError) else str(exc)


def reason(exc: OSError) -> str:
    """An OS error in a few words: "no space left", "permission denied", ..."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "no space left"
    if exc.errno == errno.EFBIG:
        return "the file would be too large"
    if exc.errno == errno.EROFS:
        return "the disk is read-only"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.ENOENT:
        return "no such folder"
    text = exc.strerror or str(exc)
    return text[:1].lower() + text[1:]


def check_output(name: str | Path) -> None:
    """Refuse (OutputError) an OUT that is not standard output, a regular file or a new file."""
    if is_stdout(name):
        return
    path = Path(name)
    try:
        st = path.stat()  # a symbolic link: what it points to
    except FileNotFoundError:
        parent = path.parent if str(path.parent) else Path(".")
        if not parent.is_dir():
            raise OutputError(f"cannot write {name}: there is no folder {parent}") from None
        return
    except OSError as exc:
        raise OutputError(f"cannot write {name}: {reason(exc)}") from None
    if not stat.S_ISREG(st.st_mode):
        raise OutputError(f"cannot write {name}: it is {_kind(st.st_mode)}; name a regular file, or - for the "
                          "standard output")


def write_output(name: str | Path, data: str | bytes) -> None:
    """Write ``data`` to ``name`` (see the module documentation).  Raises OutputError."""
    check_output(name)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if is_stdout(name):
        write_fd(1, raw, "the standard output")
        return
    try:
        from .savefile import write_atomic  # (the save file's modules only when a file is written)

        write_atomic(Path(name), raw)
    except OSError as exc:
        raise OutputError(f"cannot write {name}: {reason(exc)}") from None


def write_fd(fd: int, raw: bytes, what: str) -> None:
    """All of ``raw`` to ``fd``, short writes continued.  OutputError on a failure (a full disk,
    ``/dev/full``); BrokenPipeError when the reader went away."""
    view = memoryview(raw)
    try:
        while view:
            view = view[os.write(fd, view):]
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write {what}: {reason(exc)}") from None


__all__ = ["STDOUT_NAMES", "OutputError", "check_output", "is_stdout", "reason", "write_fd", "write_output"]
