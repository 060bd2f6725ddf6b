#!/usr/bin/env python3
"""Build ``maps/standard/standard.svg`` from public-domain Natural Earth geography.

Run from the repository root::

    python maps/build/build_standard_svg.py

The geography is Natural Earth 1:50m admin-0 countries as packaged by Debian in
``r-cran-rnaturalearthdata`` (CC0).  The package is fetched with ``apt-get download`` into
``maps/build/.cache/`` (ignored by git) and its R data file is read with the PyPI package
``rdata``; R itself is not needed.  The board is our own art: provinces are cut from the
real geography with seeded Voronoi diagrams, never traced from an existing Diplomacy map.

Method (see ``shared/MAP.md``):

1. Project with Lambert conformal conic (centre 15E 50N, standard parallels 40N/64N).
2. Simplify all countries together with ``shapely.coverage_simplify`` in pixel space.
3. Add thin owned land corridors across the Danish straits, the Bosporus and the Dardanelles,
   and draw the water back on top of them.
4. Split each landmass (and each water body) among the seed points that lie in it with a
   Voronoi diagram; unseeded islands stay decorative, unseeded water becomes a lake.
5. Where modern borders stand in fairly for 1901, a country's land is shared only among its
   own provinces.
6. Split coasts are the province's boundary with that coast's seas, as thin strips.

Everything is deterministic: no randomness, sorted output, coordinates rounded to 0.1 px.
The script checks the result against ``standard.toml`` (adjacency both ways, split coasts,
markers inside their spaces) and refuses to write an SVG that fails.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import itertools
import lzma
import math
import struct
import subprocess
import sys
import tomllib
import warnings
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

import numpy as np
import rdata
import shapely
from shapely.geometry import (
    GeometryCollection,
    LineString,
    MultiLineString,
    MultiPoint,
    MultiPolygon,
    Point,
    Polygon,
    box,
)
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel, unary_union

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
BOARD_TOML = REPO / "maps" / "standard" / "standard.toml"
OUT_SVG = REPO / "maps" / "standard" / "standard.svg"
CACHE = HERE / ".cache"

DEB_PACKAGE = "r-cran-rnaturalearthdata"
LAKES_PACKAGE = "marble-qt-data"  # holds Natural Earth 1:50m lakes in Marble's PN2 format
LAKES_FILE = Path("usr/share/marble/data/naturalearth/ne_50m_lakes.pn2")
MIN_INLAND_LAKE = 20.0  # px^2: smaller lakes are not drawn
RDATA_DIR = Path("usr/lib/R/site-library/rnaturalearthdata/data")

# ---------------------------------------------------------------------------------------------
# Projection and frame
# ---------------------------------------------------------------------------------------------
LON0, LAT0, PAR1, PAR2 = 15.0, 50.0, 40.0, 64.0
# Frame in projected units (earth radii), chosen to show lon -16..46, lat 33..73 or so.
FRAME_X = (-0.392, 0.392)
FRAME_Y = (-0.292, 0.390)
SCALE = 2040.0  # pixels per earth radius
SQUASH = 0.90  # slight north-south squash: the familiar landscape board
SIMPLIFY = 0.55  # coverage_simplify tolerance in px
MIN_ISLAND = 14.0  # islands smaller than this (px^2) are dropped into the sea
MIN_LAKE = 30.0  # lakes smaller than this (px^2) are filled with land
ALLOW_BAD_SEEDS = False
PRECISION = 0.1  # grid every coordinate is rounded to


def _lcc_constants() -> tuple[float, float, float]:
    p1, p2, p0 = (math.radians(v) for v in (PAR1, PAR2, LAT0))
    n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
        math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2)
    )
    f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n
    rho0 = f / math.tan(math.pi / 4 + p0 / 2) ** n
    return n, f, rho0


_N, _F, _RHO0 = _lcc_constants()
WIDTH = round((FRAME_X[1] - FRAME_X[0]) * SCALE)
HEIGHT = round((FRAME_Y[1] - FRAME_Y[0]) * SCALE * SQUASH)


def project(lon: np.ndarray, lat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lon/lat in degrees to SVG pixels (y down)."""
    lam = np.radians(np.asarray(lon, dtype=float) - LON0)
    phi = np.radians(np.clip(np.asarray(lat, dtype=float), -89.0, 89.0))
    rho = _F / np.tan(np.pi / 4 + phi / 2) ** _N
    x = rho * np.sin(_N * lam)
    y = _RHO0 - rho * np.cos(_N * lam)
    return (x - FRAME_X[0]) * SCALE, (FRAME_Y[1] - y) * SCALE * SQUASH


def px(lon: float, lat: float) -> Point:
    x, y = project(np.array([lon]), np.array([lat]))
    return Point(float(x[0]), float(y[0]))


# ---------------------------------------------------------------------------------------------
# Hand-placed seeds (lon, lat).  The first seed of a space is its main seed.  Our own choice of
# points, placed from real cities and regions; each space gets the land or water nearest them.
# ---------------------------------------------------------------------------------------------
LL = tuple[float, float]

