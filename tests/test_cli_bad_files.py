"""``adjudicate`` and ``render`` on bad inputs and failing outputs (issue 8, "Bad files and
faults"): one message each, ``--json`` always JSON, bounded time, memory and output, and no
truncated output taken for success."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from diplomacy_desktop import cli

ROOT = Path(__file__).resolve().parents[1]
BAD = ROOT / "tests" / "bad_cases"
ONE = (BAD / "bom.txt").read_bytes()[3:].decode("utf-8")  # one plain case


def run(path: Path, *args: str, command: str = "adjudicate", stdout: object = subprocess.PIPE,
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "diplomacy_desktop.cli", command, str(path), *args],
                          check=False, env=env, stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=timeout)


def no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr and "Traceback" not in (proc.stdout or ""), proc.stderr


# file -> (exit code, the error of each record in order; None for an adjudicated case)
CASE_FILES = {
    "year_superscript.txt": (1, ["line 2: the year '19\u00b21' is not a year from 1 to 9999 (written with the digits 0-9)"]),
    "year_1500_digits.txt": (1, ["line 2: the year '" + "1" * 40 + "...' is not a year from 1 to 9999 "
                                 "(written with the digits 0-9)"]),
    "year_5000_digits.txt": (1, ["line 2 is 5,035 characters long; a line of a case file may have at most 2,000"]),
    "crlf_tab_empty_case.txt": (1, [None, None, "line 19: case 'case at line 19' has no END (the file ends first)"]),
    "bom.txt": (0, [None]),
    "utf16.txt": (2, ["utf16.txt: UTF-16 is not supported, save as UTF-8"]),
    "binary.dat": (2, ["binary.dat: not a text file"]),
}


def test_cli_bad_files_every_file_of_the_folder_is_covered() -> None:
    assert sorted(p.name for p in BAD.iterdir()) == sorted(CASE_FILES)


@pytest.mark.parametrize("jobs", ["1", "3"])
@pytest.mark.parametrize("name", sorted(CASE_FILES))
def test_cli_bad_files_json_is_one_record_per_case_and_parses(name: str, jobs: str) -> None:
    path = BAD / name
    before = path.read_bytes()
    proc = run(path, "--json", "--jobs", jobs)
    no_traceback(proc)
    code, errors = CASE_FILES[name]
    assert proc.returncode == code
    records = json.loads(proc.stdout)
    assert [r.get("error") for r in records] == errors
    if code == 2:  # the whole file: one line on stderr too, and no case named
        assert records[0]["case"] is None and proc.stderr == f"diplomacy-desktop: {errors[0]}\n"
    assert path.read_bytes() == before


@pytest.mark.parametrize("name", ["binary.dat", "utf16.txt"])
def test_cli_bad_files_text_output_says_it_once(name: str) -> None:
    proc = run(BAD / name)
    no_traceback(proc)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == f"diplomacy-desktop: {CASE_FILES[name][1][0]}\n"


def test_cli_bad_files_empty_file_under_jobs(tmp_path: Path) -> None:
    for content in (b"", b"\r\n\t\r\n\t"):
        path = tmp_path / "empty.txt"
        path.write_bytes(content)
        proc = run(path, "--json", "--jobs", "4")
        no_traceback(proc)
        assert (proc.returncode, json.loads(proc.stdout)) == (1, [])


def test_cli_bad_files_a_huge_jobs_number_is_capped(tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text(ONE * 3, encoding="utf-8")
    proc = run(path, "--json", "--jobs", "100000000", timeout=60)
    no_traceback(proc)
    assert proc.returncode == 0 and len(json.loads(proc.stdout)) == 3
    assert run(path, "--jobs", "-2").stderr.startswith("diplomacy-desktop: --jobs must be 0")


def test_cli_bad_files_a_10_mb_order_line_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "long.txt"
    path.write_text(ONE.replace("A par-bur", "A par-bur" + " x" * 5_000_000) + ONE.replace("one", "two"),
                    encoding="utf-8")
    proc = run(path, "--json")
    no_traceback(proc)
    records = json.loads(proc.stdout)
    assert records[0] == {"case": "one", "error": "line 6 is 10,000,018 characters long; a line of a case file "
                                                  "may have at most 2,000"}
    assert "orders" in records[1]  # the next case is adjudicated
    assert len(proc.stdout) < 2000  # never echoed


def test_cli_bad_files_stray_lines_are_one_error(tmp_path: Path) -> None:
    path = tmp_path / "stray.txt"
    path.write_text("stray words here\n" * 300_000 + ONE + "more\n" * 3, encoding="utf-8")
    proc = run(path, "--json", "--jobs", "2")
    no_traceback(proc)
    records = json.loads(proc.stdout)
    assert [r.get("error") for r in records] == [
        "lines 1-300000: 300,000 lines outside a CASE ... END block (the first: 'stray words here')", None,
        "lines 300010-300012: 3 lines outside a CASE ... END block (the first: 'more')"]
    assert len(proc.stdout) < 2000


def test_cli_bad_files_a_big_mutated_file_still_gives_json(tmp_path: Path) -> None:
    import random

    rng = random.Random(10)
    cases = (ROOT / "lessons" / "datc_v3_6A.txt").read_bytes()
    data = bytearray(cases * (2_000_000 // len(cases)))
    for _ in range(3000):  # bytes flipped, lines broken and joined, all over the file
        data[rng.randrange(len(data))] = rng.choice(b"\r\n\t :#-\xff\xc3" + bytes([rng.randrange(32, 127)]))
    text = bytes(data).replace(b"1901", b"19\xc2\xb21", 3).replace(b"1901", b"7" * 1500, 3)  # 19²1
    path = tmp_path / "mutated.txt"
    path.write_bytes(text)
    one = run(path, "--json", "--jobs", "1")
    no_traceback(one)
    records = json.loads(one.stdout)
    assert len(records) > 500 and any("error" in r for r in records) and any("orders" in r for r in records)
    many = run(path, "--json", "--jobs", "3")
    assert (many.returncode, many.stdout) == (one.returncode, one.stdout)


# -- output that cannot be written ----------------------------------------------------------------------


@pytest.mark.parametrize("flag", [(), ("--json",)], ids=["text", "json"])
def test_cli_bad_files_dev_full_is_one_line_and_exit_1(flag: tuple[str, ...]) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        proc = run(BAD / "bom.txt", *flag, stdout=full)
    assert proc.returncode == 1
    assert proc.stderr == "diplomacy-desktop: cannot write the output: No space left on device\n"


def test_cli_bad_files_a_disk_that_fills_up_midway_is_not_success(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """With 20 KB left: the first write is short, the next fails; Python's own buffered stdout
    would drop the rest and exit 0 with a truncated file."""
    path = tmp_path / "many.txt"
    path.write_text("".join(ONE.replace("CASE one", f"CASE c{i}") for i in range(300)), encoding="utf-8")
    out_path = tmp_path / "out.json"
    room = [20_000]

    def filling_write(fd: int, data: bytes) -> int:
        if room[0] <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        n = min(len(data), room[0])
        room[0] -= n
        return real_write(fd, bytes(data[:n]))

    real_write = os.write
    with open(out_path, "w", encoding="utf-8") as out:
        monkeypatch.setattr(sys, "stdout", out)
        monkeypatch.setattr(cli.os, "write", filling_write)
        monkeypatch.setattr(cli, "_drop_stdout", lambda: None)
        try:
            code = cli.main(["adjudicate", str(path), "--json", "--jobs", "1"])
        finally:
            import gc

            gc.enable()
    assert code == 1
    assert capsys.readouterr().err == "diplomacy-desktop: cannot write the output: No space left on device\n"
    assert out_path.stat().st_size == 20_000


def test_cli_bad_files_render_on_a_full_disk_leaves_no_picture(tmp_path: Path, full_disk: None,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "pic.png"
    old = tmp_path / "old.png"
    old.write_bytes(b"the previous picture")
    for target in (out, old):
        code = cli.main(["render", str(BAD / "bom.txt"), "-o", str(target), "--size", "200x150"])
        assert code == 1
        assert capsys.readouterr().err == f"diplomacy-desktop: cannot write {target}: no space left\n"
    assert not out.exists() and old.read_bytes() == b"the previous picture"
    assert sorted(os.listdir(tmp_path)) == ["old.png"]  # no temporary file left either


def test_cli_bad_files_a_case_that_breaks_the_adjudicator_is_one_error_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import gc

    from diplomacy_desktop.io import caserun

    real = caserun.run_case

    def run_case(sc, board, rules):  # type: ignore[no-untyped-def]
        if sc.name == "two":
            raise RuntimeError("a bug")
        return real(sc, board, rules)

    monkeypatch.setattr(caserun, "run_case", run_case)
    path = tmp_path / "three.txt"
    path.write_text(ONE + ONE.replace("one", "two") + ONE.replace("one", "three"), encoding="utf-8")
    try:
        code = cli.main(["adjudicate", str(path), "--json", "--jobs", "1"])
    finally:
        gc.enable()
    records = json.loads(capsys.readouterr().out)
    assert code == 1 and [r["case"] for r in records] == ["one", "two", "three"]
    assert records[1] == {"case": "two", "error": "internal error, please report it: RuntimeError: a bug"}
    assert "orders" in records[0] and "orders" in records[2]
