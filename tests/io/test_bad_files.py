"""Damaged and foreign saved games (issue 8, "Bad files and faults"): each is refused with one
message naming the field and what was expected, and the file is left byte for byte as it was."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.savefile import SaveFileError, load_game, save_game, stale_temp_files, write_atomic
from diplomacy_desktop.io.saveschema import schema

BAD = Path(__file__).resolve().parent / "bad_saves"
DAMAGED = "the saved game is damaged: "
POWERS = "a power of this map (austria, england, france, germany, italy, russia, turkey)"

# file in bad_saves/ -> the whole message
EXPECTED = {
    "version_5000_digits.json": "$.version: expected format version 1, found a number of 5000 digits",
    "end_year_1e400.json": "$.end_year: expected a year from 1 to 9999, or null, found a number too large to read",
    "year_1e400.json": "$.history[0].state.phase.year: expected a year from 1 to 9999, found a number too large to read",
    "destination_float.json": '$.current.orders[0].destination: expected a space id such as "bur" or "stp/nc", found 3.5',
    "destination_list.json":
        '$.current.orders[0].destination: expected a space id such as "bur" or "stp/nc", found a list',
    "destination_xyz.json": '$.current.orders[0].destination: expected a space of this map, found the text "xyz"',
    "draw_string.json": '$.draw: expected a list of powers, or null, found the text "france"',
    "draw_unknown_power.json": f'$.draw[1]: expected {POWERS}, found the text "narnia"',
    "clock_list.json": "$.table.clock: expected the clock settings (an object of minutes), found a list",
    "clock_state_list.json": "$.table.clock_state: expected the clock's state (an object), found a list",
    "pins_list.json": "$.table.pins: expected an object of power: PIN hash, found a list",
    "host_pin_plain.json": '$.table.host_pin: expected a PIN hash ("scrypt$..." or "pbkdf2_sha256$...") or null, found the text "4321"',
    "hotseat_order_int.json": '$.table.hotseat.order[7]: expected a power id such as "france", found 3',
    "hotseat_ready_unsealed.json":
        '$.table.hotseat.stage: expected "curtain" while not every power has sealed, found the text "ready"',
    "orders_int.json": '$.current.orders[3]: expected an order: {"power", "kind", ...}, found 3',
}


def test_bad_files_every_file_of_the_folder_is_covered() -> None:
    assert sorted(p.name for p in BAD.glob("*.json")) == sorted([*EXPECTED, "good.json"])


def test_bad_files_the_good_one_loads_with_its_table() -> None:
    game, table = load_game(BAD / "good.json")
    assert game.state.phase.label.startswith("Fall 1901")
    assert table["host_pin"].startswith("pbkdf2_sha256$") and set(table["pins"]) == {"turkey"}
    assert table["hotseat"]["stage"] == "curtain" and table["clock_state"]["status"] in ("idle", "off")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_files_saved_game_is_refused_with_one_message_and_left_alone(name: str, tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_bytes((BAD / name).read_bytes())
    before = path.read_bytes()
    with pytest.raises(SaveFileError) as info:
        load_game(path)
    assert str(info.value) == DAMAGED + EXPECTED[name]
    assert "\n" not in str(info.value)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == [name]


def _good_text() -> str:
    return (BAD / "good.json").read_text(encoding="utf-8")


@pytest.mark.parametrize(("content", "message"), [
    (b"", "the file is empty"),
    (b"  \n\n", "the file holds only blank space"),
    (b"[" * 20_000 + b"]" * 20_000, "not a saved game: its brackets are nested too deeply"),
    (b'{"format": "diplomacy-desktop-game", "version": 1, "table": {"x": ' + b"[" * 20_000 + b"]" * 20_000 + b"}}",
     "not a saved game: its brackets are nested too deeply"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "this is not a saved game: it is not a text file"),
    (b"caf\xe9 au lait", "this is not a saved game: it is not a text file (or not UTF-8)"),
    ('{"format": 1}'.encode("utf-16"), "UTF-16 is not supported, save as UTF-8"),
    (b'{"version": NaN}', "not a saved game: NaN is not a JSON number"),
    (b"CASE 6.A.1\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n  England: F nth\nORDERS\nEND\n",
     ('this is a DATC scenario file, not a saved game: check it with "diplomacy-desktop adjudicate FILE", '
      'or draw it with "diplomacy-desktop render FILE -o picture.png"')),
    (b'{"format": "diplomacy-desktop-game", "vers', "not a saved game: the JSON is broken at line 1, column 38"),
], ids=["empty", "blank", "nested", "nested-in-table", "png", "latin-1", "utf-16", "nan", "scenario", "truncated"])
def test_bad_files_foreign_files_say_what_they_are(content: bytes, message: str, tmp_path: Path) -> None:
    path = tmp_path / "picture.dipl"
    path.write_bytes(content)
    with pytest.raises(SaveFileError) as info:
        load_game(path)
    assert str(info.value) == message
    assert "picture.dipl" not in str(info.value)  # the window adds the name once
    assert path.read_bytes() == content


def test_bad_files_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + _good_text().encode("utf-8"))
    game, _ = load_game(path)
    assert game.state.phase.year == 1901


def test_bad_files_unknown_table_keys_are_kept_known_ones_are_strict(tmp_path: Path) -> None:
    data = json.loads(_good_text())
    data["table"]["a_later_setting"] = {"anything": [1, 2]}
    _, table = load_game(_write(tmp_path, data))
    assert table["a_later_setting"] == {"anything": [1, 2]}
    data["table"]["secrecy"] = "yes"
    with pytest.raises(SaveFileError, match=r"^the saved game is damaged: \$\.table\.secrecy: expected true or false"):
        load_game(_write(tmp_path, data))


def test_bad_files_game_parts_allow_no_unknown_field(tmp_path: Path) -> None:
    data = json.loads(_good_text())
    data["current"]["state"]["units"][0]["colour"] = "red"
    with pytest.raises(SaveFileError) as info:
        load_game(_write(tmp_path, data))
    assert str(info.value) == (DAMAGED + "$.current.state.units[0].colour is not a field here "
                               "(expected only power, type, location)")


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "x.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_bad_files_schema_is_package_data_and_a_valid_schema() -> None:
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(schema())
    assert schema()["properties"]["version"]["maximum"] == 1
    # a wheel (non-editable install) and the PyInstaller bundle carry the schema file
    import tomllib

    root = Path(__file__).resolve().parents[2]
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    assert "diplomacy_desktop.io" in project["tool"]["setuptools"]["packages"]
    assert "*.schema.json" in project["tool"]["setuptools"]["package-data"]["diplomacy_desktop.io"]
    assert any(d.startswith("jsonschema") for d in project["project"]["dependencies"])
    assert "savegame.schema.json" in (root / "packaging" / "diplomacy_desktop.spec").read_text(encoding="utf-8")


# -- saving over a file ---------------------------------------------------------------------------


def test_bad_files_saving_through_a_symlink_updates_its_target(tmp_path: Path) -> None:
    game = Game.new(load_board())
    real = tmp_path / "games" / "real.json"
    real.parent.mkdir()
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    save_game(link, game)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert load_game(real)[0].state == game.state
    assert sorted(os.listdir(real.parent)) == ["real.json"]


def test_bad_files_saving_over_a_file_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "shared.json"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o644)
    save_game(path, Game.new(load_board()))
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    new = tmp_path / "new.json"
    old_umask = os.umask(0o022)
    try:
        write_atomic(new, "{}")
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o644


def test_bad_files_stale_temp_files_are_only_ours_and_old(tmp_path: Path) -> None:
    target = tmp_path / "autosave.json"
    old = tmp_path / ".autosave.json.abc123.tmp"
    fresh = tmp_path / ".autosave.json.def456.tmp"
    other = tmp_path / ".other.json.abc.tmp"
    unrelated = tmp_path / "notes.tmp"
    for p in (old, fresh, other, unrelated):
        p.write_text("x", encoding="utf-8")
    past = time.time() - 3600
    for p in (old, other, unrelated):
        os.utime(p, (past, past))
    assert stale_temp_files(target) == [old]


def test_bad_files_hot_seat_notices_and_host_pin_are_checked(tmp_path: Path) -> None:
    data = json.loads(_good_text())
    data["table"]["host_pin"] = "pbkdf2_sha256$1$00$00"
    data["table"]["hotseat"] = {"phase": "S1901M", "stage": "curtain", "notices": ["Austria was reopened."]}
    _, table = load_game(_write(tmp_path, data))
    assert table["hotseat"]["notices"] == ["Austria was reopened."]
    data["table"]["hotseat"]["notices"] = "Austria was reopened."
    with pytest.raises(SaveFileError, match=r"\$\.table\.hotseat\.notices: expected a list of notices"):
        load_game(_write(tmp_path, data))
    data["table"]["hotseat"]["notices"] = []
    data["table"]["host_pin"] = "1234"
    with pytest.raises(SaveFileError, match=r"\$\.table\.host_pin"):
        load_game(_write(tmp_path, data))