SEEDS: dict[str, list[LL]] = {
    # --- Britain
    "cly": [(-4.8, 56.4), (-4.3, 55.85), (-5.2, 57.4), (-4.8, 58.3), (-5.5, 56.9)],
    "edi": [(-3.3, 55.9), (-3.2, 56.5), (-2.6, 57.2), (-4.0, 57.5), (-3.6, 58.4)],
    "lvp": [(-2.8, 53.5), (-2.7, 54.3), (-3.0, 54.9), (-4.3, 55.0), (-3.6, 55.3)],
    "yor": [(-1.1, 53.95), (-1.6, 54.85), (-2.0, 55.35), (-1.5, 53.2), (-0.6, 53.4)],
    "wal": [(-3.6, 52.3), (-3.3, 51.7), (-4.0, 52.9), (-2.3, 52.5), (-4.6, 50.5), (-3.7, 50.8)],
    "lon": [(-0.1, 51.5), (0.8, 51.2), (-1.2, 51.1), (1.0, 52.5), (-1.2, 51.8), (0.1, 52.2)],
    # --- France (shared only among French provinces)
    "bre": [(-3.0, 48.2), (-1.7, 48.1), (-1.3, 49.0), (-4.1, 48.4)],
    "pic": [(2.3, 49.9), (1.1, 49.4), (0.3, 49.1), (3.0, 50.45)],
    "par": [(2.35, 48.85), (1.9, 47.9), (0.7, 47.4), (3.0, 48.0)],
    "bur": [(4.8, 47.3), (6.2, 48.7), (7.4, 48.3), (4.1, 49.2), (5.6, 46.5)],
    "gas": [(-0.6, 44.8), (1.4, 43.6), (0.3, 46.5), (1.8, 45.5), (3.0, 45.5), (-1.0, 43.4)],
    "mar": [
        (5.4, 43.4),
        (3.9, 43.7),
        (2.6, 42.6),
        (6.3, 44.6),
        (7.0, 43.8),
        (5.7, 45.3),
        (4.8, 45.8),
        (6.4, 46.0),
    ],
    # --- Iberia
    "spa": [
        (-3.7, 40.4),
        (-5.9, 37.4),
        (-0.5, 39.5),
        (1.5, 41.7),
        (-4.5, 42.9),
        (-7.8, 42.8),
        (-1.6, 42.6),
        (-3.6, 37.2),
    ],
    "por": [(-8.1, 39.6), (-8.4, 41.2), (-8.1, 37.3), (-8.8, 39.0)],
    # --- Low Countries
    "bel": [(4.35, 50.85), (5.5, 50.3), (6.1, 49.7), (3.2, 51.05)],
    "hol": [(4.9, 52.35), (6.5, 53.1), (5.8, 52.0)],
    # --- Germany, Poland
    "kie": [(10.0, 54.3), (10.0, 53.55), (8.8, 53.1), (9.7, 52.4), (7.6, 52.9), (9.4, 54.7)],
    "ruh": [(7.2, 51.45), (6.9, 50.9), (7.0, 50.05), (7.1, 49.4), (8.4, 51.8)],
    "mun": [
        (11.6, 48.15),
        (9.2, 48.8),
        (8.3, 48.0),
        (11.1, 49.45),
        (8.7, 50.1),
        (9.6, 51.2),
        (11.0, 50.95),
        (12.9, 50.9),
        (14.3, 51.1),
    ],
    "ber": [(13.4, 52.5), (12.0, 53.6), (13.8, 53.9), (11.6, 52.2), (14.4, 53.3), (15.4, 53.7)],
    "pru": [(20.2, 54.2), (18.6, 54.2), (16.8, 54.1), (17.9, 53.3), (21.6, 53.9)],
    "sil": [(17.0, 51.1), (16.9, 52.4), (15.4, 51.8), (18.4, 50.5), (18.0, 52.0)],
    "war": [
        (21.0, 52.2),
        (19.45, 51.75),
        (23.0, 53.1),
        (22.6, 51.2),
        (24.0, 53.6),
        (25.5, 53.5),
        (27.6, 53.9),
        (26.0, 52.2),
    ],
    # --- Austria-Hungary
    "boh": [(14.4, 50.1), (16.6, 49.2), (13.4, 49.75), (15.8, 50.2), (17.8, 49.7)],
    "vie": [(16.4, 48.2), (15.4, 47.1), (14.3, 48.3), (17.3, 48.3), (14.5, 46.7)],
    "tyr": [
        (11.4, 47.3),
        (11.35, 46.5),
        (11.1, 46.0),
        (13.1, 47.7),
        (12.8, 46.8),
        (10.0, 46.25),
        (9.8, 47.2),
        (13.7, 46.6),
    ],
    "tri": [
        (13.85, 45.65),
        (14.5, 46.05),
        (16.0, 45.8),
        (18.4, 43.85),
        (16.6, 43.7),
        (17.2, 44.8),
        (14.9, 45.1),
    ],
    "bud": [
        (19.05, 47.5),
        (21.6, 47.5),
        (20.15, 46.25),
        (18.2, 46.1),
        (17.6, 47.6),
        (23.6, 46.8),
        (21.3, 45.8),
        (19.6, 48.3),
    ],
    "gal": [
        (24.0, 49.85),
        (19.9, 50.05),
        (22.0, 50.05),
        (25.6, 49.55),
        (24.7, 48.9),
        (25.9, 48.3),
        (21.3, 48.75),
        (19.5, 49.2),
        (22.4, 48.6),
        (25.3, 50.7),
    ],
    # --- Italy
    "pie": [(7.7, 45.05), (8.6, 45.4), (8.9, 44.5), (9.2, 45.5)],
    "ven": [
        (12.3, 45.5),
        (11.0, 45.45),
        (10.2, 45.55),
        (13.2, 46.1),
        (11.35, 44.5),
        (12.5, 44.0),
        (13.2, 43.5),
    ],
    "tus": [(11.25, 43.75), (10.5, 43.7), (9.9, 44.2), (10.3, 44.7), (11.3, 42.9)],
    "rom": [(12.5, 41.9), (12.4, 43.1), (13.4, 42.3), (13.2, 41.5)],
    "apu": [(16.8, 41.0), (15.55, 41.45), (14.2, 42.35), (18.0, 40.35), (13.6, 42.9)],
    "nap": [(14.3, 40.9), (15.8, 40.6), (16.3, 39.3), (16.2, 38.6), (14.1, 37.5), (13.4, 38.0)],
    # --- Balkans
    "ser": [
        (20.9, 44.0),
        (20.45, 44.8),
        (21.4, 42.0),
        (20.9, 42.6),
        (21.9, 43.3),
        (19.8, 45.3),
        (21.3, 41.1),
    ],
    "alb": [(20.0, 41.0), (19.8, 41.35), (19.3, 42.45), (20.1, 40.1)],
    "gre": [(22.0, 39.5), (22.9, 40.65), (22.1, 37.5), (21.0, 39.6), (23.7, 38.0), (24.3, 41.0)],
    "bul": [
        (25.0, 42.7),
        (23.3, 42.7),
        (27.4, 43.2),
        (27.3, 42.5),
        (25.4, 41.15),
        (25.9, 40.95),
        (24.4, 41.6),
    ],
    "rum": [
        (25.0, 45.0),
        (26.1, 44.45),
        (27.6, 47.15),
        (28.8, 47.0),
        (28.3, 44.4),
        (23.8, 44.3),
        (25.6, 45.65),
        (26.8, 46.1),
    ],
    # --- Russia
    "stp": [
        (30.3, 59.9),
        (33.0, 62.0),
        (33.0, 67.9),
        (40.5, 64.4),
        (35.5, 60.5),
        (44.0, 62.0),
        (39.9, 59.3),
        (29.5, 61.3),
        (36.0, 67.5),
        (30.5, 68.8),
    ],
    "mos": [
        (37.6, 55.75),
        (32.0, 54.8),
        (30.5, 56.3),
        (39.9, 57.6),
        (44.0, 56.3),
        (36.1, 52.95),
        (39.2, 51.7),
        (44.5, 53.2),
        (34.0, 57.5),
    ],
    "lvn": [
        (24.1, 56.95),
        (25.5, 58.6),
        (25.5, 59.3),
        (23.9, 55.3),
        (25.3, 54.7),
        (28.3, 57.8),
        (21.6, 55.9),
        (27.5, 55.8),
    ],
    "ukr": [
        (30.5, 50.45),
        (28.7, 50.25),
        (32.0, 49.4),
        (35.0, 48.5),
        (36.2, 50.0),
        (33.0, 51.5),
        (28.5, 49.2),
        (38.5, 49.5),
    ],
    "sev": [
        (34.1, 45.0),
        (33.5, 44.6),
        (30.5, 46.7),
        (32.6, 46.6),
        (35.4, 47.0),
        (37.5, 47.2),
        (39.7, 47.2),
        (39.0, 45.0),
        (42.0, 45.0),
        (44.5, 48.7),
        (41.7, 42.2),
        (44.8, 41.7),
        (45.5, 44.0),
    ],
    # --- Scandinavia (one country, one province each)
    "nwy": [(10.0, 60.8)],
    "swe": [(15.5, 59.8)],
    "fin": [(25.5, 62.0)],
    "den": [(9.3, 56.1), (10.4, 55.3), (11.9, 55.5), (10.1, 57.3)],
    "swi": [(8.2, 46.8)],
    # --- Turkey and the east
    "con": [
        (28.95, 41.05),
        (26.6, 41.6),
        (27.5, 41.2),
        (29.05, 40.2),
        (30.0, 40.7),
        (26.9, 40.0),
        (27.8, 40.1),
    ],
    "ank": [(32.85, 39.95), (36.3, 41.2), (33.8, 41.4), (31.8, 41.3), (34.95, 40.55), (36.5, 40.3)],
    "smy": [
        (27.3, 38.45),
        (29.0, 37.8),
        (30.7, 37.0),
        (32.5, 37.9),
        (34.6, 36.9),
        (30.5, 39.0),
        (27.9, 39.6),
        (35.5, 38.7),
        (36.5, 38.0),
    ],
    "arm": [(41.3, 39.9), (39.7, 40.8), (44.5, 40.2), (43.0, 38.5), (38.3, 39.0), (37.5, 39.8)],
    "syr": [
        (37.2, 36.2),
        (36.3, 33.5),
        (36.2, 34.7),
        (40.2, 37.9),
        (38.8, 37.2),
        (43.1, 36.3),
        (35.4, 36.9),
        (39.0, 34.5),
        (36.0, 32.0),
    ],
    # --- Africa
    "naf": [
        (3.0, 36.0),
        (-5.0, 34.0),
        (-7.5, 33.5),
        (-1.0, 35.0),
        (5.5, 35.6),
        (2.0, 33.5),
        (-6.0, 32.5),
        (-4.0, 33.0),
    ],
    "tun": [(10.1, 36.7), (9.5, 35.0), (9.6, 33.8), (8.4, 36.3)],
    # --- Seas
    "nao": [
        (-20.0, 55.0),
        (-14.0, 53.5),
        (-12.0, 57.0),
        (-17.0, 60.0),
        (-24.0, 62.0),
        (-6.3, 55.4),
        (-8.0, 56.6),
        (-10.5, 52.0),
    ],
    "nwg": [(0.0, 66.0), (-6.0, 62.0), (5.0, 63.0), (-3.0, 59.6), (12.0, 69.0), (-10.0, 66.5), (18.0, 71.0)],
    "bar": [(35.0, 70.5), (38.0, 65.8), (30.0, 71.2), (43.0, 69.0), (25.5, 71.8)],
    "nth": [(3.0, 56.0), (1.5, 53.5), (4.0, 58.5), (0.5, 58.3), (3.0, 51.7), (-1.0, 57.0), (7.3, 56.3)],
    "eng": [(-2.5, 50.0), (0.5, 50.3), (-5.0, 49.5), (1.4, 50.8), (1.9, 51.15)],
    "iri": [(-4.8, 53.9), (-5.3, 52.3), (-7.0, 51.2), (-4.0, 51.4)],
    "mao": [
        (-12.0, 44.0),
        (-5.0, 45.8),
        (-10.5, 38.0),
        (-9.0, 34.0),
        (-13.0, 48.5),
        (-7.0, 36.5),
        (-3.0, 44.0),
        (-15.0, 40.0),
    ],
    "hel": [(7.7, 54.1), (8.1, 54.6)],
    "ska": [(9.0, 58.0), (11.4, 57.0), (10.6, 57.8)],
    "bal": [(18.0, 55.5), (19.5, 57.5), (14.5, 54.8), (11.6, 54.4), (23.0, 57.7), (16.5, 56.0), (12.8, 55.5)],
    "bot": [(20.5, 62.0), (22.5, 64.5), (24.5, 65.3), (26.0, 59.9), (29.0, 60.1), (20.5, 60.3), (23.0, 59.6)],
    "wes": [(2.0, 38.5), (-2.0, 36.4), (5.0, 38.0), (7.5, 38.0), (-4.0, 36.1)],
    "lyo": [(4.5, 42.6), (7.5, 43.0), (3.5, 41.5), (6.0, 42.0)],
    "tys": [(12.0, 40.0), (10.8, 42.0), (12.5, 38.4), (10.5, 38.5)],
    "ion": [(18.0, 38.0), (20.0, 35.5), (12.0, 34.0), (19.5, 39.2), (16.5, 36.5), (22.0, 36.0), (17.0, 39.6)],
    "adr": [(15.0, 43.5), (13.0, 44.8), (18.0, 41.8), (16.5, 42.5)],
    "aeg": [(25.0, 39.0), (25.0, 37.0), (24.3, 40.0), (26.5, 36.5), (23.5, 37.5)],
    "eas": [(30.0, 34.5), (34.0, 35.5), (26.0, 34.5), (34.0, 33.0)],
    "bla": [(34.0, 43.0), (30.5, 44.0), (38.0, 42.5), (36.5, 46.0), (31.5, 42.0), (40.5, 42.0)],
}

