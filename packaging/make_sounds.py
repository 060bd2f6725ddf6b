"""Write the app's own sounds into assets/ (run once; the WAV files are committed).

    python packaging/make_sounds.py

``clock_end.wav``: the negotiation clock's end chime, three rising bell-like tones, 1.2 s,
16-bit mono at 22 050 Hz, made here from sine waves (no third-party audio in the repository).
"""

from __future__ import annotations

import math
import struct
import sys
import wave
from pathlib import Path

RATE = 22_050


def chime_samples() -> list[int]:
    notes = ((0.00, 660.0), (0.28, 880.0), (0.56, 1175.0))  # E5, A5, D6
    length = 1.2
    out = []
    for i in range(int(RATE * length)):
        t = i / RATE
        v = 0.0
        for start, freq in notes:
            if t >= start:
                dt = t - start
                env = math.exp(-dt * 4.5) * min(1.0, dt * 200)  # quick attack, bell decay
                v += env * (math.sin(2 * math.pi * freq * dt) + 0.3 * math.sin(2 * math.pi * 2 * freq * dt))
        out.append(int(max(-1.0, min(1.0, v * 0.45)) * 32767))
    return out


def write_wav(path: Path, samples: list[int]) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", s) for s in samples))


def main() -> int:
    assets = Path(__file__).resolve().parent.parent / "assets"
    write_wav(assets / "clock_end.wav", chime_samples())
    print(f"wrote {assets / 'clock_end.wav'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
