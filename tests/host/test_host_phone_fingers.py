"""The finger model: scripted taps on a 412x915 phone (Chrome's mobile emulation, touch on) land on
the province the player aimed at, for every unit of every power a phone holds and every place
each of them can be ordered to (moves, supports and convoys: the unit, then the target), in the
view the phone chooses by itself (the first view of the power's units, then the view of the
unit's targets; nobody zooms).

A fingertip is a 40 css px contact: a tap aimed at a mark registers anywhere within 20 px of it.
Each mark is tapped at its centre and at 10 and 20 px in eight directions (17 taps), and so is its
province's name where it is on screen: its middle and 20 px off its box in eight directions (9
taps; issue 34: a tap on or within 20 px of a name means that province, wherever it lands: the
page keeps each marked place's name far enough from the other places' marks in the view shown
that no such tap lands within 10 px of one).  A *miss* is a tap that picks another place, or
nothing: there must be none.  A tap as near to two marks asks
which (that is not a miss, the player chooses); a tap within 10 px of its mark never asks.
Each unit is selected with a real touch (CDP ``Input.dispatchTouchEvent``) through the page's own
handlers; the other taps ask the page what it would do (``window.phonePad.resolve``, no side
effects), so that thousands of taps take seconds.

Run as a script (``python tests/host/test_host_phone_fingers.py``) it prints the counts per player.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browsers import CHROMEDRIVER, CHROMIUM, needs_browser
from serving import ServeProcess, free_port

webdriver = pytest.importorskip("selenium.webdriver", reason="the finger model needs selenium (pip install selenium)")
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

pytestmark = needs_browser
PHONE = (412, 915)
FINGER = 40
#: where a tap aimed at a mark lands: its centre, and 10 and 20 px off in eight directions
OFFSETS = [(0.0, 0.0)] + [(r * dx, r * dy) for r in (FINGER / 4, FINGER / 2)
                          for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (0.7071, 0.7071), (-0.7071, 0.7071),
                                         (0.7071, -0.7071), (-0.7071, -0.7071))]
KINDS = ("Move", "Support", "Convoy", "Retreat")

# every mark of this step, tapped at every offset; the page says what each tap would do
CHECK_JS = """
const pad = window.phonePad, offsets = arguments[0], only = arguments[1], out = [], cut = [];
const b = pad.box(), all = pad.marks();
for (const m of all) {
  if (only && !only.includes(m.loc)) continue;
  const visible = m.x >= b.left + 20 && m.x <= b.right - 20 && m.y >= b.top + 20 && m.y <= b.bottom - 20;
  for (const [dx, dy] of offsets) {
    const r = pad.resolve(m.x + dx, m.y + dy);
    out.push({loc: m.loc, dx: dx, dy: dy, visible: visible, pick: r.pick || null, ask: r.ask || null});
  }
  // the province's name, where a player aims too: its middle, and 20 px off its box in eight directions
  const t = document.querySelector("#labels text[id='label_" + m.loc.split("/")[0] + "']");
  const n = t ? t.getBoundingClientRect() : null;
  if (!n || !n.width) continue;
  const cx = (n.left + n.right) / 2, cy = (n.top + n.bottom) / 2;
  // a name cut by the map's edge where its mark is in view ("Sevastop")
  if (visible && (n.left < b.left || n.right > b.right || n.top < b.top || n.bottom > b.bottom)) cut.push(m.loc);
  if (cx < b.left || cx > b.right || cy < b.top || cy > b.bottom) continue;  // (a name off screen: not aimed at)
  const d = arguments[2], c = d * Math.SQRT1_2;
  const aims = [[cx, cy], [n.right + d, cy], [n.left - d, cy], [cx, n.bottom + d], [cx, n.top - d],
                [n.right + c, n.bottom + c], [n.left - c, n.bottom + c], [n.right + c, n.top - c], [n.left - c, n.top - c]];
  for (const [x, y] of aims) {
    const r = pad.resolve(x, y);
    // how near the tap lands to the mark it picked (a drawn mark's own 10 px is its, before any name)
    const picked = r.pick ? all.find((o) => o.loc === r.pick) : null;
    out.push({loc: m.loc, dx: x - cx, dy: y - cy, visible: true, name: true, pick: r.pick || null, ask: r.ask || null,
              picked_d: picked ? Math.hypot(picked.x - x, picked.y - y) : null, k: pad.scale()});
  }
}
return [out, cut];
"""
#: how far off a province's name a tap aimed at the name may land (the page's LABEL_REACH, a hair inside)
NAME_REACH = FINGER / 2 - 0.5


def mobile_phone(profile: Path) -> Any:
    """Chromium as a 412x915 Android phone with touch (Chrome's mobile emulation)."""
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                f"--user-data-dir={profile}"):
        opts.add_argument(arg)
    opts.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": PHONE[0], "height": PHONE[1], "pixelRatio": 2.625, "touch": True},
        "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                     "Chrome/124.0 Mobile Safari/537.36"})
    try:
        return webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    except WebDriverException as exc:
        pytest.skip(f"chromium would not start under chromedriver: {exc.msg}")