# Countries whose modern land is shared only among their own provinces (MAP.md step 5).
COUNTRY_GROUPS: list[tuple[tuple[str, ...], tuple[str, ...]]] = [
    (("Norway",), ("nwy",)),
    (("Sweden",), ("swe",)),
    (("Finland", "Aland"), ("fin",)),
    (("Denmark",), ("den",)),
    (("Spain", "Andorra", "Gibraltar"), ("spa",)),
    (("Portugal",), ("por",)),
    (("France", "Monaco"), ("bre", "pic", "par", "bur", "gas", "mar")),
    (("Belgium", "Luxembourg"), ("bel",)),
    (("Netherlands",), ("hol",)),
    (("Switzerland",), ("swi",)),
]

# Land corridors across straits: (start, end, owners of the first and second half).
CORRIDOR_WIDTH = 5.0
STRAIT_HALF_WIDTH = 1.1
CORRIDORS: list[tuple[LL, LL, str, str]] = [
    ((12.50, 56.00), (12.82, 56.07), "den", "swe"),  # Oresund at Helsingor
    ((10.72, 55.31), (11.22, 55.33), "den", "den"),  # Great Belt
    ((9.64, 55.57), (9.86, 55.45), "den", "den"),  # Little Belt
    ((28.93, 41.12), (29.13, 41.07), "con", "con"),  # Bosporus
    ((26.30, 40.20), (26.50, 40.07), "con", "con"),  # Dardanelles
]

# Which stretch of coastline is which coast: a hint point near each coast.
COAST_HINTS: dict[str, LL] = {
    "spa/nc": (-5.0, 43.6),
    "spa/sc": (-1.0, 37.5),
    "stp/nc": (38.0, 66.5),
    "stp/sc": (29.0, 60.0),
    "bul/ec": (28.0, 43.0),
    "bul/sc": (25.5, 40.9),
}

# Decorative islands that get an id (island_<name>), found by a point on them.
ISLAND_NAMES: dict[str, LL] = {
    "ireland": (-8.0, 53.3),
    "iceland": (-18.5, 64.9),
    "corsica": (9.1, 42.1),
    "sardinia": (9.0, 40.0),
    "crete": (24.9, 35.25),
    "cyprus": (33.2, 35.05),
    "mallorca": (3.0, 39.6),
    "gotland": (18.5, 57.45),
}

# Label layout.  Each space gets a cluster: the unit (a circle of UNIT_RADIUS at the anchor), its
# label under (or over) it, and for a supply centre the marker beside the label.  The cluster is
# put where it fits best inside the space; hand-placed anchors (lon, lat) override the search.
ANCHOR_AT: dict[str, LL] = {
    "con": (27.55, 41.45),
    "cly": (-5.2, 57.45),
    "edi": (-2.6, 57.2),
    # Liverpool and Yorkshire as far apart as the island allows, so two units (and a move
    # arrow between them) have room
    "lvp": (-3.55, 54.55),
    "yor": (-0.95, 54.05),
    "nap": (15.75, 40.5),
    "rom": (12.85, 42.15),
    "tus": (11.05, 43.45),
    "den": (9.15, 56.15),
    "hol": (5.55, 52.55),
    # Sweden's unit in the south, where its neighbours (Skagerrak, Baltic, Norway) are: from the
    # far north an arrow to the Skagerrak crossed Norway
    "swe": (13.9, 59.9),
}
# Where the label goes relative to the unit, for spaces where the search picks badly.
LABEL_SIDE: dict[str, str] = {"con": "below", "nap": "below", "lvp": "above", "cly": "below"}
# Supply-centre markers placed by hand (lon, lat).
MARKER_AT: dict[str, LL] = {"edi": (-3.25, 56.15), "swe": (12.5, 59.7)}
UNIT_RADIUS = 11.0
LABEL_GAP = 19.0  # px from the unit anchor to the label's middle
MARKER_RADIUS = 4.5
SHORT_FONT_SIZE = 16.0
FULL_FONT_SIZE = 14.5


# ---------------------------------------------------------------------------------------------
# Geography
# ---------------------------------------------------------------------------------------------
def fetch_package_file(cache: Path, package: str, member: Path) -> Path:
    """Return ``member`` of a Debian package, fetched with ``apt-get download`` if needed."""
    target = cache / "pkg" / member
    if target.is_file():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    debs = sorted(cache.glob(f"{package}_*.deb"))
    if not debs:
        print(f"fetching {package} with apt-get download ...", file=sys.stderr)
        subprocess.run(["apt-get", "download", package], cwd=cache, check=True)
        debs = sorted(cache.glob(f"{package}_*.deb"))
    (cache / "pkg").mkdir(exist_ok=True)
    tar = subprocess.run(
        ["dpkg-deb", "--fsys-tarfile", str(debs[-1])], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(cache / "pkg"), f"./{member}"], input=tar, check=True)
    return target


def fetch_natural_earth(cache: Path) -> Path:
    """Return the folder holding Rdata.rdx/.rdb of r-cran-rnaturalearthdata."""
    fetch_package_file(cache, DEB_PACKAGE, RDATA_DIR / "Rdata.rdx")
    return fetch_package_file(cache, DEB_PACKAGE, RDATA_DIR / "Rdata.rdb").parent


def read_pn2(path: Path) -> list[BaseGeometry]:
    """Polygons of a Marble PN2 file (Natural Earth data packed by Marble).

    Layout, big-endian: a header (version: u8, ring count: u32, one more u8), then features.  A
    feature is flag: u8, id: u32; flag 4 (a multi-geometry) is followed by a u8 count of member
    features, any other flag by the number of absolute nodes (u32) and the nodes.  A node is
    lat, lon (i16, 1/120 degree) and a count (i16) of relative nodes, each a (lat, lon) i8 offset
    from its absolute node.  Flag 2 is an outer ring, 3 an inner ring of the same id."""
    data = path.read_bytes()
    if data[0] != 2:
        raise RuntimeError(f"{path.name}: PN2 version {data[0]} not understood")
    rings: list[tuple[int, int, list[tuple[float, float]]]] = []

    def feature(o: int) -> int:
        flag = data[o]
        (fid,) = struct.unpack_from(">I", data, o + 1)
        o += 5
        if flag == 4:
            count = data[o]
            o += 1
            for _ in range(count):
                o = feature(o)
            return o
        (nodes,) = struct.unpack_from(">I", data, o)
        o += 4
        pts: list[tuple[float, float]] = []
        for _ in range(nodes):
            lat, lon, children = struct.unpack_from(">hhh", data, o)
            o += 6
            pts.append((lon / 120, lat / 120))
            for _ in range(children):
                dlat, dlon = struct.unpack_from(">bb", data, o)
                o += 2
                pts.append(((lon + dlon) / 120, (lat + dlat) / 120))
        rings.append((flag, fid, pts))
        return o

    o = 6
    while o < len(data):
        o = feature(o)
    outers: dict[int, list[Polygon]] = defaultdict(list)
    inners: dict[int, list[Polygon]] = defaultdict(list)
    for flag, fid, pts in rings:
        if len(pts) < 4:
            continue
        poly = shapely.make_valid(Polygon(pts))
        (outers if flag != 3 else inners)[fid].append(poly)
    out = []
    for fid in sorted(outers):
        geom = unary_union(outers[fid])
        if inners.get(fid):
            geom = geom.difference(unary_union(inners[fid]))
        out.append(geom)
    return out


def read_countries(data_dir: Path) -> dict[str, BaseGeometry]:
    """Natural Earth 1:50m countries as lon/lat Shapely geometries, keyed by admin name."""
    warnings.simplefilter("ignore")  # rdata warns about the .rdx header it does not know
    index = rdata.conversion.convert(
        rdata.parser.parse_data(gzip.decompress((data_dir / "Rdata.rdx").read_bytes()))
    )
    offset, length = (int(v) for v in index["variables"]["countries50"])
    with (data_dir / "Rdata.rdb").open("rb") as fh:
        fh.seek(offset)
        blob = fh.read(length)
    # Each blob: 4-byte length, b"Z", then a raw LZMA2 stream.
    if blob[4:5] != b"Z":
        raise RuntimeError("unexpected compression in Rdata.rdb")
    raw = lzma.decompress(blob[5:], format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA2}])
    sp = rdata.conversion.convert(rdata.parser.parse_data(raw))
    names = [str(n) for n in sp.data["admin"].tolist()]
    out: dict[str, BaseGeometry] = {}
    for name, feature in zip(names, sp.polygons, strict=True):
        shells: list[Polygon] = []
        holes: list[Polygon] = []
        for ring in feature.Polygons:
            coords = np.asarray(ring.coords, dtype=float)
            if len(coords) < 4:
                continue
            poly = Polygon(coords).buffer(0)
            (holes if bool(np.asarray(ring.hole).ravel()[0]) else shells).append(poly)
        geom = unary_union(shells)
        if holes:
            geom = geom.difference(unary_union(holes))
        out[name] = geom
    return out


def project_geometry(geom: BaseGeometry) -> BaseGeometry:
    def _transform(coords: np.ndarray) -> np.ndarray:
        x, y = project(coords[:, 0], coords[:, 1])
        return np.column_stack([x, y])

    return shapely.transform(geom, _transform)


