"""A draw proposal, without Qt (rules II: the players "may terminate the game by mutual
agreement"): each surviving power votes in turn, unseen; it is a draw only if all accept.  The window's ``DrawVoteDialog`` passes the
laptop round for it and shows only the outcome, never who declined.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class DrawVoteError(ValueError):
    """A vote out of turn, twice, or by a power that has no vote."""


@dataclass(slots=True)
class DrawVote:
    """A draw proposal: each surviving power votes in turn; a draw only if all accept."""

    voters: tuple[str, ...]
    votes: dict[str, bool] = field(default_factory=dict)

    @property
    def next_voter(self) -> str | None:
        return next((p for p in self.voters if p not in self.votes), None)

    @property
    def complete(self) -> bool:
        return self.next_voter is None

    @property
    def accepted(self) -> bool:
        """All voted, and all accepted."""
        return self.complete and bool(self.voters) and all(self.votes[p] for p in self.voters)

    def vote(self, power: str, accept: bool) -> None:
        if power != self.next_voter:
            raise DrawVoteError(f"it is not {power}'s turn to vote")
        self.votes[power] = bool(accept)
