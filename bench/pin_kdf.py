"""What a saved PIN hash costs to brute-force (issue 20): scrypt at the shipped cost, timed.

    python bench/pin_kdf.py [--rounds N]

Prints the time of one guess (the best of N, on one core) and what trying every PIN of 4, 6 and
8 digits costs, in core-hours, less the PINs New Game refuses.  docs/reference/threat-model.md quotes it.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from diplomacy_desktop.io import pins  # noqa: E402
from diplomacy_desktop.table.pins import pin_problem  # noqa: E402


def one_guess(n: int, r: int, p: int) -> float:
    started = time.perf_counter()
    hashlib.scrypt(b"5831", salt=bytes(16), n=n, r=r, p=p, maxmem=130 * n * r * p + 2 ** 20, dklen=32)
    return time.perf_counter() - started


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    n, r, p = pins.SCRYPT_N, pins.SCRYPT_R, pins.SCRYPT_P
    best = min(one_guess(n, r, p) for _ in range(args.rounds))
    refused4 = sum(1 for i in range(10_000) if pin_problem(f"{i:04d}"))
    print(f"scrypt N={n} r={r} p={p}: {128 * n * r / 2 ** 20:.0f} MiB, {best:.3f} s per guess (best of {args.rounds})")
    for digits, space in ((4, 10_000 - refused4), (6, 10 ** 6), (8, 10 ** 8)):
        hours = space * best / 3600
        print(f"  every {digits}-digit PIN ({space:,} tried): {hours:,.1f} core-hours ({hours / 24:,.1f} core-days)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
