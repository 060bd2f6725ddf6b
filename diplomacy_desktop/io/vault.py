"""The unrevealed part of a saved game, written encrypted: nothing readable at rest.

While a table plays in secret, the part of the game nobody may see yet — this phase's orders,
the sealed declarations, the private notes, the phones' tokens and the seal codes' secret — is
taken out of the save as it is serialised (``split_secrets``) and written as one AES-256-GCM box
(``cryptography``'s AESGCM) under a random *game key* that lives in memory (``Vault``).  The file
also holds the game key *wrapped*: encrypted under a key derived from the host's passphrase with
scrypt (N = 2**17, r = 8: 128 MiB and about half a second per guess).  So:

* any store that writes what the serialiser produces (the autosave, ``serve``'s file, a save
  as) holds ciphertext only; ``grep`` finds no order, note or token in it;
* a restart after a crash asks the host for the passphrase, unwraps the game key and restores
  everything (``open_vault`` + ``merge_secrets``);
* without the passphrase the game opens with the public board only (and says why);
* a wrong passphrase is refused (the box's tag does not verify) and changes nothing.

The box is bound to its file's phase (the associated data names it): a box copied from another
phase or another game does not open.

**The whole file is authenticated** (issue 31, finding 1), not only its secrets: the public part
too — the PIN hashes, the host PIN, who sealed, the failure counters, the hot-seat turn, the
phase, the history — is covered by an HMAC-SHA256 (``"mac"`` in the table) under a key derived
from the game key (HKDF-SHA256, ``cryptography``), over the save dict in a canonical JSON (keys
sorted, no spaces, ASCII) without the MAC itself.  So a file edited outside the app (a PIN hash
copied onto another power, a seal, a counter, an order of the history) is refused when it is
opened with the passphrase (``TamperedError``), never accepted in silence.  The box of a file
that has a MAC is written under another associated data (format 2): removing the MAC to pass
the file off as an earlier version's makes the box unreadable, and that is refused too.  A file
of an earlier version (format 1: no MAC) still opens; it is *unauthenticated* (``Unlocked``
says so) and its next write authenticates it.  Without the passphrase nothing can be checked:
only the public board opens.

Layout, inside the table dict (so that an older version keeps the keys it does not know)::

    "vault":   {"kdf": "scrypt", "n", "r", "p", "salt", "nonce", "key"}   the wrapped game key (hex)
    "secrets": {"phase": "S1901M", "nonce", "box"}                          the encrypted part (hex)
    "mac":     {"v": 2, "hmac": hex}                                         the whole file's MAC
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

VAULT_KEY = "vault"
SECRETS_KEY = "secrets"
MAC_KEY = "mac"
#: the file format whose public part is authenticated (and whose boxes say so in their associated data)
MAC_VERSION = 2
#: table keys whose whole value is secret until revealed; ``computer_seed`` (``table.computer``) for
#: good: the computer's orders are its bot's, from that seed and the public position
SECRET_TABLE_KEYS = ("notes", "declarations", "seal_secrets", "seal_codes", "computer_seed")
MIN_PASSPHRASE = 8
KDF_N = 2 ** 17
KDF_R = 8
KDF_P = 1
_MAX_N = 2 ** 20
_AAD = b"diplomacy-desktop secrets v1"
_AAD2 = b"diplomacy-desktop secrets v2"
#: what a secret record's text starts with, by format (``seal_record``)
RECORD_V1, RECORD_V2 = "v1", "v2"
#: encrypted records are padded to a multiple of this (their length tells nothing of what they hold)
RECORD_BUCKET = 256
#: the table's secret part (notes, declarations, links, seal codes) in larger steps: its length
#: changes once in some thirty notes, not at every one
TABLE_BUCKET = 4096


class VaultError(ValueError):
    """A passphrase that does not open the file, or a damaged box."""


class TamperedError(VaultError):
    """The game key is right, but what it covers was changed outside the app (or damaged)."""


def canonical_json(value: Any) -> bytes:
    """The bytes a MAC is computed over: the JSON value with its keys sorted, no spaces, ASCII
    only (the same value gives the same bytes however it was written)."""
    normal = json.loads(json.dumps(value))  # (int keys and tuples as the file has them)
    return json.dumps(normal, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def _pad(plain: bytes, bucket: int = RECORD_BUCKET) -> bytes:
    """JSON text padded with spaces (JSON's own blank) to the next multiple of ``bucket``."""
    return plain + b" " * (-len(plain) % bucket)


def passphrase_problem(passphrase: str) -> str | None:
    """Why ``passphrase`` may not guard a game (``io.passphrase``: a strength estimate), or None."""
    from .passphrase import passphrase_problem as problem

    return problem(passphrase)


def _aesgcm(key: bytes) -> Any:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # only when a secret game is saved

    return AESGCM(key)


def _kek(passphrase: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    if not (2 <= n <= _MAX_N and n & (n - 1) == 0 and 1 <= r <= 32 and 1 <= p <= 16):
        raise VaultError("the saved game's key is damaged")
    return hashlib.scrypt(passphrase.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=130 * n * r * p + 2 ** 20,
                          dklen=32)


class Vault:
    """A game key in memory and its wrapped form (what the file keeps)."""

    def __init__(self, key: bytes, wrapped: Mapping[str, Any]) -> None:
        self._key = key
        self.wrapped = dict(wrapped)

    def __repr__(self) -> str:  # never the key
        return "Vault(<game key>)"

    @property
    def _mac_key(self) -> bytes:
        key = getattr(self, "_mac_key_cache", None)
        if key is None:
            from cryptography.hazmat.primitives import hashes
            from cryptography.hazmat.primitives.kdf.hkdf import HKDF

            key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
                       info=b"diplomacy-desktop state mac v2").derive(self._key)
            self._mac_key_cache = key
        return bytes(key)

    def mac(self, message: bytes) -> str:
        """HMAC-SHA256 of ``message`` under the MAC key (HKDF of the game key), hex."""
        return hmac.new(self._mac_key, message, hashlib.sha256).hexdigest()

    def mac_matches(self, message: bytes, tag: object) -> bool:
        return isinstance(tag, str) and hmac.compare_digest(self.mac(message), tag)

    @classmethod
    def create(cls, passphrase: str, *, cost: tuple[int, int, int] | None = None) -> Vault:
        """A new game key, wrapped under ``passphrase`` (ValueError if it is too weak)."""
        problem = passphrase_problem(passphrase)
        if problem:
            raise VaultError(problem)
        n, r, p = cost if cost is not None else (KDF_N, KDF_R, KDF_P)
        key, salt, nonce = os.urandom(32), os.urandom(16), os.urandom(12)
        wrapped = _aesgcm(_kek(passphrase, salt, n, r, p)).encrypt(nonce, key, b"game key")
        return cls(key, {"kdf": "scrypt", "n": n, "r": r, "p": p, "salt": salt.hex(), "nonce": nonce.hex(),
                         "key": wrapped.hex()})

    @classmethod
    def open(cls, wrapped: Mapping[str, Any], passphrase: str) -> Vault:
        """The game key of a file, with the host's passphrase (VaultError: wrong or damaged)."""
        from cryptography.exceptions import InvalidTag

        try:
            if wrapped.get("kdf") != "scrypt":
                raise VaultError("the saved game's key is of an unknown kind")
            kek = _kek(passphrase, bytes.fromhex(str(wrapped["salt"])), int(wrapped["n"]), int(wrapped["r"]),
                       int(wrapped["p"]))
            key = _aesgcm(kek).decrypt(bytes.fromhex(str(wrapped["nonce"])), bytes.fromhex(str(wrapped["key"])),
                                       b"game key")
        except InvalidTag:
            raise VaultError("that is not this game's passphrase") from None
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, VaultError):
                raise
            raise VaultError("the saved game's key is damaged") from None
        return cls(key, wrapped)

    def seal(self, secret: Mapping[str, Any], phase: str, *, version: int = MAC_VERSION) -> dict[str, Any]:
        nonce = os.urandom(12)
        plain = _pad(json.dumps(secret, separators=(",", ":")).encode("utf-8"))
        box = _aesgcm(self._key).encrypt(nonce, plain, (_AAD2 if version >= MAC_VERSION else _AAD)
                                         + phase.encode("utf-8"))
        return {"phase": phase, "nonce": nonce.hex(), "box": box.hex()}

    def seal_record(self, record: Any, context: str, *, bucket: int = RECORD_BUCKET) -> str:
        """One record (any JSON value) as one line of text, for a store that writes the game in
        pieces (a database row per order): ``context`` (the row's key, the phase) and the format
        (2) are bound to it, so a row copied under another key, or passed off as an earlier
        format's, does not open.  Padded: every order's row is as long as any other's."""
        nonce = os.urandom(12)
        plain = _pad(json.dumps(record, separators=(",", ":")).encode("utf-8"), bucket)
        box = _aesgcm(self._key).encrypt(nonce, plain, _AAD2 + b"/record/" + context.encode("utf-8"))
        return f"{RECORD_V2}:{nonce.hex()}:{box.hex()}"

    def row_name(self, text: str) -> str:
        """A stable name for a secret row's key (HMAC-SHA256 under the game key): the store finds
        and replaces the row by it, and it tells nobody without the key which unit it is about."""
        import hmac

        return hmac.new(self._key, b"diplomacy-desktop row/" + text.encode("utf-8"), hashlib.sha256).hexdigest()[:32]

    def open_record(self, text: str, context: str) -> Any:
        """What ``seal_record`` wrote under ``context`` (VaultError: damaged, or another context)."""
        from cryptography.exceptions import InvalidTag

        try:
            version, nonce, box = text.split(":")
            if version not in (RECORD_V1, RECORD_V2):
                raise ValueError(version)
            aad = _AAD2 if version == RECORD_V2 else _AAD
            plain = _aesgcm(self._key).decrypt(bytes.fromhex(nonce), bytes.fromhex(box),
                                               aad + b"/record/" + context.encode("utf-8"))
            return json.loads(plain.decode("utf-8"))
        except (InvalidTag, ValueError, TypeError):
            raise VaultError("a secret record does not open with this key (damaged, or moved)") from None

    def unseal(self, sealed: Mapping[str, Any], *, version: int = 1) -> dict[str, Any]:
        from cryptography.exceptions import InvalidTag

        try:
            phase = str(sealed["phase"])
            plain = _aesgcm(self._key).decrypt(bytes.fromhex(str(sealed["nonce"])), bytes.fromhex(str(sealed["box"])),
                                               (_AAD2 if version >= MAC_VERSION else _AAD) + phase.encode("utf-8"))
            out = json.loads(plain.decode("utf-8"))
        except (InvalidTag, KeyError, TypeError, ValueError):
            raise VaultError("the game's secrets do not open with this key (damaged, or from another game)") \
                from None
        if not isinstance(out, dict):
            raise VaultError("the game's secrets are damaged")
        return out


