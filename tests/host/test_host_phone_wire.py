"""The phone page on the wire (issue 34, findings 11 and 12), in a real headless Chromium emulating
a 412x915 touch phone against a ``serve`` host on 127.0.0.1:

- the page (HTML, script, style and the map) is under 120 KB on the wire, gzipped, and a reload
  revalidates every file by its hash (ETag) instead of fetching it again;
- the connection badge leaves "live" within a second of the host going, and says "live" again
  within a second of the host being back (it stayed "host unreachable" for 6 s and more).

Skipped, saying why, where no chromium is installed."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from browsers import needs_browser
from serving import ServeProcess, free_port

pytest.importorskip("selenium.webdriver", reason="the browser test needs selenium (pip install selenium)")
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from test_host_phone_fingers import mobile_phone

pytestmark = needs_browser
WIRE_BUDGET = 120 * 1024  # bytes on the wire for the whole page, map included


def badge(driver: Any) -> str:
    return str(driver.find_element(By.ID, "link").text)


def page_loaded(driver: Any) -> None:
    WebDriverWait(driver, 30).until(lambda d: badge(d) == "live" and d.execute_script(
        "return !!document.querySelector('#map svg')"), "the page, its map and a live link")


def transfers(driver: Any) -> dict[str, int]:
    """Bytes each of the page's own files took on the wire (Resource Timing), by path."""
    rows = driver.execute_script("""
        const nav = performance.getEntriesByType('navigation').map(e => [location.pathname, e.transferSize]);
        const res = performance.getEntriesByType('resource').filter(e => e.initiatorType !== 'fetch'
            || e.name.endsWith('/map.svg')).map(e => [new URL(e.name).pathname, e.transferSize]);
        return nav.concat(res);""")
    return {str(path): int(size) for path, size in rows}


def test_phone_page_is_small_on_the_wire_and_revalidated_by_hash(tmp_path: Path) -> None:
    host = ServeProcess(tmp_path / "wire.dipl", free_port())
    driver = mobile_phone(Path(tempfile.mkdtemp(dir=tmp_path)))
    try:
        driver.get(host.links["france"])
        page_loaded(driver)
        first = transfers(driver)
        assert {"/static/phone.js", "/static/phone.css", "/map.svg"} <= set(first), first
        total = sum(first.values())
        assert total < WIRE_BUDGET, f"{total} bytes on the wire (budget {WIRE_BUDGET}): {first}"
        # a reload asks by hash: each file answers 304 with headers only, a few hundred bytes
        driver.refresh()
        page_loaded(driver)
        again = transfers(driver)
        for path in ("/static/phone.js", "/static/phone.css", "/map.svg"):
            assert again[path] < 1000, f"{path} fetched again ({again[path]} bytes), not revalidated: {again}"
    finally:
        driver.quit()
        host.kill()


def test_phone_badge_follows_the_connection_within_a_second(tmp_path: Path) -> None:
    game, port = tmp_path / "badge.dipl", free_port()
    host = ServeProcess(game, port)
    driver = mobile_phone(Path(tempfile.mkdtemp(dir=tmp_path)))
    try:
        driver.get(host.links["france"])
        page_loaded(driver)
        host.kill()
        gone = time.monotonic()
        WebDriverWait(driver, 5, poll_frequency=0.05).until(lambda d: badge(d) != "live", "the badge to notice")
        assert time.monotonic() - gone < 1.0, "the badge said live for a second after the host went"
        time.sleep(8)  # a long outage: the phone has been retrying all along
        host = ServeProcess(game, port)
        back = time.monotonic()
        WebDriverWait(driver, 10, poll_frequency=0.05).until(lambda d: badge(d) == "live", "the badge back")
        took = time.monotonic() - back
        assert took < 1.0, f"the badge said live {took:.1f} s after the host was back"
    finally:
        driver.quit()
        host.kill()


def test_two_power_players_links_say_they_cover_both(tmp_path: Path) -> None:
    """Finding 13: the printed links of a player holding two powers say that either covers both,
    and the phone opened with either link gives both powers' orders."""
    host = ServeProcess(tmp_path / "two.dipl", free_port(), "--player", "england=Ann", "--player", "russia=Ann")
    driver = mobile_phone(Path(tempfile.mkdtemp(dir=tmp_path)))
    try:
        lines = {p: next(line for line in host.output if host.links[p] in line) for p in ("england", "russia", "france")}
        for p in ("england", "russia"):
            assert "covers both powers: England and Russia" in lines[p], lines[p]
        assert "covers" not in lines["france"]
        driver.get(host.links["russia"])
        page_loaded(driver)
        assert driver.find_element(By.ID, "who").text == "Ann: England, Russia"
    finally:
        driver.quit()
        host.kill()


