"""Headless Chromium for the browser-table tests (Selenium): where it is, the skip when it is
missing, and one way to start it. Import only after `pytest.importorskip("selenium")`."""

from __future__ import annotations

import shutil

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="no chromium/chromedriver on this machine: apt-get install chromium chromium-driver (Debian)")


def headless_chromium() -> webdriver.Chrome:
    """A headless Chromium window of 1400x1100 (the screenshots' size)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1400,1100", "--hide-scrollbars"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
