"""The hot seat's widgets, one file a role: ``flow.py`` (``HotSeatFlow``, the cycle around the
controller), ``curtain.py`` (``CurtainWidget``), ``seal_strip.py`` (``SealStatusStrip``),
``review.py`` (``ReviewDialog``), ``pin_prompt.py`` (the host's and a power's PIN prompts) and
``names.py`` (how a seat is named).

The turn's model is the Qt-free ``table.hotseat``; the names below are re-exported so that code
and tests written against the old one-file ``gui.table.hotseat`` keep importing from here.
"""

from __future__ import annotations

from ....io.pins import is_valid_pin, pin_matches
from ....table.hotseat import (CURTAIN, DECLARATIONS_ROUND, ENTERING, HOST_PIN_SET, NO_HOST_PIN,
                               NO_HOST_PIN_CURTAIN, OPEN, ORDERS_ROUND, READY, REVEALED, ROUNDS, STAGES,
                               HotSeatError, HotSeatSession, PinError, hash_pin)
from ....table.review import _internment_warnings, _mismatch, _unit_label, review_warnings
from .curtain import CurtainWidget
from .flow import Confirm, HostPrompt, HotSeatFlow
from .names import seat_title
from .pin_prompt import HostPinDialog, ask_host_pin, ask_power_pin
from .review import ReviewDialog
from .seal_strip import SealStatusStrip

__all__ = [
    'CURTAIN',
    'DECLARATIONS_ROUND',
    'ENTERING',
    'HOST_PIN_SET',
    'NO_HOST_PIN',
    'NO_HOST_PIN_CURTAIN',
    'OPEN',
    'ORDERS_ROUND',
    'READY',
    'REVEALED',
    'ROUNDS',
    'STAGES',
    'Confirm',
    'CurtainWidget',
    'HostPinDialog',
    'HostPrompt',
    'HotSeatError',
    'HotSeatFlow',
    'HotSeatSession',
    'PinError',
    'ReviewDialog',
    'SealStatusStrip',
    '_internment_warnings',
    '_mismatch',
    '_unit_label',
    'ask_host_pin',
    'ask_power_pin',
    'hash_pin',
    'is_valid_pin',
    'pin_matches',
    'review_warnings',
    'seat_title',
]