def polygons_of(geom: BaseGeometry) -> list[Polygon]:
    if geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    if isinstance(geom, MultiPolygon | GeometryCollection):
        out: list[Polygon] = []
        for g in geom.geoms:
            out.extend(polygons_of(g))
        return out
    return []


def as_polygonal(geom: BaseGeometry) -> BaseGeometry:
    polys = [p for p in polygons_of(geom) if p.area > 1e-6]
    if not polys:
        return Polygon()
    return polys[0] if len(polys) == 1 else MultiPolygon(polys)


# ---------------------------------------------------------------------------------------------
# The board
# ---------------------------------------------------------------------------------------------
@dataclass
class Board:
    kinds: dict[str, str]
    names: dict[str, str]
    country: dict[str, str | None]
    home: dict[str, str | None]
    centres: set[str]
    adjacent: set[frozenset[str]]
    coasts: dict[str, list[str]]  # "spa/nc" -> seas it touches
    powers: list[str]

    @classmethod
    def load(cls, path: Path) -> Board:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        kinds: dict[str, str] = {}
        names: dict[str, str] = {}
        country: dict[str, str | None] = {}
        home: dict[str, str | None] = {}
        centres: set[str] = set()
        adjacent: set[frozenset[str]] = set()
        coasts: dict[str, list[str]] = {}
        spaces = data["spaces"]
        for sid, sp in spaces.items():
            kinds[sid] = sp["kind"]
            names[sid] = sp["name"]
            country[sid] = sp.get("country")
            home[sid] = sp.get("home")
            if sp.get("centre"):
                centres.add(sid)
            for other in list(sp.get("army", [])) + list(sp.get("fleet", [])):
                adjacent.add(frozenset({sid, other.split("/")[0]}))
            for cname, coast in sp.get("coasts", {}).items():
                targets = [t.split("/")[0] for t in coast.get("fleet", [])]
                for t in targets:
                    adjacent.add(frozenset({sid, t}))
                coasts[f"{sid}/{cname}"] = sorted(t for t in targets if spaces[t]["kind"] == "sea")
        return cls(kinds, names, country, home, centres, adjacent, coasts, sorted(data["powers"]))


# ---------------------------------------------------------------------------------------------
# Partition
# ---------------------------------------------------------------------------------------------
@dataclass
class Result:
    spaces: dict[str, BaseGeometry] = field(default_factory=dict)
    coasts: dict[str, BaseGeometry] = field(default_factory=dict)
    islands: list[Polygon] = field(default_factory=list)  # decorative land
    lakes: list[Polygon] = field(default_factory=list)  # decorative water drawn over land
    inland_lakes: list[Polygon] = field(default_factory=list)  # Natural Earth lakes, decoration
    straits: list[BaseGeometry] = field(default_factory=list)  # water drawn over corridors
    anchors: dict[str, Point] = field(default_factory=dict)
    labels: dict[str, Point] = field(default_factory=dict)
    markers: dict[str, Point] = field(default_factory=dict)
    label_text: dict[str, tuple[str, float]] = field(default_factory=dict)


def voronoi_assign(
    region: BaseGeometry, seeds: Sequence[tuple[str, Point]], out: dict[str, list[BaseGeometry]]
) -> None:
    """Split ``region`` among ``seeds`` by their Voronoi cells."""
    if region.is_empty or not seeds:
        return
    owners = {s for s, _ in seeds}
    if len(owners) == 1:
        out[seeds[0][0]].append(region)
        return
    pts = MultiPoint([p for _, p in seeds])
    cells = shapely.voronoi_polygons(pts, extend_to=region.envelope.buffer(50), ordered=True)
    for (sid, _), cell in zip(seeds, cells.geoms, strict=True):
        piece = as_polygonal(region.intersection(cell))
        if not piece.is_empty:
            out[sid].append(piece)


def shared_length(a: BaseGeometry, b: BaseGeometry, tol: float = 0.25) -> float:
    """Length of a's boundary that runs along b (within ``tol`` px)."""
    if not a.buffer(tol).intersects(b):
        return 0.0
    return a.boundary.intersection(b.buffer(tol)).length


def reassign_orphans(
    geoms: dict[str, BaseGeometry], anchors: dict[str, list[Point]], ids: Iterable[str]
) -> list[Polygon]:
    """Give each unanchored fragment of a space to the neighbour it shares most border with.

    Returns fragments that touch nobody (they become decorative)."""
    ids = sorted(ids)
    leftovers: list[Polygon] = []
    for _round in range(6):
        moved = False
        for sid in ids:
            parts = polygons_of(geoms[sid])
            keep = [p for p in parts if any(p.buffer(0.01).contains(a) for a in anchors[sid])]
            orphans = [p for p in parts if p not in keep]
            if not orphans:
                continue
            geoms[sid] = as_polygonal(unary_union(keep))
            for frag in orphans:
                best, best_len = None, 0.0
                for other in ids:
                    if other == sid or geoms[other].is_empty:
                        continue
                    length = shared_length(frag, geoms[other])
                    if length > best_len:
                        best, best_len = other, length
                if best is None:
                    leftovers.append(frag)
                else:
                    geoms[best] = as_polygonal(unary_union([geoms[best], frag]))
                    moved = True
        if not moved:
            break
    return leftovers


