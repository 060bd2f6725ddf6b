"""The browser tests' Chromium and its driver (Debian's chromium and chromium-driver; .ci/run
installs them), and the mark that skips a browser test, saying why, where they are not installed."""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
needs_browser = pytest.mark.skipif(
    not (CHROMIUM and CHROMEDRIVER),
    reason="no chromium and chromedriver here: the phone page's browser test needs Debian's chromium and "
           "chromium-driver (apt-get install chromium chromium-driver); .ci/run installs them")
