"""Two phone pages in a real headless browser (Debian's chromium through chromedriver, driven by
Selenium) play a Spring and a Fall for France and Germany against a ``serve`` host: orders
tapped on the map and typed, a support, a private note, a retreat and a build; the host is
killed mid-phase and restarted, and the phones reconnect with their sealed orders.  The other
five powers seal through the API.  Skipped, saying why, where no chromium is installed."""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
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

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="no chromium and chromedriver here: the phone page's browser test needs Debian's chromium and "
           "chromium-driver (apt-get install chromium chromium-driver); .ci/run installs them")
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


def seal_others(host: ServeProcess, phase: str) -> None:
    state = api("GET", f"{host.base}/api/public", host.tokens["england"])
    for p in OTHERS:
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
        choose(france, "Build")
        choose(france, "Build F Bre")
        order_given(france, "Build F Bre")
        tap(germany, '.target[data-target="mun"]')
        choose(germany, "Build")  # an army: Munich has no coast, so nothing more to ask
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