def touch(driver: Any, x: float, y: float) -> None:
    """A real tap: a touch start and end at (x, y) css px (the page sees pointer events)."""
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


@dataclass
class Tally:
    player: str
    taps: int = 0
    asks: int = 0
    marks: int = 0
    misses: list[str] = field(default_factory=list)
    near_asks: list[str] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)
    #: taps aimed at a province's name (its middle, 20 px off its box in eight directions)
    name_taps: int = 0
    #: names cut by the map's edge while their place's mark is in view
    cut: list[str] = field(default_factory=list)

    def faults(self) -> list[str]:
        """Every miss, mark outside its view and name cut by the map's edge (there must be none)."""
        return self.misses + self.hidden + self.cut

    def add(self, where: str, rows: list[dict[str, Any]]) -> None:
        seen = set()
        for r in rows:
            self.taps += 1
            self.name_taps += bool(r.get("name"))
            label = f"{where} -> {r['loc']}{' name' if r.get('name') else ''} at ({r['dx']:+.0f}, {r['dy']:+.0f})"
            if r["loc"] not in seen:
                seen.add(r["loc"])
                self.marks += 1
                if not r["visible"]:
                    self.hidden.append(f"{where} -> {r['loc']}")
            if r["pick"] == r["loc"]:
                continue
            if r["ask"] and r["loc"] in r["ask"]:
                self.asks += 1
                if not r.get("name") and abs(r["dx"]) + abs(r["dy"]) <= FINGER / 4 + 1e-6:
                    self.near_asks.append(label)
                continue
            near = f" ({r['picked_d']:.1f} px from its mark, {r['k']:.2f} px a map unit)" if r.get("picked_d") is not None else ""
            self.misses.append(f"{label}: {r['pick'] or r['ask'] or 'nothing'}{near}")


def wait_ready(driver: Any) -> None:
    WebDriverWait(driver, 30).until(lambda d: d.execute_script("return !!window.phonePad && window.phonePad.ready()"),
                                    "the page to frame the player's units")


def buttons(driver: Any) -> list[Any]:
    return driver.find_elements(By.CSS_SELECTOR, "#choices button")


def press(driver: Any, label: str) -> None:
    for b in buttons(driver):
        if b.text == label:
            b.click()
            return
    raise AssertionError(f"no {label!r} among {[b.text for b in buttons(driver)]}")


#: two animation frames: the page redraws the map (names sized to the new view) in the next frame after
#: a tap, so the check waits for it (checked before it, a name's box was the old view's: a flaky miss)
DRAWN_JS = "const done = arguments[arguments.length - 1]; requestAnimationFrame(() => requestAnimationFrame(() => done()));"


def check(driver: Any, tally: Tally, where: str, only: list[str] | None = None) -> list[dict[str, Any]]:
    driver.execute_async_script(DRAWN_JS)
    rows, cut = driver.execute_script(CHECK_JS, OFFSETS, only, NAME_REACH)
    tally.add(where, rows)
    tally.cut += [f"{where} -> {loc}" for loc in cut]
    return rows


def touch_mark(driver: Any, loc: str) -> None:
    """A real touch on the mark of ``loc``; where the page asks which (marks crowded in a view
    zoomed out to show them all), the player answers."""
    mark = next(m for m in driver.execute_script("return window.phonePad.marks()") if m["loc"] == loc)
    touch(driver, mark["x"], mark["y"])
    asked = driver.execute_script("return window.phonePad.asking()")
    if asked:
        press(driver, next(a["label"] for a in asked if a["loc"] == loc))


def select_unit(driver: Any, group: int, loc: str) -> None:
    """Back to the first view, and a real touch on the unit's mark."""
    driver.execute_script("arguments[0] !== null && window.phonePad.showGroup(arguments[0])", group)
    if driver.execute_script("return window.phonePad.step()") is not None:
        press(driver, "Cancel")
    touch_mark(driver, loc)
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return window.phonePad.step()") == "kind",
                                    f"the menu of {loc}")


