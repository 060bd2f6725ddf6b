"""The phones' results carry the piece pusher's list; a table on its own board hides the phones' map."""

from __future__ import annotations

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.host.table import TableHost
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.notation import parse_order


def test_host_pieces_list_in_the_results_after_the_reveal() -> None:
    game = Game.new(load_board())
    host = TableHost(game, {})
    assert host.public_state()["results"] is None and host.public_state()["map_hidden"] is False
    for power, text in (("turkey", "F Ank - Con"), ("turkey", "A Con - Bul"), ("turkey", "A Smy - Ank")):
        game.set_order(parse_order(text, power, game.state))
    game.adjudicate()
    pieces = host.public_state()["results"]["pieces"]
    assert pieces["phase"] == "S1901M" and pieces["rings"] == 0
    texts = [s["text"] for s in pieces["steps"]]
    assert texts == ["Move Turkey's army from Constantinople to Bulgaria",
                     "Move Turkey's fleet from Ankara to Constantinople",
                     "Move Turkey's army from Smyrna to Ankara"]
    host.table["hide_map"] = True
    assert host.public_state()["map_hidden"] is True


def test_host_pieces_page_shows_the_list_and_hides_the_map() -> None:
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "diplomacy_desktop" / "host" / "page"
    html = (page / "index.html").read_text(encoding="utf-8")
    js = (page / "phone.js").read_text(encoding="utf-8")
    assert '<section id="pieces" hidden>' in html and 'id="piece-list"' in html
    assert "showPieces(r)" in js and '$("mapbox").hidden = !!state.map_hidden' in js
