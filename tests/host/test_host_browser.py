"""Two phone pages in a real headless browser (Debian's chromium through chromedriver, driven by
Selenium) play a Spring and a Fall for France and Germany against a ``serve`` host: orders
tapped on the map and typed, a support, a private note, a retreat and a build; the host is
killed mid-phase and restarted, and the phones reconnect with their sealed orders.  The other
five powers seal through the API.  Skipped, saying why, where no chromium is installed."""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from browsers import CHROMEDRIVER, CHROMIUM, needs_browser
from serving import ServeProcess, free_port

webdriver = pytest.importorskip("selenium.webdriver", reason="the browser test needs selenium (pip install selenium)")
from selenium.common.exceptions import (
    ElementClickInterceptedException,
    ElementNotInteractableException,
    NoSuchElementException,
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

pytestmark = needs_browser
PHONE = (412, 915)  # a common Android phone, portrait
OTHERS = ("austria", "england", "italy", "russia", "turkey")
WAIT = 30


def api(method: str, url: str, token: str, body: Any = None) -> Any:
    async def go() -> Any:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=20)) as s, \
                s.request(method, url, headers={"X-Token": token}, json=body) as r:
            data = await r.json()
            assert r.status == 200, data
            return data

    return asyncio.run(go())


def phone(profile: Path) -> Any:
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                f"--window-size={PHONE[0]},{PHONE[1]}", f"--user-data-dir={profile}"):
        opts.add_argument(arg)
    try:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    except WebDriverException as exc:
        pytest.skip(f"chromium would not start under chromedriver: {exc.msg}")
    driver.set_window_size(*PHONE)
    return driver


