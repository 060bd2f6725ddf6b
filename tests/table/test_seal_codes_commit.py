"""Issue 31, finding 2: seal codes that commit.  At the reveal every code shown is recomputed
from the revealed orders and the phase's secret (published with them); a revealed order that
is not the one sealed gives another code, and that is an alarm, never a quiet match.
``diplomacy-desktop verify-seals GAME.dipl`` recomputes every revealed phase's codes from the save."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from diplomacy_desktop.cli import main
from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.board import ARMY
from diplomacy_desktop.engine.orders import Move, SupportHold
from diplomacy_desktop.host.table import TableHost
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.savefile import order_to_dict, save_game
from diplomacy_desktop.table import sealcodes


def _host() -> TableHost:
    return TableHost(Game.new(load_board("standard")), {}, None)


def _seal_all(host: TableHost, *, tamper: bool) -> str:
    """Austria orders A Vie - Tri and seals (the code it is given is returned); with ``tamper``
    the stored order is then put back to an earlier A Vie - Gal (what a row copied back from an
    earlier database does), and everyone else seals: the last seal reveals."""
    t = {p: host.token_of(p) for p in host.game.board.power_ids}
    host.set_order_text(t["austria"], "austria", "S1901M", "A Vie - Tri")
    code = str(host.seal(t["austria"], "austria", "S1901M")["seal_code"])
    if tamper:
        book = host.game.orders["austria"]
        key = next(k for k, o in book.items() if o.location == "vie")
        book[key] = Move("austria", ARMY, "vie", "gal")
    for p in host.owing():
        if p not in host.sealed:
            host.seal(t[p], p, "S1901M")
    return code


def test_seal_codes_commit_a_revealed_order_that_was_not_sealed_is_an_alarm() -> None:
    host = _host()
    given = _seal_all(host, tamper=True)
    shown = host.public_state()["seal_codes"]
    assert shown["phase"] == "S1901M"
    # the code shown is what the revealed orders give, not the one stored at sealing ...
    assert shown["codes"]["austria"] != given
    # ... and the difference is said, naming the power and both codes
    assert "Austria" in shown["alarm"] and given in shown["alarm"] and "DO NOT MATCH" in shown["alarm"]
    entry = host.game.history[-1]
    assert any(isinstance(o, Move) and o.destination == "gal" for o in entry.orders)  # what was revealed


def test_seal_codes_commit_an_honest_reveal_matches_and_publishes_the_secret() -> None:
    host = _host()
    given = _seal_all(host, tamper=False)
    shown = host.public_state()["seal_codes"]
    assert shown["codes"]["austria"] == given and shown["alarm"] == ""
    log = host.table[sealcodes.LOG_KEY]
    assert [e["phase"] for e in log] == ["S1901M"]
    secret = log[0]["secret"]
    # the documented formula: anyone recomputes the code from the revealed orders and the secret
    revealed = sealcodes.orders_by_power(host.game.history[-1].orders)("austria")
    assert sealcodes.seal_code(secret, "austria", "S1901M", revealed) == given


def _saved(tmp_path: Path, *, tamper: bool) -> Path:
    """A game whose Spring 1901 was revealed, Austria having sealed A Vie H; with ``tamper`` the
    saved file says A Vie S A Bud instead (an edit the replay cannot see: the position after it
    is the same)."""
    host = _host()
    t = {p: host.token_of(p) for p in host.game.board.power_ids}
    host.set_order_text(t["austria"], "austria", "S1901M", "A Vie H")
    for p in host.owing():
        host.seal(t[p], p, "S1901M")
    path = tmp_path / "g.dipl"
    save_game(path, host.game, host.table)
    if tamper:
        data = json.loads(path.read_text())
        orders = data["history"][0]["orders"]
        i = next(i for i, o in enumerate(orders) if o["power"] == "austria" and o["location"] == "vie")
        orders[i] = order_to_dict(SupportHold("austria", ARMY, "vie", ARMY, "bud"))
        path.write_text(json.dumps(data, indent=1))
    return path


def test_seal_codes_commit_verify_seals_matches_an_honest_save(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify-seals", str(_saved(tmp_path, tamper=False))]) == 0
    out = capsys.readouterr().out
    assert "S1901M Austria" in out and ": match" in out and "every seal code matches" in out


def test_seal_codes_commit_verify_seals_finds_a_tampered_revealed_order(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify-seals", str(_saved(tmp_path, tamper=True))]) == 1
    out = capsys.readouterr().out
    assert "S1901M Austria: MISMATCH" in out and "1 mismatch" in out
    assert "S1901M France" in out and "France: MISMATCH" not in out  # the others still match


def test_seal_codes_commit_verify_seals_says_where_a_file_is_broken(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    path = _saved(tmp_path, tamper=False)
    lines = path.read_text().splitlines()
    lines[3] = lines[3] + " ,,"
    path.write_text("\n".join(lines))
    assert main(["verify-seals", str(path)]) == 2
    err = capsys.readouterr().err
    assert "line 4" in err and "Traceback" not in err
    path.write_text(json.dumps({**json.loads(_saved(tmp_path, tamper=False).read_text()),
                                "table": {sealcodes.LOG_KEY: [{"phase": "S1901M"}]}}))
    assert main(["verify-seals", str(path)]) == 2
    assert "seal_log[0]" in capsys.readouterr().err
