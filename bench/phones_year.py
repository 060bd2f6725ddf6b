"""Five phones play 1901 on ``serve``: Ann holds England and Russia, France, Germany, Italy and
Austria one each; Turkey's orders come from the laptop (the host's API).

Each phone is a headless Chromium at 412x915 with touch (Chrome's mobile emulation; the helpers of
tests/host/).  Nobody gets a link: the host gives each player a PIN on serve's terminal (``pin POWER
DIGITS``; Ann's covers both her powers) and each phone joins from the table page, choosing the
power and typing the PIN (three inputs), and seals with it (the PIN typed, then "Seal").  Every order is given by touch on the map, as a thumb
would (a few px off each mark): the unit, the kind of order, the destination; the winter's builds
by touching the lit centre and the kind of unit.  Then "Seal".  The script prints, per phone, the
taps and presses for Spring, Fall and Winter 1901 and the misorders (an order shown that differs
from the one meant), and saves screenshots of each phone: joined, after each phase's orders,
after sealing (waiting for the others), and at the next phase:

    python bench/phones_year.py [--shots DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "host"))
sys.path.insert(0, str(ROOT / "bench"))

from table_entry import FALL, OPENINGS

PHONES = {"ann": ("england", "russia"), "france": ("france",), "germany": ("germany",),
          "italy": ("italy",), "austria": ("austria",)}
#: each player's PIN, given on serve's terminal (none is a common PIN)
PINS = {"ann": "5831", "france": "7294", "germany": "3068", "italy": "9417", "austria": "2659"}
LAPTOP = {"S1901M": ["A Con - Bul", "A Smy - Con", "F Ank - Bla"], "F1901M": ["A Bul - Ser", "A Con - Smy", "F Ank - Bla"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shots", type=Path, default=Path(tempfile.gettempdir()) / "phones-year")
    args = parser.parse_args(argv)
    args.shots.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        return play(Path(tmp), args.shots)


class Table:
    """The five phones, what each was touched, and the misorders seen."""

    def __init__(self, host: Any, shots: Path) -> None:
        self.host, self.shots = host, shots
        self.drivers: dict[str, Any] = {}
        self.inputs: dict[tuple[str, str], int] = {}
        self.misorders: list[str] = []

    def count(self, phone: str, phase: str, n: int) -> None:
        self.inputs[(phone, phase)] = self.inputs.get((phone, phase), 0) + n

    def shoot(self, phone: str, name: str) -> None:
        d = self.drivers[phone]
        d.execute_script("window.scrollTo(0, 0)")
        d.save_screenshot(str(self.shots / f"{name}-{phone}.png"))

    def seal(self, phone: str, phase: str) -> None:
        """Each power of the phone: its PIN typed in the seal bar, then "Seal" (two inputs)."""
        import test_host_browser as b
        from selenium.webdriver.common.by import By

        d = self.drivers[phone]
        for power in PHONES[phone]:
            before = d.find_element(By.ID, "phase").text
            button = b.until(d, lambda d, p=power: d.find_element(By.ID, f"seal-{p}"), f"{phone}: Seal {power}")
            pin = button.find_element(By.XPATH, "./preceding-sibling::input")
            d.execute_script("arguments[0].scrollIntoView({block: 'center'})", pin)
            pin.click()
            pin.send_keys(PINS[phone])
            b.press(d, button)
            self.count(phone, phase, 2)
            b.until(d, lambda d, p=power, was=before: d.find_element(By.ID, "phase").text != was or all(
                x.text.startswith("Unseal") for x in d.find_elements(By.ID, f"seal-{p}")), f"{phone}: {power} sealed")
        self.shoot(phone, f"{phase}-sealed")

    def join(self, phone: str) -> None:
        """From the table page: the power chosen, the PIN typed, "Join" (three inputs)."""
        import test_host_browser as b
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select

        d = self.drivers[phone]
        d.get(self.host.base + "/")
        b.until(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#join-power option")) == 7, f"{phone}: the powers")
        Select(d.find_element(By.ID, "join-power")).select_by_value(PHONES[phone][0])
        box = d.find_element(By.ID, "join-pin")
        box.click()
        box.send_keys(PINS[phone])
        b.press(d, d.find_element(By.ID, "join-go"))
        self.count(phone, "join", 3)
        b.until(d, lambda d: "/t/" in d.current_url, f"{phone}: joined by PIN")

    def moves(self, phase: str, plan: dict[str, list[tuple[str, str]]]) -> None:
        for phone, powers in PHONES.items():
            for power in powers:
                for unit, dest in plan[power]:
                    self.move(phone, phase, power, unit, dest)
            self.shoot(phone, phase)
            self.seal(phone, phase)

    def move(self, phone: str, phase: str, power: str, unit: str, dest: str) -> None:
        import test_host_browser as b

        d = self.drivers[phone]
        b.touch_order(d, "stp/sc" if unit == "stp" else unit, "Move", dest)  # the unit, "Move", the place: 3
        self.count(phone, phase, 3)
        way = [t for t in b.buttons_shown(d) if "\u2192" in t and "convoy" not in t]
        if way:  # "Which way?" (a fleet that could convoy): over land, one more press
            b.choose(d, way[0])
            self.count(phone, phase, 1)
        b.until(d, lambda d: unit_order(d, unit) is not None, f"{phone}: the order of {unit}")
        shown = unit_order(d, unit) or ""
        if not shown.lower().endswith(f"- {dest}"):
            self.misorders.append(f"{phase} {power}: {unit} -> {dest} gave {shown!r}")

    def builds(self, phase: str) -> None:
        import test_host_browser as b
        from selenium.webdriver.common.by import By

        for phone, d in self.drivers.items():
            for _ in range(6):
                orders = [e.get_attribute("data-order") or "" for e in d.find_elements(By.CSS_SELECTOR, "#order-list .order")]
                built = {o.split()[-1].split("/")[0].lower() for o in orders if o}
                # (a lit centre stays lit while builds are owed: one not built in yet)
                sites = [m for m in d.execute_script("return window.phonePad.marks()")
                         if m["loc"].split("/")[0] not in built]
                if not sites:
                    break
                b.touch_order(d, sites[0]["loc"], "", pick="Army")  # the centre, then "Army": 2 inputs
                self.count(phone, phase, 2)
                given = len(orders)
                b.until(d, lambda d, n=given: len(d.find_elements(By.CSS_SELECTOR, "#order-list .order")) > n,
                        f"{phone}: the build in {sites[0]['loc']}")
            self.shoot(phone, phase)
            self.seal(phone, phase)

    def laptop(self, phase: str, orders: list[str]) -> None:
        """Turkey's orders, given and sealed at the laptop (the host's API)."""
        import test_host_browser as b

        b.api_orders(self.host, phase, {"turkey": orders})
        b.seal_others(self.host, phase, ("turkey",))

    def all_show(self, label: str) -> None:
        import test_host_browser as b

        for d in self.drivers.values():
            b.phase_is(d, label)

    def year(self, tmp: Path) -> None:
        import test_host_browser as b
        from selenium.webdriver.common.by import By

        for phone, powers in PHONES.items():  # the host gives each player a PIN, on serve's terminal
            b.console(self.host, f"pin {powers[0]} {PINS[phone]}")
            while "new PIN" not in self.host.next_line():
                pass
        for phone, powers in PHONES.items():
            d = self.drivers[phone] = b.touch_phone(Path(tempfile.mkdtemp(dir=tmp)))
            self.join(phone)
            b.phase_is(d, "Spring 1901 moves")
            assert d.find_element(By.ID, "who").text.endswith(", ".join(p.capitalize() for p in powers)), \
                d.find_element(By.ID, "who").text
            b.until(d, lambda d: d.find_element(By.ID, "link").text == "live", f"{phone}: the live link")
            self.shoot(phone, "joined")
        self.laptop("S1901M", LAPTOP["S1901M"])
        self.moves("spring", OPENINGS)
        self.all_show("Fall 1901 moves")
        for phone in PHONES:
            self.shoot(phone, "fall-start")
        self.laptop("F1901M", LAPTOP["F1901M"])
        self.moves("fall", FALL)
        self.all_show("Winter 1901 adjustments")
        for phone in PHONES:
            self.shoot(phone, "winter-start")
        self.laptop("W1901A", ["Build A Con"])
        self.builds("winter")
        self.all_show("Spring 1902 moves")
        for phone in PHONES:
            self.shoot(phone, "spring-1902")


def unit_order(d: Any, loc: str) -> str | None:
    """The order the phone shows for the unit in ``loc``."""
    from selenium.webdriver.common.by import By

    for e in d.find_elements(By.CSS_SELECTOR, "#order-list .order"):
        parts = (e.get_attribute("data-order") or "").split()
        if len(parts) > 1 and parts[1].split("/")[0].lower() == loc:
            return " ".join(parts)
    return None


def play(tmp: Path, shots: Path) -> int:
    from serving import ServeProcess, free_port

    host = ServeProcess(tmp / "year.dipl", free_port(), "--player", "england=Ann", "--player", "russia=Ann")
    table = Table(host, shots)
    started = time.monotonic()
    try:
        table.year(tmp)
    except Exception as exc:  # noqa: BLE001  (what each phone showed when it went wrong, then the reason)
        for phone in table.drivers:
            table.shoot(phone, "failed")
        table.misorders.append(f"step failed: {exc!r}"[:400])
    finally:
        for d in table.drivers.values():
            d.quit()
        host.kill()
    print(f"phones_year: five phones at 412x915 with touch, 1901 ({time.monotonic() - started:.0f} s); inputs "
          "(taps and presses on the phone):")
    for phone, powers in PHONES.items():
        per = [table.inputs.get((phone, phase), 0) for phase in ("join", "spring", "fall", "winter")]
        print(f"  {phone:<8} {'+'.join(powers):<16} join {per[0]:2d}  spring {per[1]:3d}  fall {per[2]:3d}  "
              f"winter {per[3]:3d}")
    print(f"  misorders: {len(table.misorders)}   screenshots: {shots}")
    for m in table.misorders:
        print(f"  MISORDER {m}")
    return 1 if table.misorders else 0


if __name__ == "__main__":
    raise SystemExit(main())
