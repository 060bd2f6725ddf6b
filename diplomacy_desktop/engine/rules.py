"""Rule editions: the choices where rulebooks and DATC versions differ."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Edition(str, Enum):
    CLASSIC = "classic"
    Y2023 = "2023"

    @classmethod
    def parse(cls, text: str | Edition) -> Edition:
        if isinstance(text, Edition):
            return text
        for e in cls:
            if e.value == str(text).strip().lower():
                return e
        raise ValueError(f"unknown rule edition {text!r}: use 'classic' or '2023'")


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The switches the adjudicator reads.  Build one with :meth:`for_edition`."""

    edition: Edition
    #: an army meant to be convoyed to an adjacent space moves over land when no full chain of
    #: fleets was ordered to convoy it (DATC v2.4 6.G.8); 2023: the army then stays (v3.0 6.G.8)
    convoy_falls_back_to_land: bool
    #: civil-disorder removals count distance to the nearest *owned* centre (2023) or home centre
    disorder_to_owned_centres: bool
    #: civil-disorder distance: both kinds cross land and sea (2023); else fleets move as fleets
    disorder_any_terrain: bool

    @classmethod
    def for_edition(cls, edition: Edition | str = Edition.CLASSIC) -> RuleSet:
        e = Edition.parse(edition)
        if e is Edition.CLASSIC:
            return cls(e, convoy_falls_back_to_land=True, disorder_to_owned_centres=False,
                       disorder_any_terrain=False)
        return cls(e, convoy_falls_back_to_land=False, disorder_to_owned_centres=True,
                   disorder_any_terrain=True)


CLASSIC = RuleSet.for_edition(Edition.CLASSIC)
RULES_2023 = RuleSet.for_edition(Edition.Y2023)