@pytest.fixture
def phones(tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    drivers = []
    try:
        for _ in range(2):
            drivers.append(phone(Path(tempfile.mkdtemp(dir=tmp_path))))
        yield drivers[0], drivers[1]
    finally:
        for d in drivers:
            d.quit()


def until(driver: Any, check: Callable[[Any], Any], what: str) -> Any:
    return WebDriverWait(driver, WAIT, ignored_exceptions=(StaleElementReferenceException, NoSuchElementException)
                         ).until(check, message=what)


def phase_is(driver: Any, label: str) -> None:
    until(driver, lambda d: d.find_element(By.ID, "phase").text == label, f"the phone to show {label}")


def press(driver: Any, element: Any) -> None:
    """Scroll ``element`` to the middle of the screen (clear of the sticky header) and tap it."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def tap(driver: Any, css: str) -> None:
    """Tap what ``css`` finds; the map is redrawn whenever the host sends a state, so a tap that
    lands while a mark is being replaced is tried again, as a thumb would."""
    def tapped(d: Any) -> bool:
        try:
            press(d, d.find_element(By.CSS_SELECTOR, css))
        except (ElementNotInteractableException, ElementClickInterceptedException, StaleElementReferenceException, NoSuchElementException):
            return False
        return True

    until(driver, tapped, f"to tap {css}")


def choose(driver: Any, label: str) -> None:
    def button(d: Any) -> Any:
        for b in d.find_elements(By.CSS_SELECTOR, "#choices button"):
            if b.text == label:
                return b
        return False

    press(driver, until(driver, button, f"the choice {label!r}"))


def order_given(driver: Any, text: str) -> None:
    until(driver, lambda d: any(e.get_attribute("data-order") == text
                                for e in d.find_elements(By.CSS_SELECTOR, "#order-list .order")),
          f"{text!r} in the order list")


def tap_order(driver: Any, unit: str, kind: str, *targets: str, pick: str | None = None) -> None:
    """Tap a unit, the kind of order, then each target on the map; ``pick`` a final choice."""
    until(driver, lambda d: d.execute_script("return document.querySelectorAll('.target').length === 0"),
          "no selection in progress")
    tap(driver, f'[data-unit="{unit}"]')
    choose(driver, kind)
    for t in targets:
        tap(driver, f'.target[data-target="{t}"]')
    if pick:
        choose(driver, pick)


def type_order(driver: Any, text: str) -> None:
    box = driver.find_element(By.ID, "typed-text")
    box.clear()
    box.send_keys(text)
    press(driver, driver.find_element(By.CSS_SELECTOR, "#typed button"))
    until(driver, lambda d: d.find_element(By.ID, "msg").text.startswith("Given"), f"{text!r} to be given")


def seal(driver: Any, power: str) -> None:
    before = driver.find_element(By.ID, "phase").text
    press(driver, driver.find_element(By.ID, f"seal-{power}"))
    until(driver, lambda d: d.find_element(By.ID, "phase").text != before  # the last seal: revealed
          or all(b.text.startswith("Unseal") for b in d.find_elements(By.ID, f"seal-{power}")), f"{power} to seal")


def seal_others(host: ServeProcess, phase: str, others: tuple[str, ...] = OTHERS) -> None:
    state = api("GET", f"{host.base}/api/public", host.tokens["england"])
    for p in others:
        if p in state["owing"]:
            api("POST", f"{host.base}/api/seal", host.tokens[p], {"power": p, "phase": phase})


def test_browser_two_phones_play_a_spring_and_a_fall(tmp_path: Path, phones: tuple[Any, Any]) -> None:
    france, germany = phones
    game, port = tmp_path / "table.dipl", free_port()
    shots = tmp_path / "shots"
    shots.mkdir()
    host = ServeProcess(game, port, "--notes")
    try:
        france.get(host.links["france"])
        germany.get(host.links["germany"])
        for d in phones:
            phase_is(d, "Spring 1901 moves")
            until(d, lambda d: d.find_element(By.ID, "link").text == "live", "the live link")

        # the host starts the negotiation clock: every phone shows it, live
        assert host.proc.stdin is not None
        host.proc.stdin.write("clock 15 Talks\n")
        host.proc.stdin.flush()
        for d in phones:
            until(d, lambda d: d.find_element(By.ID, "clock").text.startswith(("Talks 15:00", "Talks 14:")),
                  "the clock on the phone")

        # Spring 1901: taps and a typed order
        tap_order(germany, "germany A mun", "Move", "bur")
        order_given(germany, "A Mun - Bur")
        type_order(germany, "F Kie - Hol")
        order_given(germany, "F Kie - Hol")
        tap_order(france, "france F bre", "Move", "mao")
        order_given(france, "F Bre - Mao")
        assert "Bre - Mao" not in germany.page_source and "Mun - Bur" not in france.page_source
        germany.save_screenshot(str(shots / "1-germany-spring.png"))
        seal(germany, "germany")
        until(france, lambda d: "Germany ✓" in d.find_element(By.ID, "strip").text, "Germany's seal on France's strip")
        assert "Mun - Bur" not in france.page_source and "Kie - Hol" not in france.page_source

        # the host dies mid-phase and comes back: the phones reconnect, the seal holds
        host.kill()
        until(germany, lambda d: d.find_element(By.ID, "link").text != "live", "the phone to notice")
        host = ServeProcess(game, port, "--notes")
        for d in phones:
            until(d, lambda d: d.find_element(By.ID, "link").text == "live", "the phone to reconnect")
        order_given(germany, "A Mun - Bur")
        until(germany, lambda d: d.find_element(By.ID, "seal-germany").text == "Unseal Germany", "the seal kept")
        order_given(france, "F Bre - Mao")

        seal(france, "france")
        seal_others(host, "S1901M")
        for d in phones:
            phase_is(d, "Fall 1901 moves")
        until(france, lambda d: "A Mun - Bur" in d.find_element(By.ID, "result-list").text, "the spring's results")

        # Fall 1901: a supported attack, a private note
        tap_order(france, "france A mar", "Move", "bur")
        order_given(france, "A Mar - Bur")
        tap_order(france, "france A par", "Support", "mar", "bur")
        order_given(france, "A Par S A Mar - Bur")
        tap_order(france, "france F mao", "Move", "por")
        order_given(france, "F Mao - Por")
        france.execute_script("window.scrollTo(0, 0)")
        france.save_screenshot(str(shots / "2-france-fall-orders.png"))
        press(france, france.find_element(By.CSS_SELECTOR, '#note-to input[value="germany"]'))
        france.find_element(By.ID, "note-text").send_keys("Sorry about Burgundy")
        press(france, france.find_element(By.CSS_SELECTOR, "#note-form button"))
        until(germany, lambda d: "Sorry about Burgundy" in d.find_element(By.ID, "note-list").text, "the note")
        england = api("GET", f"{host.base}/api/state", host.tokens["england"])
        assert "Sorry" not in json.dumps(england) and "Mar - Bur" not in json.dumps(england)
        assert "Mar - Bur" not in germany.page_source and "S A Mar" not in germany.page_source
        france.save_screenshot(str(shots / "2-france-fall.png"))
        seal(france, "france")
        seal(germany, "germany")
        seal_others(host, "F1901M")
        for d in phones:
            phase_is(d, "Fall 1901 retreats")
        until(germany, lambda d: "A Par S A Mar - Bur" in d.find_element(By.ID, "result-list").text,
              "the support revealed to Germany after the reveal")

        # the retreat
        tap_order(germany, "germany A bur", "Retreat", "ruh")
        order_given(germany, "A Bur - Ruh")
        seal(germany, "germany")
        for d in phones:
            phase_is(d, "Winter 1901 adjustments")

        # the builds
        tap(france, '.target[data-target="bre"]')
        choose(france, "Fleet")  # "Build what?" offers the army and the fleet at once
        order_given(france, "Build F Bre")
        tap(germany, '.target[data-target="mun"]')
        choose(germany, "Army")  # Munich has no coast: the army is the only choice
        order_given(germany, "Build A Mun")
        germany.save_screenshot(str(shots / "3-germany-builds.png"))
        seal(france, "france")
        seal(germany, "germany")
        for d in phones:
            phase_is(d, "Spring 1902 moves")
        for d, unit in ((france, "france F bre"), (germany, "germany A mun"), (germany, "germany A ruh"),
                        (france, "france A bur"), (france, "france F por")):
            until(d, lambda d, unit=unit: d.find_elements(By.CSS_SELECTOR, f'[data-unit="{unit}"]'), unit)
        france.save_screenshot(str(shots / "4-france-1902.png"))
        assert host.stop() == 0
    finally:
        host.kill()


def test_browser_formal_declarations_are_made_on_the_phones(tmp_path: Path, phones: tuple[Any, Any]) -> None:
    france, germany = phones
    host = ServeProcess(tmp_path / "formal.dipl", free_port(), "--formal")
    try:
        france.get(host.links["france"])
        germany.get(host.links["germany"])
        for d in phones:
            phase_is(d, "Spring 1901 moves")
            until(d, lambda d: d.find_element(By.ID, "declare-body").is_displayed(), "the declarations")
        for d, me, other, word in ((france, "france", "germany", "alliance"), (germany, "germany", "france", "alliance")):
            select = d.find_element(By.CSS_SELECTOR, f'#declare-body select[name="{other}"]')
            d.execute_script("arguments[0].value = arguments[1]", select, word)
            press(d, d.find_element(By.ID, f"declare-{me}"))
        until(germany, lambda d: "France ✓" in d.find_element(By.ID, "strip").text, "France's declaration counted")
        assert "alliance" not in json.dumps(api("GET", f"{host.base}/api/state", host.tokens["england"]))
        for p in OTHERS:
            api("POST", f"{host.base}/api/declare", host.tokens[p], {"power": p, "phase": "S1901M",
                                                                     "declarations": {}})
        for d in phones:
            until(d, lambda d: "France – Germany: alliance" in d.find_element(By.ID, "declare-body").text,
                  "the alliance revealed")
            until(d, lambda d: d.find_elements(By.CSS_SELECTOR, "[id^=seal-]"), "the orders open")
        tap_order(france, "france A par", "Move", "bur")
        order_given(france, "A Par - Bur")
        france.save_screenshot(str(tmp_path / "formal-france.png"))
        assert host.stop() == 0
    finally:
        host.kill()


# -- three phones at 412x915 with touch: France, Germany, and Ann playing England and Russia --------

THIRD = ("austria", "italy", "turkey")  # sealed through the API in the three-phone game
SHOTS_ENV = "PHONE_SHOTS"  # a folder to keep the screenshots in (to look at them); else the test's tmp


def touch_phone(profile: Path) -> Any:
    from test_host_phone_fingers import mobile_phone

    return mobile_phone(profile)


def touch(driver: Any, x: float, y: float) -> None:
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def tap_mark(driver: Any, loc: str, dx: float = 0.0, dy: float = 0.0) -> None:
    """A finger on the map, aimed at the mark of ``loc`` (a unit to order, a place to go), ``dx``,
    ``dy`` px off: the page decides what it meant, as it does for a thumb."""
    def mark(d: Any) -> Any:
        for m in d.execute_script("return window.phonePad.marks()"):
            b = d.execute_script("return window.phonePad.box()")
            if m["loc"] == loc and b["left"] < m["x"] < b["right"] and b["top"] < m["y"] < b["bottom"]:
                return m
        return False

    driver.execute_script("window.scrollTo(0, 0)")
    if not mark(driver) and driver.execute_script("return window.phonePad.step()") is None:
        # a unit of the player's other power (or region): its button of the switch first
        for i, g in enumerate(driver.execute_script("return window.phonePad.groups()")):
            if loc in g["locs"]:
                press(driver, driver.find_element(By.CSS_SELECTOR, f'#groups button[data-group="{i}"]'))
                driver.execute_script("window.scrollTo(0, 0)")
                break
    m = until(driver, mark, f"the mark of {loc} in view")
    touch(driver, m["x"] + dx, m["y"] + dy)


def show_group(driver: Any, label: str) -> None:
    press(driver, until(driver, lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "#groups button")
                                                if b.text == label), False), f"the {label} switch"))


def touch_order(driver: Any, unit: str, kind: str, *targets: str, pick: str | None = None) -> None:
    until(driver, lambda d: d.execute_script("return window.phonePad.step() === null"), "no selection in progress")
    tap_mark(driver, unit, 6, -5)  # a thumb is never exactly on the mark
    if kind:
        choose(driver, kind)
    for t in targets:
        tap_mark(driver, t, -5, 7)
    if pick:
        choose(driver, pick)


def buttons_shown(driver: Any) -> list[str]:
    return [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#choices button")]


def message(driver: Any) -> str:
    return str(driver.find_element(By.ID, "msg").text)


def console(host: ServeProcess, line: str) -> None:
    assert host.proc.stdin is not None
    host.proc.stdin.write(line + "\n")
    host.proc.stdin.flush()


def api_orders(host: ServeProcess, phase: str, orders: dict[str, list[str]]) -> None:
    for power, texts in orders.items():
        for text in texts:
            api("POST", f"{host.base}/api/order", host.tokens[power], {"power": power, "phase": phase, "text": text})


def test_browser_three_touch_phones_play_a_year_one_of_them_two_powers(tmp_path: Path) -> None:
    import os

    shots = Path(os.environ.get(SHOTS_ENV) or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    game, port = tmp_path / "year.dipl", free_port()
    extra = ("--notes", "--player", "england=Ann", "--player", "russia=Ann")
    host = ServeProcess(game, port, *extra)
    drivers: list[Any] = []
    try:
        for _ in range(3):
            drivers.append(touch_phone(Path(tempfile.mkdtemp(dir=tmp_path))))
        ann, france, germany = drivers
        ann.get(host.links["england"])
        france.get(host.links["france"])
        germany.get(host.links["germany"])
        for d in drivers:
            phase_is(d, "Spring 1901 moves")
            until(d, lambda d: d.find_element(By.ID, "link").text == "live", "the live link")
        assert ann.find_element(By.ID, "who").text == "Ann: England, Russia"
        assert [b.text for b in ann.find_elements(By.CSS_SELECTOR, "#groups button")] == ["England", "Russia"]
        ann.save_screenshot(str(shots / "01-ann-first-view.png"))

        # Spring 1901, Ann: moves and a supported move, by touch, on both powers' views
        touch_order(ann, "lon", "Move", "nth")
        order_given(ann, "F Lon - Nth")
        touch_order(ann, "edi", "Move", "nwg")
        order_given(ann, "F Edi - Nwg")
        touch_order(ann, "lvp", "Move", "yor")
        order_given(ann, "A Lvp - Yor")
        show_group(ann, "Russia")
        touch_order(ann, "stp/sc", "Move", "bot")
        order_given(ann, "F StP/sc - Bot")
        touch_order(ann, "mos", "Move", "ukr")
        order_given(ann, "A Mos - Ukr")
        touch_order(ann, "war", "Support", "mos", "ukr")
        order_given(ann, "A War S A Mos - Ukr")
        touch_order(ann, "sev", "Move", "bla")
        order_given(ann, "F Sev - Bla")
        # a mistyped order does not replace the legal one without asking; undo takes it back
        box = ann.find_element(By.ID, "typed-text")
        box.send_keys("A Mos - Ber")
        press(ann, ann.find_element(By.CSS_SELECTOR, "#typed button"))
        until(ann, lambda d: "replace the legal order A Mos - Ukr" in message(d), "the question")
        order_given(ann, "A Mos - Ukr")
        press(ann, until(ann, lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "#msg-actions button")
                                               if b.text == "Replace it"), False), "Replace it"))
        until(ann, lambda d: any("illegal" in e.text for e in d.find_elements(By.CSS_SELECTOR, "#order-list .order.bad")),
              "the illegal order marked")
        press(ann, until(ann, lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "#msg-actions button")
                                               if b.text == "Undo"), False), "Undo"))
        order_given(ann, "A Mos - Ukr")
        assert not ann.find_elements(By.CSS_SELECTOR, "#order-list .order.bad")
        ann.execute_script("window.scrollTo(0, 0)")
        ann.save_screenshot(str(shots / "02-ann-spring-orders.png"))
        seal(ann, "england")
        # a sealed power says so at the first tap (no walking the menu to be refused at the end)
        tap_mark(ann, "lon")
        until(ann, lambda d: message(d) == "England has sealed its orders: unseal to change them.", "sealed said")
        assert ann.execute_script("return window.phonePad.step()") is None and not buttons_shown(ann)
        # a note from the player's other power
        from_power = ann.find_element(By.ID, "note-from")
        ann.execute_script("arguments[0].value = 'russia'", from_power)
        press(ann, ann.find_element(By.CSS_SELECTOR, '#note-to input[value="france"]'))
        ann.find_element(By.ID, "note-text").send_keys("Russia wishes France well")
        press(ann, ann.find_element(By.CSS_SELECTOR, "#note-form button"))
        until(france, lambda d: "Spring 1901 moves — Russia to France: Russia wishes France well"
              in d.find_element(By.ID, "note-list").text, "the note from Russia")

        # France and Germany as in the two-phone game
        touch_order(germany, "mun", "Move", "bur")
        order_given(germany, "A Mun - Bur")
        touch_order(germany, "kie", "Move", "hol")
        order_given(germany, "F Kie - Hol")
        touch_order(germany, "ber", "Move", "sil")
        order_given(germany, "A Ber - Sil")
        touch_order(france, "bre", "Move", "mao")
        order_given(france, "F Bre - Mao")
        for d, p in ((germany, "germany"), (france, "france")):
            seal(d, p)
        api_orders(host, "S1901M", {"austria": ["A Vie - Gal"]})
        seal_others(host, "S1901M", THIRD)

        # a reveal while Ann is mid-edit (the host forces it: Russia has not sealed)
        touch_order(ann, "sev", "Move")
        until(ann, lambda d: d.execute_script("return window.phonePad.step()") == "dest", "Ann choosing where")
        ann.find_element(By.ID, "typed-text").send_keys("A War - Gal")
        console(host, "reveal")
        for d in drivers:
            phase_is(d, "Fall 1901 moves")
        until(ann, lambda d: message(d) == "Spring 1901 moves was adjudicated: your unfinished order was not given.",
              "the reveal said")
        assert ann.find_element(By.ID, "typed-text").get_attribute("value") == ""
        assert ann.execute_script("return window.phonePad.step()") is None
        assert not ann.find_elements(By.CSS_SELECTOR, ".target")
        until(france, lambda d: message(d).startswith("Spring 1901 moves was adjudicated."), "the reveal on France")
        ann.execute_script("window.scrollTo(0, 0)")
        ann.save_screenshot(str(shots / "03-ann-reveal-mid-edit.png"))

        # the spring's results, on the map
        press(france, france.find_element(By.ID, "mode"))
        until(france, lambda d: d.find_elements(By.CSS_SELECTOR, "#overlay path") and
              "Results: Spring 1901 moves" in d.find_element(By.ID, "results-title").text, "the results drawn")
        assert "A Mun - Bur" in france.find_element(By.ID, "result-list").text
        france.execute_script("window.scrollTo(0, 0)")
        france.save_screenshot(str(shots / "04-france-spring-results.png"))
        press(france, france.find_element(By.ID, "mode"))

        # Fall 1901: the host dies while Ann builds a convoy; the tap is kept and sent on return
        console(host, "clock 10 Talks")
        until(ann, lambda d: d.find_element(By.ID, "clock").text.startswith(("Talks 10:00", "Talks 9:")), "the clock")
        show_group(ann, "England")
        touch_order(ann, "yor", "Move", "nwy")
        order_given(ann, "A Yor - Nwy via convoy")
        touch_order(ann, "nwg", "Support", "nth", "nth")
        order_given(ann, "F Nwg S F Nth")
        touch_order(ann, "nth", "Convoy", "yor")
        until(ann, lambda d: d.execute_script("return window.phonePad.step()") == "dest2", "where the army goes")
        host.kill()
        until(ann, lambda d: d.find_element(By.ID, "link").text != "live", "the phone to notice")
        tap_mark(ann, "nwy")
        until(ann, lambda d: "will be sent when it is back" in message(d), "the tap kept")
        assert "not sent yet" in ann.find_element(By.ID, "order-list").text
        assert "live" not in ann.find_element(By.ID, "link").text
        ann.execute_script("window.scrollTo(0, 0)")
        ann.save_screenshot(str(shots / "05-ann-host-down.png"))
        host = ServeProcess(game, port, *extra)
        until(ann, lambda d: d.find_element(By.ID, "link").text == "live", "the phone to reconnect")
        order_given(ann, "F Nth C A Yor - Nwy")
        until(ann, lambda d: message(d).startswith("Sent now that the host is back"), "the queued tap sent")
        until(ann, lambda d: d.find_element(By.ID, "clock").text.startswith("Talks 9:"), "the clock back with the host")
        touch_order(ann, "bot", "Move", "swe")
        order_given(ann, "F Bot - Swe")
        touch_order(ann, "ukr", "Move", "rum")
        order_given(ann, "A Ukr - Rum")
        touch_order(ann, "bla", "Hold")
        order_given(ann, "F Bla H")
        touch_order(ann, "war", "Hold")
        order_given(ann, "A War H")
        ann.execute_script("window.scrollTo(0, 0)")
        ann.save_screenshot(str(shots / "06-ann-fall-orders.png"))
        for p in ("england", "russia"):
            seal(ann, p)

        touch_order(france, "mar", "Move", "bur")
        order_given(france, "A Mar - Bur")
        touch_order(france, "par", "Support", "mar", "bur")
        order_given(france, "A Par S A Mar - Bur")
        touch_order(france, "mao", "Move", "spa/sc")  # the coast's own mark: no question which coast
        order_given(france, "F Mao - Spa/sc")
        touch_order(germany, "sil", "Support", "gal", "war")  # Austria's army, with Germany's help
        order_given(germany, "A Sil S A Gal - War")
        seal(france, "france")
        seal(germany, "germany")
        api_orders(host, "F1901M", {"austria": ["A Gal - War"]})
        seal_others(host, "F1901M", THIRD)
        for d in drivers:
            phase_is(d, "Fall 1901 retreats")
        for d in (ann, france):  # nothing of the fall's messages is left
            assert "Given" not in message(d) and "sealed" not in message(d)

        # the retreats: Germany retreats, Ann disbands Russia's army
        touch_order(germany, "bur", "Retreat", "ruh")
        order_given(germany, "A Bur - Ruh")
        seal(germany, "germany")
        touch_order(ann, "war", "Disband")
        order_given(ann, "A War disband")
        press(ann, ann.find_element(By.ID, "mode"))
        until(ann, lambda d: d.find_elements(By.CSS_SELECTOR, "#overlay [data-dislodged]"), "the dislodged drawn")
        ann.execute_script("window.scrollTo(0, 0)")
        ann.save_screenshot(str(shots / "07-ann-fall-results.png"))
        press(ann, ann.find_element(By.ID, "res-prev"))
        until(ann, lambda d: d.find_element(By.ID, "res-label").text == "Spring 1901 moves", "the spring again")
        press(ann, ann.find_element(By.ID, "mode"))
        seal(ann, "russia")
        for d in drivers:
            phase_is(d, "Winter 1901 adjustments")

        # the builds: a fleet, an army, a fleet on a coast, a waive
        touch_order(ann, "lon", "", pick="Fleet")
        order_given(ann, "Build F Lon")
        show_group(ann, "Russia")
        touch_order(ann, "mos", "", pick="Army")
        order_given(ann, "Build A Mos")
        touch_order(ann, "stp", "", pick="Fleet (north coast)")
        order_given(ann, "Build F StP/nc")
        ann.execute_script("window.scrollTo(0, 0)")
        ann.save_screenshot(str(shots / "08-ann-builds.png"))
        for p in ("england", "russia"):
            seal(ann, p)
        touch_order(france, "bre", "", pick="Fleet")
        order_given(france, "Build F Bre")
        press(germany, until(germany, lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "#order-list button")
                                                      if b.text == "Waive one"), False), "Waive one"))
        order_given(germany, "Waive")  # Germany builds nothing
        seal(france, "france")
        seal(germany, "germany")
        seal_others(host, "W1901A", THIRD)
        for d in drivers:
            phase_is(d, "Spring 1902 moves")
        for d, unit in ((ann, "russia F stp/nc"), (ann, "england F lon"), (france, "france F bre"), (germany, "germany A ruh")):
            until(d, lambda d, unit=unit: d.find_elements(By.CSS_SELECTOR, f'[data-unit="{unit}"]'), unit)
        for i, d in enumerate(drivers):
            d.execute_script("window.scrollTo(0, 0)")
            d.save_screenshot(str(shots / f"09-spring-1902-{('ann', 'france', 'germany')[i]}.png"))
        # the finger model again, in 1902's position (new units, the builds, Russia spread out)
        from test_host_phone_fingers import finger_model

        tally = finger_model(ann, "Ann in 1902")
        assert tally.marks > 20 and not tally.faults(), tally.faults()[:20] or tally
        assert host.stop() == 0
    except Exception:
        for i, d in enumerate(drivers):  # what each phone showed when it went wrong
            d.save_screenshot(str(shots / f"failed-{i}.png"))
        raise
    finally:
        for d in drivers:
            d.quit()
        host.kill()


def test_browser_touch_phone_pinch_keeps_the_point_buttons_zoom_about_the_unit_and_time_runs_out(
        tmp_path: Path) -> None:
    host = ServeProcess(tmp_path / "pinch.dipl", free_port())
    driver = touch_phone(tmp_path / "profile")
    try:
        driver.get(host.links["france"])
        phase_is(driver, "Spring 1901 moves")
        until(driver, lambda d: d.execute_script("return window.phonePad.ready()"), "the first view")
        box = driver.execute_script("return window.phonePad.box()")
        cx, cy = (box["left"] + box["right"]) / 2, (box["top"] + box["bottom"]) / 2
        k0 = driver.execute_script("return window.phonePad.scale()")
        # two fingers 60 px apart spread to 180 px, their midpoint drifting 30 px right and 20 px down
        under = driver.execute_script("return window.phonePad.at(arguments[0], arguments[1])", cx, cy)
        pts = lambda half, dx, dy: [{"x": cx + dx - half, "y": cy + dy, "id": 0},
                                    {"x": cx + dx + half, "y": cy + dy, "id": 1}]
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": pts(30, 0, 0)})
        for i in range(1, 7):
            driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove",
                                                                "touchPoints": pts(30 + 10 * i, 5 * i, 10 * i / 3)})
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        k1 = driver.execute_script("return window.phonePad.scale()")
        assert k1 == pytest.approx(k0 * 3, rel=0.02)
        after = driver.execute_script("return window.phonePad.at(arguments[0], arguments[1])", cx + 30, cy + 20)
        assert after == pytest.approx(under, abs=1.0), "the point under the fingers moved"
        assert driver.execute_script("return window.phonePad.step()") is None  # a pinch is not a tap
        # the buttons zoom about the unit being ordered: it stays where it is on the screen
        press(driver, driver.find_element(By.ID, "zoom-all"))
        press(driver, driver.find_element(By.ID, "zoom-in"))
        driver.execute_script("window.scrollTo(0, 0)")
        tap_mark(driver, "mar")
        until(driver, lambda d: d.execute_script("return window.phonePad.step()") == "kind", "Marseilles chosen")
        before = driver.execute_script("return window.phonePad.onScreen('mar')")
        k2 = driver.execute_script("return window.phonePad.scale()")
        press(driver, driver.find_element(By.ID, "zoom-in"))
        driver.execute_script("window.scrollTo(0, 0)")
        assert driver.execute_script("return window.phonePad.onScreen('mar')") == pytest.approx(before, abs=1.0)
        assert driver.execute_script("return window.phonePad.scale()") == pytest.approx(k2 * 1.5)
        # the zoom buttons are outside the map
        zoom = driver.find_element(By.ID, "zoom").rect
        mapbox = driver.find_element(By.ID, "mapbox").rect
        assert zoom["y"] >= mapbox["y"] + mapbox["height"]
        # a clock that runs out says so
        console(host, "clock 0.03 Talks")
        until(driver, lambda d: d.find_element(By.ID, "clock").text == "Talks time!", "time!")
        assert "expired" in driver.find_element(By.ID, "clock").get_attribute("class")
        driver.save_screenshot(str(tmp_path / "pinch.png"))
        assert host.stop() == 0
    finally:
        driver.quit()
        host.kill()


def test_browser_touch_phone_giving_the_same_order_again_does_not_say_instead_of_itself(tmp_path: Path) -> None:
    """Issue 34, seen with five phones: a build touched twice said "Given: Build A Edi (instead of
    Build A Edi)"; the same order given again is simply given, an order changed says what it replaced."""
    host = ServeProcess(tmp_path / "again.dipl", free_port())
    france = touch_phone(tmp_path / "profile")
    try:
        france.get(host.links["france"])
        phase_is(france, "Spring 1901 moves")
        touch_order(france, "par", "Move", "bur")
        order_given(france, "A Par - Bur")
        touch_order(france, "par", "Move", "bur")
        until(france, lambda d: message(d).startswith("Given: A Par - Bur"), "the order given again")
        assert "instead of" not in message(france)
        touch_order(france, "par", "Move", "pic")
        until(france, lambda d: message(d).startswith("Given: A Par - Pic"), "the order changed")
        assert "(instead of A Par - Bur)" in message(france)
    finally:
        france.quit()
        host.kill()