def build(board: Board, countries: dict[str, BaseGeometry], lakes: Sequence[BaseGeometry] = ()) -> Result:
    frame = box(0, 0, WIDTH, HEIGHT)
    wide = frame.buffer(40, join_style="mitre")
    # 1-2. Project, clip loosely, simplify as one coverage, then clip to the frame.
    names = sorted(countries)
    projected = []
    for name in names:
        g = countries[name]
        if g.is_empty or not g.intersects(box(-40, 20, 70, 85)):
            projected.append(Polygon())
            continue
        projected.append(as_polygonal(project_geometry(g).intersection(wide)))
    keep_idx = [i for i, g in enumerate(projected) if not g.is_empty]
    arr = np.array([projected[i] for i in keep_idx], dtype=object)
    arr = shapely.make_valid(arr)
    simplified = shapely.coverage_simplify(arr, SIMPLIFY)
    country_px: dict[str, BaseGeometry] = {}
    for i, g in zip(keep_idx, simplified, strict=True):
        g = as_polygonal(shapely.make_valid(g).intersection(frame))
        if not g.is_empty:
            country_px[names[i]] = g
    land = as_polygonal(unary_union(list(country_px.values())))

    seeds: dict[str, list[Point]] = {sid: [px(*ll) for ll in lls] for sid, lls in SEEDS.items()}
    missing = sorted(set(board.kinds) - set(seeds))
    if missing:
        raise SystemExit(f"no seeds for: {', '.join(missing)}")

    # Drop tiny islands (unless seeded), fill tiny holes.
    land_parts = []
    for p in polygons_of(land):
        seeded = any(p.contains(s) for sid in seeds for s in seeds[sid] if board.kinds[sid] != "sea")
        if p.area < MIN_ISLAND and not seeded:
            continue
        holes = [h for h in p.interiors if Polygon(h).area >= MIN_LAKE]
        land_parts.append(Polygon(p.exterior, holes))
    land = as_polygonal(unary_union(land_parts))

    # 3. Corridors: thin owned land across straits.
    corridor_pieces: dict[str, list[BaseGeometry]] = defaultdict(list)
    straits: list[BaseGeometry] = []
    for a, b, own_a, own_b in CORRIDORS:
        pa, pb = px(*a), px(*b)
        line = LineString([pa, pb])
        strip = line.buffer(CORRIDOR_WIDTH / 2, cap_style="flat")
        water_part = strip.difference(land)
        mid = line.interpolate(0.5, normalized=True)
        dx, dy = pb.x - pa.x, pb.y - pa.y
        norm = math.hypot(dx, dy)
        nx, ny = -dy / norm * 50, dx / norm * 50
        half_a = Polygon(
            [
                (pa.x - dx - nx, pa.y - dy - ny),
                (mid.x - nx, mid.y - ny),
                (mid.x + nx, mid.y + ny),
                (pa.x - dx + nx, pa.y - dy + ny),
            ]
        )
        corridor_pieces[own_a].append(as_polygonal(water_part.intersection(half_a)))
        corridor_pieces[own_b].append(as_polygonal(water_part.difference(half_a)))
        # The strait drawn back on top: the real water, plus a channel where the strait
        # crosses the corridor, so it stays visible where 1:50m closes it.
        centre = water_part.centroid if not water_part.is_empty else mid
        channel = LineString([(centre.x - nx, centre.y - ny), (centre.x + nx, centre.y + ny)])
        straits.append(unary_union([water_part, channel.buffer(STRAIT_HALF_WIDTH)]).intersection(strip))
    corridors_all = as_polygonal(unary_union([g for v in corridor_pieces.values() for g in v]))

    # Seeds must lie in their medium.
    bad = []
    for sid, pts in seeds.items():
        medium = land if board.kinds[sid] != "sea" else frame.difference(land)
        for i, p in enumerate(pts):
            if not medium.contains(p):
                where = "outside the frame" if not frame.contains(p) else "in the wrong medium"
                bad.append(f"{sid}[{i}] {SEEDS[sid][i]} {where} at ({p.x:.0f}, {p.y:.0f})")
    if bad and not ALLOW_BAD_SEEDS:
        raise SystemExit("seeds outside their medium:\n  " + "\n  ".join(bad))

    if bad:
        print("ignoring bad seeds:\n  " + "\n  ".join(bad), file=sys.stderr)
        for sid, pts in list(seeds.items()):
            medium = land if board.kinds[sid] != "sea" else frame.difference(land)
            seeds[sid] = [p for p in pts if medium.contains(p)]

    # 4-5. Land partition.
    group_of: dict[str, int] = {}
    group_land: list[BaseGeometry] = []
    for gi, (cnames, sids) in enumerate(COUNTRY_GROUPS):
        for s in sids:
            group_of[s] = gi
        group_land.append(unary_union([country_px[c] for c in cnames if c in country_px]))
    pieces: dict[str, list[BaseGeometry]] = defaultdict(list)
    result = Result()
    land_seed_list = [(sid, p) for sid in sorted(seeds) if board.kinds[sid] != "sea" for p in seeds[sid]]
    for comp in polygons_of(land):
        inside = [(sid, p) for sid, p in land_seed_list if comp.contains(p)]
        if not inside:
            result.islands.append(comp)
            continue
        remaining: BaseGeometry = comp
        for gi, gland in enumerate(group_land):
            gseeds = [(s, p) for s, p in inside if group_of.get(s) == gi]
            if not gseeds:
                continue
            region = as_polygonal(remaining.intersection(gland))
            voronoi_assign(region, gseeds, pieces)
            remaining = remaining.difference(region)
        rest = [(s, p) for s, p in inside if s not in group_of] or inside
        voronoi_assign(as_polygonal(remaining), rest, pieces)
    for sid, geoms in corridor_pieces.items():
        pieces[sid].extend(geoms)
    land_ids = sorted(s for s in board.kinds if board.kinds[s] != "sea")
    spaces: dict[str, BaseGeometry] = {
        sid: as_polygonal(unary_union(pieces.get(sid, []))) for sid in land_ids
    }
    result.islands.extend(reassign_orphans(spaces, seeds, land_ids))

    # 6. Seas: water = frame - land; the same seeded Voronoi per water body.
    all_land = unary_union([land, corridors_all])
    water = as_polygonal(frame.difference(all_land))
    sea_ids = sorted(s for s in board.kinds if board.kinds[s] == "sea")
    sea_seed_list = [(sid, p) for sid in sea_ids for p in seeds[sid]]
    sea_pieces: dict[str, list[BaseGeometry]] = defaultdict(list)
    for comp in polygons_of(water):
        inside = [(sid, p) for sid, p in sea_seed_list if comp.contains(p)]
        if not inside:
            result.lakes.append(comp)
            continue
        voronoi_assign(comp, inside, sea_pieces)
    for sid in sea_ids:
        spaces[sid] = as_polygonal(unary_union(sea_pieces.get(sid, [])))
    result.lakes.extend(reassign_orphans(spaces, seeds, sea_ids))

    # A lake wholly inside one province belongs to it (drawn as water on top).
    for lake in list(result.lakes):
        owners = [s for s in land_ids if shared_length(lake, spaces[s]) > 0.5]
        if len(owners) == 1 and shared_length(lake, spaces[owners[0]]) > 0.95 * lake.length:
            spaces[owners[0]] = as_polygonal(unary_union([spaces[owners[0]], lake]))

    # One exact coverage on the output grid; the checks below see exactly what the SVG holds.
    decorative = [
        g
        for g in result.islands + result.lakes
        if not any(
            shared_length(g, spaces[s]) > 0.95 * g.length and g.within(spaces[s].buffer(0.5))
            for s in land_ids
        )
    ]
    spaces, result.islands, result.lakes = snap_coverage(
        frame, spaces, result.islands, result.lakes, decorative
    )
    result.spaces = spaces
    result.straits = [shapely.set_precision(s, PRECISION) for s in straits if not s.is_empty]

    # Inland lakes: decoration drawn over the provinces, which stay whole underneath.
    land_now = unary_union([spaces[s] for s in land_ids]).buffer(-0.6)
    for lake in lakes:
        if not lake.intersects(box(-40, 20, 70, 85)):
            continue
        g = project_geometry(lake).intersection(land_now).simplify(0.4)
        for part in polygons_of(shapely.set_precision(as_polygonal(g), PRECISION)):
            if part.area >= MIN_INLAND_LAKE:
                result.inland_lakes.append(part)

    # 7. Split coasts.
    for coast_id in sorted(board.coasts):
        result.coasts[coast_id] = coast_strip(coast_id, board, spaces)

    place_points(board, result, seeds)
    return result


COAST_STRIP = 4.0


def snap_coverage(
    frame: Polygon,
    spaces: dict[str, BaseGeometry],
    islands: list[Polygon],
    lakes: list[Polygon],
    decorative: list[Polygon],
) -> tuple[dict[str, BaseGeometry], list[Polygon], list[Polygon]]:
    """Node every outline on the 0.1 px grid, cut the frame into faces, give each face back to
    the space it came from.  Neighbours then share exactly the same edges."""
    ids = sorted(spaces)
    owners: list[BaseGeometry] = [spaces[s] for s in ids] + list(decorative)
    lines = [g.boundary for g in owners if not g.is_empty] + [frame.boundary]
    noded = shapely.union_all(lines, grid_size=PRECISION)
    faces = [f for f in shapely.get_parts(shapely.polygonize(shapely.get_parts(noded))) if f.area > 1e-9]
    tree = shapely.STRtree(owners)
    owned: dict[int, list[Polygon]] = defaultdict(list)
    for face in faces:
        rp = face.representative_point()
        hits = [int(i) for i in tree.query(rp, predicate="intersects")]
        if not hits:
            continue  # a sliver in no space: leave it to the background
        best = max(hits, key=lambda i: owners[i].intersection(face).area)
        owned[best].append(face)
    out: dict[str, BaseGeometry] = {}
    for i, sid in enumerate(ids):
        out[sid] = as_polygonal(shapely.union_all(owned.get(i, []), grid_size=PRECISION))
    deco = [
        as_polygonal(shapely.union_all(owned.get(len(ids) + k, []), grid_size=PRECISION))
        for k in range(len(decorative))
    ]
    deco_of = {id(g): d for g, d in zip(decorative, deco, strict=True)}
    new_islands = [p for g in islands for p in polygons_of(deco_of.get(id(g), g))]
    new_lakes = [
        p for g in lakes for p in polygons_of(deco_of.get(id(g), shapely.set_precision(g, PRECISION)))
    ]
    return out, new_islands, new_lakes


def coast_lines(prov: BaseGeometry, sea: BaseGeometry) -> list[LineString]:
    shared = prov.boundary.intersection(sea.buffer(0.2))
    lines = [g for g in getattr(shared, "geoms", [shared]) if isinstance(g, LineString | MultiLineString)]
    if not lines:
        return []
    merged = shapely.line_merge(unary_union(lines))
    return [g for g in getattr(merged, "geoms", [merged]) if g.length > 0.3]


def coast_strip(coast_id: str, board: Board, spaces: dict[str, BaseGeometry]) -> BaseGeometry:
    prov_id = coast_id.split("/")[0]
    prov = spaces[prov_id]
    siblings = [c for c in board.coasts if c.startswith(prov_id + "/")]
    mine: list[LineString] = []
    for sea in board.coasts[coast_id]:
        for line in coast_lines(prov, spaces[sea]):
            # A stretch of a sea listed by two coasts goes to the coast whose hint is nearest.
            claimants = [c for c in siblings if sea in board.coasts[c]]
            if len(claimants) > 1:
                nearest = min(claimants, key=lambda c: line.distance(px(*COAST_HINTS[c])))
                if nearest != coast_id:
                    continue
            mine.append(line)
    if not mine:
        raise SystemExit(f"{coast_id}: no coastline found")
    strip = unary_union(mine).buffer(COAST_STRIP, cap_style="flat").intersection(prov)
    strip = as_polygonal(shapely.make_valid(shapely.set_precision(strip, PRECISION)))
    return strip


def inward(prov: BaseGeometry, p: Point, depth: float) -> Point:
    """The point of ``prov`` at least ``depth`` inside it that is nearest ``p``."""
    for d in (depth, depth * 0.7, depth * 0.5, depth * 0.3):
        core = prov.buffer(-d)
        if not core.is_empty:
            if core.contains(p):
                return p
            return shapely.ops.nearest_points(core, p)[0]
    return prov.representative_point()


def main_part(geom: BaseGeometry, seed: Point) -> Polygon:
    parts = polygons_of(geom)
    for p in parts:
        if p.buffer(0.01).contains(seed):
            return p
    return max(parts, key=lambda p: p.area)


def text_width(text: str, size: float, *, bold: bool = True) -> float:
    """Rough advance width of ``text`` in DejaVu Sans (no font files needed at build time)."""
    width = 0.0
    for ch in text:
        if ch == " ":
            width += 0.33
        elif ch.isupper():
            width += 0.76 if bold else 0.70
        else:
            width += 0.64 if bold else 0.58
    return width * size


@dataclass(frozen=True)
class Layout:
    text: str
    size: float
    label_dx: float  # label middle relative to the anchor
    label_dy: float
    marker_dx: float | None  # marker relative to the label middle (None: no marker)
    shape: BaseGeometry  # the cluster's footprint with the anchor at (0, 0)


