"""The host at the table, played by a test: what the host prompt, the yes/no questions and the
passphrase prompt were asked, and what they answer.  The ``host`` fixture (``conftest.py``) makes
one; a test file with its own host PIN or passphrase overrides that fixture."""

from __future__ import annotations

from typing import Any

#: the host PIN the table tests choose (a file may choose another: ``Host(typed=...)``)
HOST_PIN = "4242"


class Host:
    """What the host prompt and the yes/no questions were asked, and what they answer."""

    def __init__(self, *, typed: str | None = HOST_PIN, passphrase: str | None = None) -> None:
        self.typed: str | None = typed  # what the host "types" (None: cancels)
        self.answer = True  # the yes/no questions
        self.prompts: list[str] = []
        self.questions: list[tuple[str, str]] = []
        self.passphrase: str | None = passphrase  # what the host types when a secret game asks
        self.asked: list[str] = []

    def prompt(self, _parent: Any, title: str, text: str) -> str | None:
        self.prompts.append(f"{title}: {text}")
        return self.typed

    def confirm(self, _parent: Any, title: str, text: str) -> bool:
        self.questions.append((title, text))
        return self.answer

    def passphrase_prompt(self, _parent: Any, text: str) -> str | None:
        self.asked.append(text)
        return self.passphrase
