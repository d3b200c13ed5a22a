"""Headless Chromium (Debian's package) driven by Selenium, with nothing downloaded at run time."""
from __future__ import annotations

import secrets
import tempfile
from contextlib import contextmanager

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


@contextmanager
def chromium():
    with tempfile.TemporaryDirectory(prefix="mh-chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--window-size=1400,1800", "--lang=en", f"--user-data-dir={profile}"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
        driver.implicitly_wait(0)
        try:
            yield Browser(driver)
        finally:
            driver.quit()


class Browser:
    def __init__(self, driver):
        self.driver = driver
        self.base_url = ""

    def go(self, path: str) -> None:
        self.driver.get(self.base_url + path)

    def find(self, css: str, timeout: float = 30):
        return WebDriverWait(self.driver, timeout).until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, css)))

    def all(self, css: str):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def fill(self, css: str, text: str) -> None:
        element = self.find(css)
        element.clear()
        element.send_keys(text)

    def click(self, css: str) -> None:
        self.find(css).click()

    def submit(self, css: str, timeout: float = 30) -> None:
        """Click a submit button and wait until the next page has replaced this one.

        The old page is marked with a token in its `window`; the next document has none. Asking an
        element of the old page whether it went stale races with the navigation (Chromium can answer
        "node does not belong to the document" instead of "stale"), so the wait asks the window, and
        a driver error while the navigation is under way only means "not yet".
        """
        token = secrets.token_hex(8)
        self.driver.execute_script("window.__mhPage = arguments[0];", token)
        self.find(css).click()

        def replaced(driver) -> bool:
            return driver.execute_script(
                "return window.__mhPage !== arguments[0] && document.readyState === 'complete';", token)

        WebDriverWait(self.driver, timeout, ignored_exceptions=(WebDriverException,)).until(replaced)

    def login(self, username: str, password: str) -> None:
        self.driver.delete_all_cookies()
        self.go("/admin/login/?next=/admin/")
        self.fill("#id_username", username)
        self.fill("#id_password", password)
        self.submit("input[type=submit]")
        self.find("#console-dashboard")

    @property
    def page(self) -> str:
        return self.driver.page_source
