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

Layout, inside the table dict (so that an older version keeps the keys it does not know)::

    "vault":   {"kdf": "scrypt", "n", "r", "p", "salt", "nonce", "key"}   the wrapped game key (hex)
    "secrets": {"phase": "S1901M", "nonce", "box"}                          the encrypted part (hex)
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
from collections.abc import Mapping
from typing import Any

VAULT_KEY = "vault"
SECRETS_KEY = "secrets"
#: table keys whose whole value is secret until revealed
SECRET_TABLE_KEYS = ("notes", "declarations", "seal_secrets", "seal_codes")
MIN_PASSPHRASE = 8
KDF_N = 2 ** 17
KDF_R = 8
KDF_P = 1
_MAX_N = 2 ** 20
_AAD = b"diplomacy-desktop secrets v1"


class VaultError(ValueError):
    """A passphrase that does not open the file, or a damaged box."""


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

    def seal(self, secret: Mapping[str, Any], phase: str) -> dict[str, Any]:
        nonce = os.urandom(12)
        plain = json.dumps(secret, separators=(",", ":")).encode("utf-8")
        box = _aesgcm(self._key).encrypt(nonce, plain, _AAD + phase.encode("utf-8"))
        return {"phase": phase, "nonce": nonce.hex(), "box": box.hex()}

    def seal_record(self, record: Any, context: str) -> str:
        """One record (any JSON value) as one line of text, for a store that writes the game in
        pieces (a database row per order): ``context`` (the row's key, the phase) is bound to it,
        so a row copied under another key does not open."""
        nonce = os.urandom(12)
        box = _aesgcm(self._key).encrypt(nonce, json.dumps(record, separators=(",", ":")).encode("utf-8"),
                                         _AAD + b"/record/" + context.encode("utf-8"))
        return f"v1:{nonce.hex()}:{box.hex()}"

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
            if version != "v1":
                raise ValueError(version)
            plain = _aesgcm(self._key).decrypt(bytes.fromhex(nonce), bytes.fromhex(box),
                                               _AAD + b"/record/" + context.encode("utf-8"))
            return json.loads(plain.decode("utf-8"))
        except (InvalidTag, ValueError, TypeError):
            raise VaultError("a secret record does not open with this key (damaged, or moved)") from None

    def unseal(self, sealed: Mapping[str, Any]) -> dict[str, Any]:
        from cryptography.exceptions import InvalidTag

        try:
            phase = str(sealed["phase"])
            plain = _aesgcm(self._key).decrypt(bytes.fromhex(str(sealed["nonce"])), bytes.fromhex(str(sealed["box"])),
                                               _AAD + phase.encode("utf-8"))
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
    """The save dict as written under ``vault``: public part, wrapped key and one box."""
    public, secret = split_secrets(data)
    table = public.get("table")
    if not isinstance(table, dict):
        table = public["table"] = {}
    table[VAULT_KEY] = dict(vault.wrapped)
    table[SECRETS_KEY] = vault.seal(secret, _phase_of(public))
    return public


def is_locked(data: Mapping[str, Any]) -> bool:
    table = data.get("table") if isinstance(data, Mapping) else None
    return isinstance(table, Mapping) and isinstance(table.get(SECRETS_KEY), Mapping) \
        and isinstance(table.get(VAULT_KEY), Mapping)


def unlock(data: dict[str, Any], passphrase: str | None = None, vault: Vault | None = None) -> Vault | None:
    """Open a locked save dict in place: with ``vault`` (the one in memory) or ``passphrase``.
    Without either, the public part is what opens (the box is kept in the table, unread, so that
    nothing is lost: returns None).  A box written for another phase than the file's is dropped
    (it cannot belong to it).
    VaultError: the passphrase is wrong or the box is damaged (``data`` is then not changed)."""
    if not is_locked(data):
        return vault
    table = data["table"]
    if vault is None and passphrase is not None:
        vault = Vault.open(table[VAULT_KEY], passphrase)
    if vault is None:
        return None
    sealed = table[SECRETS_KEY]
    if str(sealed.get("phase")) != _phase_of(data):
        table.pop(SECRETS_KEY, None)
        return vault
    secret = vault.unseal(sealed)
    merge_secrets(data, secret)
    return vault