def layouts_for(board: Board, sid: str, *, markers: bool = True, side: str | None = None) -> list[Layout]:
    """Candidate clusters, best first: label under, over, right of or left of the unit."""
    kind = board.kinds[sid]
    full = board.names[sid].upper() if kind == "sea" else board.names[sid]
    texts: list[tuple[str, float]] = []
    if kind == "impassable":
        texts = [(board.names[sid], SHORT_FONT_SIZE - 4)]
    else:
        if len(full) > 3:
            texts.append((full, FULL_FONT_SIZE))
        texts.append((label_text(board, sid), SHORT_FONT_SIZE))
    out: list[Layout] = []
    for text, size in texts:
        w = text_width(text, size, bold=True)
        beside = UNIT_RADIUS + 3 + w / 2
        sides = {
            "below": (0.0, LABEL_GAP),
            "above": (0.0, -LABEL_GAP),
            "right": (beside, 0.0),
            "left": (-beside, 0.0),
        }
        offsets = [sides[side]] if side else list(sides.values())
        if kind == "impassable":
            offsets = [(0.0, 0.0)]  # no unit: the label sits on the anchor
        for dx, dy in offsets:
            label = box(dx - w / 2, dy - size * 0.55, dx + w / 2, dy + size * 0.45)
            parts = [label] if kind == "impassable" else [Point(0, 0).buffer(UNIT_RADIUS, 16), label]
            marker_options: list[float | None] = [None]
            if markers and sid in board.centres:
                off = w / 2 + MARKER_RADIUS + 3
                marker_options = [off] if dx > 0 else [-off] if dx < 0 else [-off, off]
            for mdx in marker_options:
                shape_parts = list(parts)
                if mdx is not None:
                    shape_parts.append(Point(dx + mdx, dy).buffer(MARKER_RADIUS + 1, 8))
                out.append(Layout(text, size, dx, dy, mdx, unary_union(shape_parts)))
    return out


def best_place(
    part: Polygon, layouts: list[Layout], fixed: Point | None, obstacles: BaseGeometry, prefer: Point
) -> tuple[Point, Layout]:
    """The anchor and layout whose cluster has most clearance inside ``part`` (capped), nearest
    ``prefer``; full names win over short ids when they fit with a margin."""
    if fixed is not None:
        candidates = [fixed]
    else:
        core = part.buffer(-UNIT_RADIUS)
        if core.is_empty:
            core = part
        minx, miny, maxx, maxy = core.bounds
        step = max(1.5, math.sqrt(core.area / 350))
        mx, my = np.meshgrid(np.arange(minx, maxx + step, step), np.arange(miny, maxy + step, step))
        gx, gy = mx.ravel(), my.ravel()
        inside = shapely.contains_xy(core, gx, gy)
        candidates = [Point(float(x), float(y)) for x, y in zip(gx[inside], gy[inside], strict=True)]
        candidates.append(prefer)
    boundary = part.boundary
    best: tuple[float, Point, Layout] | None = None
    for rank, layout in enumerate(layouts):
        coords = np.array([(c.x, c.y) for c in candidates])
        shapes = [shapely.transform(layout.shape, lambda xy, c=c: xy + c) for c in coords]
        arr = np.array(shapes, dtype=object)
        clearance = shapely.distance(boundary, arr)
        clearance = np.where(shapely.within(arr, part), clearance, -clearance)
        if not obstacles.is_empty:
            clearance = np.minimum(clearance, shapely.distance(obstacles, arr))
        is_full = layout.size == FULL_FONT_SIZE
        if is_full:
            clearance = np.where(clearance >= 3.0, clearance, -1e9)
        # The label's middle (what hit-tests use) must be in the space whatever else happens.
        label_ok = shapely.contains_xy(part, coords[:, 0] + layout.label_dx, coords[:, 1] + layout.label_dy)
        unit_ok = shapely.contains_xy(part.buffer(-4), coords[:, 0], coords[:, 1])
        clearance = np.where(label_ok & unit_ok, clearance, -1e6)
        dist = np.hypot(coords[:, 0] - prefer.x, coords[:, 1] - prefer.y)
        score = np.minimum(clearance, 10.0) - 0.02 * dist - 0.5 * rank + (100.0 if is_full else 0.0)
        i = int(np.argmax(score))
        if best is None or score[i] > best[0]:
            best = (float(score[i]), candidates[i], layout)
    assert best is not None
    if best[0] >= 0:
        return best[1], best[2]
    # Nothing fits: take the cluster that sticks out of the space least.
    least: tuple[float, Point, Layout] | None = None
    for rank, layout in enumerate(layouts):
        if layout.size == FULL_FONT_SIZE:
            continue
        coords = np.array([(c.x, c.y) for c in candidates])
        arr = np.array(
            [shapely.transform(layout.shape, lambda xy, c=c: xy + c) for c in coords], dtype=object
        )
        outside = shapely.area(shapely.difference(arr, part))
        if not obstacles.is_empty:
            outside = outside + shapely.area(shapely.intersection(arr, obstacles))
        label_ok = shapely.contains_xy(part, coords[:, 0] + layout.label_dx, coords[:, 1] + layout.label_dy)
        dist = np.hypot(coords[:, 0] - prefer.x, coords[:, 1] - prefer.y)
        score = np.where(label_ok, -outside, -1e9) - 0.01 * dist - 0.5 * rank
        i = int(np.argmax(score))
        if least is None or score[i] > least[0]:
            least = (float(score[i]), candidates[i], layout)
    assert least is not None
    return least[1], least[2]


def clearance_of(part: Polygon, layout: Layout, anchor: Point, obstacles: BaseGeometry) -> float:
    shape = shapely.transform(layout.shape, lambda xy: xy + (anchor.x, anchor.y))
    c = part.boundary.distance(shape) if shape.within(part) else -1.0
    if not obstacles.is_empty:
        c = min(c, obstacles.distance(shape))
    return c


def free_spot(part: Polygon, taken: BaseGeometry, radius: float) -> Point:
    """The point of ``part`` farthest (up to a cap) from its border and from ``taken``."""
    minx, miny, maxx, maxy = part.bounds
    step = max(1.0, math.sqrt(part.area / 1500))
    mx, my = np.meshgrid(np.arange(minx, maxx + step, step), np.arange(miny, maxy + step, step))
    gx, gy = mx.ravel(), my.ravel()
    inside = shapely.contains_xy(part, gx, gy)
    pts = shapely.points(gx[inside], gy[inside])
    room = np.minimum(shapely.distance(part.boundary, pts), shapely.distance(taken, pts)) - radius
    centre = taken.centroid
    score = np.minimum(room, 4.0) - 0.01 * shapely.distance(centre, pts)
    i = int(np.argmax(score))
    return pts[i]


def place_points(board: Board, result: Result, seeds: dict[str, list[Point]]) -> None:
    # Split-coast anchors first: they are obstacles for their province's cluster.
    coast_obstacles: dict[str, list[BaseGeometry]] = defaultdict(list)
    for cid, strip in sorted(result.coasts.items()):
        prov = result.spaces[cid.split("/")[0]]
        line = max(
            (ln for sea in board.coasts[cid] for ln in coast_lines(strip, result.spaces[sea])),
            key=lambda ln: ln.length,
        )
        mid = line.interpolate(0.5, normalized=True)
        a = ANCHOR_AT.get(cid)
        p = px(*a) if a else inward(prov, mid, UNIT_RADIUS)
        p = Point(round(p.x, 1), round(p.y, 1))
        result.anchors[cid] = p
        coast_obstacles[cid.split("/")[0]].append(p.buffer(UNIT_RADIUS + 2))
    for sid in sorted(result.spaces):
        part = main_part(result.spaces[sid], seeds[sid][0])
        fixed = px(*ANCHOR_AT[sid]) if sid in ANCHOR_AT else None
        obstacles = unary_union(coast_obstacles.get(sid, [])) if sid in coast_obstacles else Polygon()
        prefer = polylabel(part, tolerance=0.5)
        layouts = layouts_for(board, sid, side=LABEL_SIDE.get(sid))
        anchor, layout = best_place(part, layouts, fixed, obstacles, prefer)
        loose_marker = False
        if sid in board.centres and (sid in MARKER_AT or clearance_of(part, layout, anchor, obstacles) < 1.0):
            # Too tight for the whole cluster: place unit and label, then the marker apart.
            anchor, layout = best_place(
                part, layouts_for(board, sid, markers=False), fixed, obstacles, prefer
            )
            loose_marker = True
        fit = clearance_of(part, layout, anchor, obstacles)
        if fit < 0:
            print(f"  note: {sid}: label cluster does not fit ({fit:.1f} px)", file=sys.stderr)
        anchor = Point(round(anchor.x, 1), round(anchor.y, 1))
        result.anchors[sid] = anchor
        label = Point(round(anchor.x + layout.label_dx, 1), round(anchor.y + layout.label_dy, 1))
        result.labels[sid] = label
        result.label_text[sid] = (layout.text, layout.size)
        if loose_marker:
            taken = unary_union(
                [shapely.transform(layout.shape, lambda xy, a=anchor: xy + (a.x, a.y)), obstacles]
            )
            m = px(*MARKER_AT[sid]) if sid in MARKER_AT else free_spot(part, taken, MARKER_RADIUS + 1)
            result.markers[sid] = Point(round(m.x, 1), round(m.y, 1))
        elif layout.marker_dx is not None:
            result.markers[sid] = Point(round(label.x + layout.marker_dx, 1), label.y)


# ---------------------------------------------------------------------------------------------
# Checks (the same rules as tests/mapdata/test_geometry.py, on the in-memory result)
# ---------------------------------------------------------------------------------------------
MIN_BORDER = 3.0  # px: a shared border at least this long means "adjacent"
MAX_TOUCH = 1.0  # px: non-adjacent spaces may share at most this much