def _phase_of(data: Mapping[str, Any]) -> str:
    try:
        ph = data["current"]["state"]["phase"]
        return f"{str(ph['season'])[:1].upper()}{int(ph['year'])}{str(ph['kind'])[:1].upper()}"
    except (KeyError, TypeError, ValueError):
        return ""


def split_secrets(data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A save dict (``savefile.game_to_dict``) cut in two: the public part, and the secret part
    (``{"orders": [...], "table": {key: value}, "tokens": {...}}``).  ``data`` is not changed."""
    public = copy.deepcopy(dict(data))
    secret: dict[str, Any] = {}
    current = public.get("current")
    if isinstance(current, dict) and current.get("orders"):
        secret["orders"] = current["orders"]
        current["orders"] = []
    table = public.get("table")
    if isinstance(table, dict):
        hidden = {k: table.pop(k) for k in SECRET_TABLE_KEYS if k in table}
        if hidden:
            secret["table"] = hidden
        phones = table.get("phones")
        if isinstance(phones, dict) and "tokens" in phones:
            secret["tokens"] = phones.pop("tokens")
        table.pop(SECRETS_KEY, None)
    return public, secret


def merge_secrets(data: dict[str, Any], secret: Mapping[str, Any]) -> dict[str, Any]:
    """The save dict with its secret part put back (``data`` is changed and returned)."""
    orders = secret.get("orders")
    if isinstance(orders, list) and isinstance(data.get("current"), dict):
        data["current"]["orders"] = orders
    table = data.get("table")
    if not isinstance(table, dict):
        table = data["table"] = {}
    hidden = secret.get("table")
    if isinstance(hidden, dict):
        table.update(hidden)
    tokens = secret.get("tokens")
    if isinstance(tokens, dict):
        phones = table.setdefault("phones", {})
        if isinstance(phones, dict):
            phones["tokens"] = tokens
    table.pop(SECRETS_KEY, None)
    return data


def lock(data: Mapping[str, Any], vault: Vault) -> dict[str, Any]:
    """The save dict as written under ``vault``: public part, wrapped key, one box (format 2),
    and the MAC of all of it."""
    public, secret = split_secrets(data)
    table = public.get("table")
    if not isinstance(table, dict):
        table = public["table"] = {}
    table.pop(MAC_KEY, None)
    table[VAULT_KEY] = dict(vault.wrapped)
    table[SECRETS_KEY] = vault.seal(secret, _phase_of(public))
    table[MAC_KEY] = {"v": MAC_VERSION, "hmac": vault.mac(canonical_json(public))}
    return public


def is_locked(data: Mapping[str, Any]) -> bool:
    table = data.get("table") if isinstance(data, Mapping) else None
    return isinstance(table, Mapping) and isinstance(table.get(SECRETS_KEY), Mapping) \
        and isinstance(table.get(VAULT_KEY), Mapping)


_MARKS = ({"kdf", "salt", "key"}, {"nonce", "box"}, {"v", "hmac"})


def hidden_secret_part(data: Mapping[str, Any]) -> str | None:
    """A file that is not locked but still holds a wrapped key, a box or a MAC (under its own
    name or another): its encrypted part was renamed or half removed outside the app, to have
    it open unchecked.  The name found, or None."""
    table = data.get("table") if isinstance(data, Mapping) else None
    if not isinstance(table, Mapping):
        return None
    if MAC_KEY in table:
        return MAC_KEY
    for name, value in table.items():
        if isinstance(value, Mapping) and any(mark <= value.keys() for mark in _MARKS):
            return str(name)
    return None


@dataclass(frozen=True, slots=True)
class Unlocked:
    """What ``unlock_checked`` opened: the key (None: the public part only), and whether the
    file was authenticated (False: an earlier version's file, whose public part nothing checks)."""

    vault: Vault | None
    authenticated: bool


#: said once to the user when a file without a MAC is opened with its passphrase
UNAUTHENTICATED_TEXT = ("this game was saved by an earlier version, which did not authenticate the file's public "
                        "part (PIN hashes, seals, the turn): nothing can tell whether it was edited since. It is "
                        "authenticated from its next save on.")


def _without_mac(data: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(data)
    table = dict(out.get("table") or {})
    table.pop(MAC_KEY, None)
    out["table"] = table
    return out


def _check_mac(data: Mapping[str, Any], vault: Vault) -> None:
    mac = data["table"][MAC_KEY]
    if not isinstance(mac, Mapping) or mac.get("v") != MAC_VERSION:
        raise TamperedError("the file's authentication is damaged or of an unknown version: it was changed outside "
                            "the app, and is refused")
    if not vault.mac_matches(canonical_json(_without_mac(data)), mac.get("hmac")):
        raise TamperedError("the file was changed outside the app since the app wrote it (its public part — PIN "
                            "hashes, the host PIN, who sealed, the failure counters, the turn, the phase or the "
                            "orders — no longer matches its authentication): it is refused")


def unlock(data: dict[str, Any], passphrase: str | None = None, vault: Vault | None = None) -> Vault | None:
    """``unlock_checked``'s key only."""
    return unlock_checked(data, passphrase, vault).vault


def unlock_checked(data: dict[str, Any], passphrase: str | None = None, vault: Vault | None = None) -> Unlocked:
    """Open a locked save dict in place: with ``vault`` (the one in memory) or ``passphrase``.
    Without either, the public part is what opens (the box is kept in the table, unread, so that
    nothing is lost: the key None).  The file's MAC is checked first (``TamperedError``: edited
    outside the app, or a MAC removed from a format-2 file); a file without one (an earlier
    version's) opens unauthenticated.  An earlier version's box written for another phase than
    the file's is dropped (it cannot belong to it).
    VaultError: the passphrase is wrong, TamperedError: the file was changed (``data`` is then
    not changed)."""
    if not is_locked(data):
        return Unlocked(vault, False)
    table = data["table"]
    if vault is None and passphrase is not None:
        vault = Vault.open(table[VAULT_KEY], passphrase)
    if vault is None:
        return Unlocked(None, False)
    sealed = table[SECRETS_KEY]
    if MAC_KEY in table:
        _check_mac(data, vault)
        try:
            secret = vault.unseal(sealed, version=MAC_VERSION)
        except VaultError:
            raise TamperedError("the file's encrypted part does not open with its key: it was changed outside the "
                                "app, and is refused") from None
        merge_secrets(data, secret)
        table.pop(MAC_KEY, None)
        return Unlocked(vault, True)
    if str(sealed.get("phase")) != _phase_of(data):
        table.pop(SECRETS_KEY, None)
        return Unlocked(vault, False)
    try:
        secret = vault.unseal(sealed)
    except VaultError:
        try:
            vault.unseal(sealed, version=MAC_VERSION)
        except VaultError:
            raise TamperedError("the file's encrypted part does not open with its key (damaged, or changed "
                                "outside the app): it is refused") from None
        raise TamperedError("the file's authentication was removed (its encrypted part was written by a version "
                            "that authenticates the whole file): it was changed outside the app, and is refused") \
            from None
    merge_secrets(data, secret)
    return Unlocked(vault, False)