def test_a_tap_on_a_bar_drops_the_half_tapped_order_and_no_target_hides_under_the_header(tmp_path: Path) -> None:
    """Finding 9: with the page scrolled a little, move targets lay under the sticky header; a tap
    there did nothing and said nothing, and the pending move took the next tap on the player's
    own A Berlin (``A Mun - Ber``)."""
    from test_host_browser import tap_mark, touch

    host = ServeProcess(tmp_path / "bars.dipl", free_port())
    driver = mobile_phone(Path(tempfile.mkdtemp(dir=tmp_path)))
    try:
        driver.get(host.links["germany"])
        page_loaded(driver)
        tap_mark(driver, "mun", 4, -3)
        WebDriverWait(driver, 10).until(lambda d: "A Munich" in d.find_element(By.ID, "prompt").text, "A Mun chosen")
        driver.execute_script("window.scrollBy(0, 150)")  # the thumb scrolled the page a little
        driver.execute_script("[...document.querySelectorAll('#choices button')].find(b => b.textContent === 'Move')"
                              ".click()")
        WebDriverWait(driver, 10).until(lambda d: "Tap where it goes" in d.find_element(By.ID, "prompt").text)
        header = driver.execute_script("return document.getElementById('top').getBoundingClientRect().bottom")
        mapbox = driver.execute_script("return document.getElementById('mapbox').getBoundingClientRect().top")
        assert mapbox >= header, f"the map's top ({mapbox}) is under the sticky header (to {header})"
        touch(driver, 200, header / 2)  # a thumb on the header, where a target seemed to be
        WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "prompt").text == "", "the move dropped")
        assert "not given" in driver.find_element(By.ID, "msg").text
        tap_mark(driver, "ber", 4, -3)
        WebDriverWait(driver, 10).until(lambda d: "A Berlin" in d.find_element(By.ID, "prompt").text, "A Ber chosen")
        assert not driver.find_elements(By.CSS_SELECTOR, "#order-list .order"), "an order was given"
    finally:
        driver.quit()
        host.kill()


LABEL_AIMS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def label_aims(driver: Any, locs: list[str], off: float = 19.0) -> list[tuple[str, float, float]]:
    """Points ``off`` px from the edge of each province's name, in 8 directions (on the screen)."""
    aims = []
    for loc in locs:
        r = driver.execute_script("const t = document.querySelector('#map svg #label_' + arguments[0]);"
                                  "if (!t) return null; const r = t.getBoundingClientRect();"
                                  "return [r.left, r.top, r.right, r.bottom];", loc)
        assert r is not None, f"no label for {loc}"
        cx, cy = (r[0] + r[2]) / 2, (r[1] + r[3]) / 2
        for dx, dy in LABEL_AIMS:
            k = off / (2 ** 0.5) if dx and dy else off
            x = (r[2] if dx > 0 else r[0] if dx < 0 else cx) + dx * k
            y = (r[3] if dy > 0 else r[1] if dy < 0 else cy) + dy * k
            aims.append((loc, x, y))
    return aims


def test_a_tap_near_a_provinces_name_means_that_province(tmp_path: Path) -> None:
    """Finding 10: aiming at a province's name missed 10.5% of taps at 20 px (Rome, Apulia, Naples,
    Tuscany, Venice worst), 15 of them gave an order somewhere else.  Every aim 19 px from a
    target's name, in 8 directions, means that target; one zoom step keeps the names on screen."""
    from test_host_browser import tap_mark

    host = ServeProcess(tmp_path / "labels.dipl", free_port())
    driver = mobile_phone(Path(tempfile.mkdtemp(dir=tmp_path)))
    misses: list[str] = []
    aimed = asks = 0
    try:
        driver.get(host.links["italy"])
        page_loaded(driver)
        WebDriverWait(driver, 20).until(lambda d: d.execute_script("return window.phonePad.ready()"), "options")
        for unit, targets in (("nap", ["rom", "apu", "tys", "ion"]), ("ven", ["tus", "rom", "apu", "pie", "tyr"]),
                              ("rom", ["tus", "ven", "apu", "nap"])):
            tap_mark(driver, unit)
            WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.XPATH, "//div[@id='choices']/button[.='Move']"))
            driver.execute_script("[...document.querySelectorAll('#choices button')].find(b => b.textContent === 'Move')"
                                  ".click()")
            WebDriverWait(driver, 10).until(lambda d: d.execute_script("return window.phonePad.step()") == "dest")
            box = driver.execute_script("return window.phonePad.box()")
            for loc, x, y in label_aims(driver, targets):
                if not (box["left"] < x < box["right"] and box["top"] < y < box["bottom"]):
                    continue  # off the map's box: a finger cannot aim there
                aimed += 1
                got = driver.execute_script("return window.phonePad.resolve(arguments[0], arguments[1])", x, y)
                asks += "ask" in got
                if got.get("pick") != loc and loc not in got.get("ask", []):
                    misses.append(f"{unit} -> {loc} at ({x:.0f}, {y:.0f}): {got}")
            driver.find_element(By.ID, "zoom-in").click()  # one zoom step: the names stay on screen
            box = driver.execute_script("return window.phonePad.box()")
            for loc in targets:
                r = driver.execute_script("const r = document.querySelector('#map svg #label_' + arguments[0])"
                                          ".getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];", loc)
                if not (box["left"] <= r[0] and r[2] <= box["right"] and box["top"] <= r[1] and r[3] <= box["bottom"]):
                    misses.append(f"{unit}: {loc}'s name off screen after one zoom step")
            driver.execute_script("[...document.querySelectorAll('#choices button')].find(b => b.textContent === "
                                  "'Cancel').click()")
        assert aimed >= 80, f"only {aimed} aims on the map"
        assert not misses, f"{len(misses)} of {aimed} aims missed: {misses}"
        assert asks <= aimed // 5, f"{asks} of {aimed} aims asked which"
    finally:
        driver.quit()
        host.kill()
