"""Finding 5 of issue 20: ``render`` of a ``serve`` save drew every unrevealed phone order."""

from __future__ import annotations

from pathlib import Path

from diplomacy_desktop.cli import main
from diplomacy_desktop.engine.rules import RuleSet
from diplomacy_desktop.host.table import TableHost


def test_render_a_serve_save_hides_the_phones_unrevealed_orders(qapp: object, tmp_path: Path) -> None:
    from diplomacy_desktop.gui.board.render import read_picture

    path = tmp_path / "served.dipl"
    host = TableHost.open_or_new(path)
    host.set_order_text(host.token_of("france"), "france", "S1901M", "A Par - Bur")
    host.set_order_text(host.token_of("germany"), "germany", "S1901M", "A Mun - Ruh")
    host.save()
    rules = RuleSet.for_edition("classic")
    assert read_picture(path, None, False, rules).orders == ()  # type: ignore[attr-defined]
    assert len(read_picture(path, None, False, rules, reveal=True).orders) == 2  # type: ignore[attr-defined]
    out = tmp_path / "board.png"
    assert main(["render", str(path), "-o", str(out), "--size", "400x300"]) == 0
