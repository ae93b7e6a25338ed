# SPDX-License-Identifier: GPL-2.0-only
# What the browser tests share: skip (exit 77) without chromium, chromedriver
# or python3-selenium, and a headless Chromium that keeps the console log.
import shutil, sys
if not shutil.which("chromium") or not shutil.which("chromedriver"):
    sys.exit(77)
try:
    from selenium import webdriver
except ImportError:
    sys.exit(77)

def chromium():
    o = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--window-size=1600,1200", "--disable-gpu"):
        o.add_argument(a)
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=o)