def check(board: Board, result: Result) -> list[str]:
    problems: list[str] = []
    spaces = result.spaces
    ids = sorted(s for s in spaces if board.kinds[s] != "impassable")
    tree = shapely.STRtree([spaces[s] for s in ids])
    lengths: dict[frozenset[str], float] = {}
    for i, a in enumerate(ids):
        for j in tree.query(spaces[a].buffer(0.5)):
            b = ids[int(j)]
            if b <= a:
                continue
            lengths[frozenset({a, b})] = shared_length(spaces[a], spaces[b])
    wanted = {
        p for p in board.adjacent if not (p & {s for s in board.kinds if board.kinds[s] == "impassable"})
    }
    for pair in sorted(wanted, key=sorted):
        ln = lengths.get(pair, 0.0)
        if ln < MIN_BORDER:
            problems.append(f"missing  {'-'.join(sorted(pair))}: shared {ln:.1f} px")
    for pair, ln in sorted(lengths.items(), key=lambda kv: sorted(kv[0])):
        if pair not in wanted and ln > MAX_TOUCH:
            problems.append(f"extra    {'-'.join(sorted(pair))}: shared {ln:.1f} px")
    for pair, ln in sorted(lengths.items(), key=lambda kv: sorted(kv[0])):
        if pair in wanted and MIN_BORDER <= ln < 6:
            print(f"  note: short border {'-'.join(sorted(pair))} {ln:.1f} px", file=sys.stderr)
    # Near contacts: spaces the rules keep apart that come within 2 px of each other.
    for i, a in enumerate(ids):
        for j in tree.query(spaces[a], predicate="dwithin", distance=2.0):
            b = ids[int(j)]
            pair = frozenset({a, b})
            if b > a and pair not in wanted and lengths.get(pair, 0.0) <= MAX_TOUCH:
                gap = spaces[a].distance(spaces[b])
                print(f"  note: near contact {a}-{b}: {gap:.1f} px apart", file=sys.stderr)
    for cid, strip in sorted(result.coasts.items()):
        touching = sorted(
            s for s in spaces if board.kinds[s] == "sea" and shared_length(strip, spaces[s]) >= MIN_BORDER
        )
        if touching != board.coasts[cid]:
            problems.append(f"coast    {cid} touches {touching}, wants {board.coasts[cid]}")
        if strip.difference(spaces[cid.split("/")[0]]).area > 0.5:
            problems.append(f"coast    {cid} leaves its province")
    for sid, m in sorted(result.markers.items()):
        if not spaces[sid].contains(m):
            problems.append(f"marker   sc_{sid} outside its space")
    for sid, lp in sorted(result.labels.items()):
        if not spaces[sid].contains(lp):
            problems.append(f"label    label_{sid} outside its space")
    for sid, ap in sorted(result.anchors.items()):
        if not spaces[sid.split("/")[0]].contains(ap):
            problems.append(f"anchor   anchor_{sid} outside its space")
    for sid, g in sorted(spaces.items()):
        if g.is_empty:
            problems.append(f"empty    {sid}")
        elif not g.is_valid:
            problems.append(f"invalid  {sid}")
    return problems


# ---------------------------------------------------------------------------------------------
# Debug picture
# ---------------------------------------------------------------------------------------------
def debug_png(board: Board, result: Result, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(WIDTH / 100, HEIGHT / 100), dpi=100)
    rng = np.random.default_rng(1)
    for sid, g in sorted(result.spaces.items()):
        col = (0.6, 0.75, 0.9) if board.kinds[sid] == "sea" else tuple(rng.uniform(0.55, 0.95, 3))
        for p in polygons_of(g):
            xs, ys = p.exterior.xy
            ax.fill(xs, ys, fc=col, ec="k", lw=0.4)
        a = result.anchors[sid]
        ax.text(a.x, a.y, sid, ha="center", va="center", fontsize=7)
    for g in result.islands:
        xs, ys = g.exterior.xy
        ax.fill(xs, ys, fc="0.8", ec="0.5", lw=0.3)
    for g in result.coasts.values():
        for p in polygons_of(g):
            xs, ys = p.exterior.xy
            ax.fill(xs, ys, fc="red", alpha=0.6)
    for sid, lls in SEEDS.items():
        for i, ll in enumerate(lls):
            p = px(*ll)
            ax.plot(p.x, p.y, "k." if i else "r.", ms=2)
    ax.set_xlim(0, WIDTH)
    ax.set_ylim(HEIGHT, 0)
    ax.set_aspect("equal")
    ax.axis("off")
    fig.subplots_adjust(0, 0, 1, 1)
    fig.savefig(path)


# ---------------------------------------------------------------------------------------------
# SVG output
# ---------------------------------------------------------------------------------------------
# Soft home-country tints, chosen to stay apart for the common colour-vision deficiencies
# (they differ in lightness as well as hue).
POWER_TINT = {
    "austria": "#f1a3aa",  # soft red
    "england": "#8e95d2",  # royal blue, darker than the seas
    "france": "#c2e5f7",  # light sky blue, lighter than the seas
    "germany": "#9f988d",  # grey-brown, the darkest tint
    "italy": "#92d0bc",  # soft bluish green (stays apart from Austria for red-green deficiency)
    "russia": "#e6dcef",  # white-lavender
    "turkey": "#f4d873",  # soft yellow
}
NEUTRAL_LAND = "#ece3cc"
OFFBOARD_LAND = "#d6d1c4"
IMPASSABLE = "#bdb8ac"
SEA = "#86b5dc"
SEA_LINE = "#d4e6f5"
LAKE = "#a9cde9"
BORDER = "#6f695f"
COUNTRY_BORDER = "#35312b"
COASTLINE = "#3a5a78"
LABEL = "#24221f"
SEA_LABEL = "#173a5c"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

HEADER = """\
<!--
  Diplomacy Desktop standard board. Generated by maps/build/build_standard_svg.py from
  Natural Earth 1:50m geography (public domain); do not edit by hand.

  How to read this file (diplomacy_desktop.mapdata does exactly this):
  * One <path> per space: id = canonical space id, class = its kind from standard.toml
    ("land", "coast", "sea", "impassable").
  * Split coasts are their own <path class="split-coast"> with id "<province>_<coast>"
    (spa_nc, spa_sc, stp_nc, stp_sc, bul_ec, bul_sc): a thin strip inside the province
    along that coast.  The canonical id replaces "_" with "/".
  * Unit anchors are invisible circles <circle id="anchor_<id>"> in <g id="anchors">, one
    per space and one per split coast (anchor_spa_nc); the centre is the anchor.
  * Supply-centre markers are <circle id="sc_<id>"> in <g id="supply-centres">.
  * Labels are <text id="label_<id>">; the label point is (x, y - 0.35 * font-size).
  * class="decorative" marks islands, lakes and strait water: they belong to no space.
  * All paths use straight segments and fill-rule evenodd; there are no transforms.
-->
"""


def _num(v: int) -> str:
    """A coordinate held as tenths of a pixel, written without needless characters."""
    sign = "-" if v < 0 else ""
    v = abs(v)
    whole, tenth = divmod(v, 10)
    if tenth == 0:
        return f"{sign}{whole}"
    return f"{sign}{whole}.{tenth}" if whole else f"{sign}.{tenth}"


def _ring_d(coords: Sequence[tuple[float, float]]) -> str:
    pts = [(round(x * 10), round(y * 10)) for x, y in coords]
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts = pts[:-1]
    dedup = [pts[0]]
    for p in pts[1:]:
        if p != dedup[-1]:
            dedup.append(p)
    if len(dedup) < 3:
        return ""
    # Start every ring at its smallest point so the output does not depend on GEOS's choice.
    k = dedup.index(min(dedup))
    dedup = dedup[k:] + dedup[:k]
    out = [f"M{_num(dedup[0][0])} {_num(dedup[0][1])}l"]
    parts = []
    for (x0, y0), (x1, y1) in itertools.pairwise(dedup):
        dx, dy = _num(x1 - x0), _num(y1 - y0)
        parts.append(dx + ("" if dy.startswith("-") else " ") + dy)
    out.append(" ".join(parts))
    return "".join(out) + "z"


def path_d(geom: BaseGeometry) -> str:
    rings: list[str] = []
    for poly in sorted(polygons_of(shapely.normalize(geom)), key=lambda p: p.bounds):
        rings.append(_ring_d(poly.exterior.coords))
        rings.extend(_ring_d(r.coords) for r in poly.interiors)
    return "".join(r for r in rings if r)


def lines_d(geom: BaseGeometry) -> str:
    out = []
    merged = shapely.line_merge(geom) if not geom.is_empty else geom
    lines = [g for g in getattr(merged, "geoms", [merged]) if isinstance(g, LineString) and not g.is_empty]
    for line in sorted(lines, key=lambda ln: ln.coords[0]):
        pts = [(round(x * 10), round(y * 10)) for x, y in line.coords]
        dedup = [pts[0]] + [p for a, p in itertools.pairwise(pts) if p != a]
        if len(dedup) < 2:
            continue
        parts = []
        for (x0, y0), (x1, y1) in itertools.pairwise(dedup):
            dx, dy = _num(x1 - x0), _num(y1 - y0)
            parts.append(dx + ("" if dy.startswith("-") else " ") + dy)
        out.append(f"M{_num(dedup[0][0])} {_num(dedup[0][1])}l" + " ".join(parts))
    return "".join(out)