def finger_model(driver: Any, player: str) -> Tally:
    """Every first-view tap of this phone's player (all their powers, every group of the switch)."""
    wait_ready(driver)
    tally = Tally(player)
    groups = driver.execute_script("return window.phonePad.groups()")
    everyone = {m["loc"] for m in driver.execute_script("return window.phonePad.marks()")}
    assert everyone and everyone == {loc for g in groups for loc in g["locs"]}, "a unit in no view of the switch"
    for g in range(len(groups)) if len(groups) > 1 else [None]:
        name = groups[g]["label"] if g is not None else player
        if g is not None:
            driver.execute_script("window.phonePad.showGroup(arguments[0])", g)
        only = groups[g if g is not None else 0]["locs"]
        units = [r["loc"] for r in check(driver, tally, f"{name}: the units", only) if not r.get("name") and r["dx"] == r["dy"] == 0]
        for unit in units:
            select_unit(driver, g, unit)
            kinds = [b.text for b in buttons(driver) if b.text in KINDS]
            press(driver, "Cancel")
            for kind in kinds:
                select_unit(driver, g, unit)
                press(driver, kind)
                rows = check(driver, tally, f"{name}: {unit} {kind}")
                if kind not in ("Support", "Convoy"):
                    press(driver, "Cancel")
                    continue
                for target in sorted({r["loc"] for r in rows}):
                    select_unit(driver, g, unit)
                    press(driver, kind)
                    touch_mark(driver, target)
                    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return window.phonePad.step()") == "dest2",
                                                    f"{unit} {kind} {target}: where to")
                    check(driver, tally, f"{name}: {unit} {kind} {target}")
                    press(driver, "Cancel")
    return tally


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """One game: England and Russia played by one player (one link), the others one each."""
    game = tmp_path_factory.mktemp("fingers") / "fingers.dipl"
    host = ServeProcess(game, free_port(), "--player", "england=Ann", "--player", "russia=Ann")
    try:
        yield host
    finally:
        host.kill()


def run(host: ServeProcess, link_power: str, player: str, profile: Path) -> Tally:
    driver = mobile_phone(profile)
    try:
        driver.get(host.links[link_power])
        tally = finger_model(driver, player)
        driver.save_screenshot(str(profile.parent / f"fingers-{link_power}.png"))
        return tally
    finally:
        driver.quit()


@pytest.mark.parametrize(("link_power", "player"), [("england", "England + Russia"), ("italy", "Italy")])
def test_host_phone_finger_taps_land_on_the_intended_province(table: ServeProcess, tmp_path: Path,
                                                              link_power: str, player: str) -> None:
    tally = run(table, link_power, player, tmp_path / "profile")
    assert tally.marks > 20, f"too few marks checked: {tally}"
    assert tally.name_taps > 9 * 20, f"too few names aimed at: {tally.name_taps}"
    assert not tally.hidden, f"marks outside the first view: {tally.hidden}"
    assert not tally.misses, f"{len(tally.misses)} of {tally.taps} taps missed: {tally.misses[:20]}"
    assert not tally.near_asks, f"taps within 10 px of their mark asked: {tally.near_asks[:20]}"
    assert not tally.cut, f"names cut by the map's edge: {tally.cut}"


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        host = ServeProcess(Path(tmp) / "fingers.dipl", free_port(), "--player", "england=Ann", "--player", "russia=Ann")
        try:
            failed = 0
            for power, player in (("england", "England + Russia"), ("france", "France"), ("germany", "Germany"),
                                  ("italy", "Italy"), ("austria", "Austria"), ("turkey", "Turkey")):
                start = time.perf_counter()
                t = run(host, power, player, Path(tempfile.mkdtemp(dir=tmp)))
                failed += len(t.misses) + len(t.hidden) + len(t.cut)
                print(f"{player:<17} marks {t.marks:4d}  taps {t.taps:5d} (at names {t.name_taps:4d})  "
                      f"misses {len(t.misses):3d}  "
                      f"asks {t.asks:4d} (within 10 px: {len(t.near_asks)})  outside the view {len(t.hidden)}"
                      f"  names cut {len(t.cut)}  {time.perf_counter() - start:.1f} s")
                for line in (t.misses + t.hidden + t.cut)[:10]:
                    print("   ", line)
        finally:
            host.kill()
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
