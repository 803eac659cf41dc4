"""Render an HTML report (e.g. a `drowzee benchmark` run's `report.html`) to a full-page PNG in Debian Chromium.

    python scripts/report_png.py RUN/report.html docs/loop_report.png [--width 1200]

Relative images resolve against the report's folder (file:// URL). Needs `/usr/bin/chromium`
(`scripts/setup_chromium.sh`) or `$DROWZEE_CHROMIUM`; never downloads a browser.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

log = logging.getLogger("report_png")
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"]


def main() -> int:
    """Render; 2 when the report or the browser is missing."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("html", type=Path)
    parser.add_argument("png", type=Path)
    parser.add_argument("--width", type=int, default=1200)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    chromium = os.environ.get("DROWZEE_CHROMIUM", "/usr/bin/chromium")
    if not args.html.is_file() or not Path(chromium).exists():
        log.error("need %s and %s (run scripts/setup_chromium.sh)", args.html, chromium)
        return 2
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        page = browser.new_page(viewport={"width": args.width, "height": 900})
        page.goto(args.html.resolve().as_uri(), wait_until="load")
        args.png.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(args.png), full_page=True)
        browser.close()
    log.info("wrote %s", args.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