def label_text(board: Board, sid: str) -> str:
    if board.kinds[sid] == "sea":
        return sid.upper()
    if sid == "stp":
        return "StP"
    return sid.capitalize()


def fill_of(board: Board, sid: str) -> str:
    kind = board.kinds[sid]
    if kind == "sea":
        return SEA
    if kind == "impassable":
        return IMPASSABLE
    c = board.country.get(sid)
    return POWER_TINT[c] if c else NEUTRAL_LAND


def country_borders(board: Board, result: Result) -> BaseGeometry:
    land = sorted(s for s in result.spaces if board.kinds[s] != "sea")
    segs: list[LineString] = []
    for i, a in enumerate(land):
        for b in land[i + 1 :]:
            if board.country.get(a) == board.country.get(b):
                continue
            ga, gb = result.spaces[a], result.spaces[b]
            if not ga.intersects(gb):
                continue
            shared = ga.boundary.intersection(gb.boundary)
            segs.extend(g for g in getattr(shared, "geoms", [shared]) if isinstance(g, LineString))
    return unary_union(segs) if segs else GeometryCollection()


def _f(v: float) -> str:
    return _num(round(v * 10))


def write_svg(board: Board, result: Result) -> str:
    w, h = WIDTH, HEIGHT
    out: list[str] = ['<?xml version="1.0" encoding="UTF-8"?>\n', HEADER]
    out.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny" '
        f'width="{w}" height="{h}" viewBox="0 0 {w} {h}">\n'
        "<title>Diplomacy Desktop: standard board</title>\n"
        f'<rect id="background" class="decorative" x="0" y="0" width="{w}" height="{h}" fill="{SEA}"/>\n'
    )
    seas = sorted(s for s in result.spaces if board.kinds[s] == "sea")
    lands = sorted(s for s in result.spaces if board.kinds[s] != "sea")
    out.append(
        f'<g id="seas" stroke="{SEA_LINE}" stroke-width="1.2" stroke-linejoin="round" fill-rule="evenodd">\n'
    )
    for sid in seas:
        out.append(f'<path id="{sid}" class="sea" fill="{SEA}" d="{path_d(result.spaces[sid])}"/>\n')
    out.append("</g>\n")
    out.append(
        f'<g id="islands" fill="{OFFBOARD_LAND}" stroke="{COASTLINE}" stroke-width="0.8" '
        'stroke-linejoin="round" fill-rule="evenodd">\n'
    )
    named = {name: px(*ll) for name, ll in ISLAND_NAMES.items()}
    for g in sorted(result.islands, key=lambda p: p.bounds):
        names = [n for n, p in sorted(named.items()) if g.contains(p)]
        ident = f'id="island_{names[0]}" ' if names else ""
        out.append(f'<path {ident}class="decorative" d="{path_d(g)}"/>\n')
    out.append("</g>\n")
    out.append(
        f'<g id="provinces" stroke="{BORDER}" stroke-width="0.9" stroke-linejoin="round" '
        'fill-rule="evenodd">\n'
    )
    for sid in lands:
        out.append(
            f'<path id="{sid}" class="{board.kinds[sid]}" fill="{fill_of(board, sid)}" '
            f'd="{path_d(result.spaces[sid])}"/>\n'
        )
    out.append("</g>\n")
    water_deco = list(result.lakes) + list(result.straits) + list(result.inland_lakes)
    out.append(f'<g id="lakes" fill="{LAKE}" stroke="none" fill-rule="evenodd">\n')
    for g in sorted(water_deco, key=lambda p: p.bounds):
        d = path_d(g)
        if d:
            out.append(f'<path class="decorative" d="{d}"/>\n')
    out.append("</g>\n")
    out.append('<g id="split-coasts" fill="#2f6ea6" fill-opacity="0.45" stroke="none" fill-rule="evenodd">\n')
    for cid in sorted(result.coasts):
        out.append(
            f'<path id="{cid.replace("/", "_")}" class="split-coast" d="{path_d(result.coasts[cid])}"/>\n'
        )
    out.append("</g>\n")
    borders = country_borders(board, result)
    out.append(
        f'<path id="country-borders" class="decorative" fill="none" stroke="{COUNTRY_BORDER}" '
        f'stroke-width="1.8" stroke-linejoin="round" stroke-linecap="round" d="{lines_d(borders)}"/>\n'
    )
    land_union = unary_union([result.spaces[s] for s in lands])
    coast = land_union.boundary.difference(box(0, 0, w, h).exterior.buffer(0.05))
    out.append(
        f'<path id="coastline" class="decorative" fill="none" stroke="{COASTLINE}" stroke-width="1.1" '
        f'stroke-linejoin="round" stroke-linecap="round" d="{lines_d(unary_union([coast]))}"/>\n'
    )
    if result.lakes or result.inland_lakes:
        lakes_only = unary_union([g.boundary for g in result.lakes + result.inland_lakes])
        out.append(
            f'<path id="lake-shores" class="decorative" fill="none" stroke="{COASTLINE}" '
            f'stroke-width="0.7" d="{lines_d(lakes_only)}"/>\n'
        )
    out.append('<g id="supply-centres" fill="#ffffff" stroke="#2b2925" stroke-width="1.6">\n')
    for sid, m in sorted(result.markers.items()):
        out.append(f'<circle id="sc_{sid}" class="supply-centre" cx="{_f(m.x)}" cy="{_f(m.y)}" r="4.5"/>\n')
    out.append("</g>\n")
    # Halos in the space's own colour keep labels clear of borders, lakes and coast strips.
    out.append(
        f'<g id="label-halos" class="decorative" font-family="{FONT}" text-anchor="middle" '
        'stroke-width="3.2" stroke-linejoin="round" stroke-opacity="0.85">\n'
    )
    for sid in sorted(result.labels):
        p = result.labels[sid]
        text, fs = result.label_text[sid]
        italic = ' font-style="italic"' if board.kinds[sid] in ("sea", "impassable") else ""
        bold = ' font-weight="bold"' if board.kinds[sid] != "impassable" else ""
        colour = fill_of(board, sid)
        out.append(
            f'<text x="{_f(p.x)}" y="{_f(p.y + 0.35 * fs)}" font-size="{_f(fs)}"{italic}{bold} '
            f'fill="{colour}" stroke="{colour}">{escape(text)}</text>\n'
        )
    out.append("</g>\n")
    out.append(f'<g id="labels" font-family="{FONT}" text-anchor="middle">\n')
    for sid in sorted(result.labels):
        p = result.labels[sid]
        kind = board.kinds[sid]
        text, fs = result.label_text[sid]
        if kind == "sea":
            style = f'fill="{SEA_LABEL}" font-style="italic" font-weight="bold"'
        elif kind == "impassable":
            style = 'fill="#6f6a60" font-style="italic"'
        else:
            style = f'fill="{LABEL}" font-weight="bold"'
        out.append(
            f'<text id="label_{sid}" class="label" x="{_f(p.x)}" y="{_f(p.y + 0.35 * fs)}" '
            f'font-size="{_f(fs)}" {style}>{escape(text)}</text>\n'
        )
    out.append("</g>\n")
    out.append('<g id="anchors" fill="none" stroke="none">\n')
    for sid in sorted(result.anchors):
        a = result.anchors[sid]
        out.append(
            f'<circle id="anchor_{sid.replace("/", "_")}" class="anchor" cx="{_f(a.x)}" '
            f'cy="{_f(a.y)}" r="2"/>\n'
        )
    out.append("</g>\n")
    out.append(
        f'<text id="credit" class="decorative" x="{w - 8}" y="{h - 8}" text-anchor="end" '
        f'font-family="{FONT}" font-size="10" fill="#1f4468">'
        "Geography: Natural Earth (public domain)</text>\n"
    )
    out.append(
        f'<rect id="frame" class="decorative" x="0.5" y="0.5" width="{w - 1}" height="{h - 1}" '
        'fill="none" stroke="#3e5f7e" stroke-width="1"/>\n'
    )
    out.append("</svg>\n")
    return "".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, default=CACHE, help="where the Debian package is unpacked")
    ap.add_argument("--out", type=Path, default=OUT_SVG)
    ap.add_argument("--debug-png", type=Path, help="also draw a debug picture of the partition")
    ap.add_argument("--force", action="store_true", help="write the SVG even if checks fail")
    ap.add_argument("--allow-bad-seeds", action="store_true", help="drop misplaced seeds (debugging)")
    args = ap.parse_args(argv)
    global ALLOW_BAD_SEEDS
    ALLOW_BAD_SEEDS = args.allow_bad_seeds

    board = Board.load(BOARD_TOML)
    countries = read_countries(fetch_natural_earth(args.cache))
    lakes = read_pn2(fetch_package_file(args.cache, LAKES_PACKAGE, LAKES_FILE))
    result = build(board, countries, lakes)
    if args.debug_png:
        debug_png(board, result, args.debug_png)
    problems = check(board, result)
    for p in problems:
        print(p, file=sys.stderr)
    if problems and not args.force:
        print(f"{len(problems)} problems; SVG not written", file=sys.stderr)
        return 1
    svg = write_svg(board, result)
    args.out.write_text(svg, encoding="utf-8")
    print(
        f"wrote {args.out} ({len(svg.encode()) / 1024:.0f} KiB, sha256 "
        f"{hashlib.sha256(svg.encode()).hexdigest()[:16]})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
