"""Headless Chromium for the report's tests (Selenium with Debian's chromium and chromium-driver)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest


def _tool(*names: str) -> str:
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    pytest.skip(f"{' or '.join(names)} is not installed: apt-get install chromium chromium-driver (see .ci/run)")


def chromium() -> Iterator[Any]:
    """A headless Chromium that keeps its console log (a generator for a fixture: it quits the browser after)."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed: pip install -e '.[test]'")
    from selenium.webdriver.chrome.service import Service

    binary = _tool("chromium", "chromium-browser")
    driver_path = _tool("chromedriver")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--window-size=1300,1000"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def open_page(browser: Any, path: Path | str, fragment: str = "") -> None:
    """Load ``path`` (with ``fragment``) and start with an empty console."""
    browser.get(f"file://{path}{fragment}")
    browser.get_log("browser")


def errors(browser: Any) -> list[dict[str, Any]]:
    """The console's errors since the last look."""
    return [entry for entry in browser.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")]
