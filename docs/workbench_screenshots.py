"""Photograph the workbench (``ksolve serve``): its four pages at 1280 px.

    python docs/workbench_screenshots.py            # docs/workbench-{compose,verify,try,library}.png
    python docs/workbench_screenshots.py --out /tmp --width 400

The server (``ksolve.web.app.create_app`` under uvicorn) runs in a child
process on a free loopback port over a temporary folder holding a few bundled
problems; Debian's headless Chromium (``apt-get install chromium``) is driven
by Playwright's Python package (``pip install playwright``; no ``playwright
install``: the browser is the system's).  The script composes Rotenberg 1976
by clicks (the men, a black bishop on the dark squares), verifies it, plays
1.Nf2+ in Try it and on to the end, and opens the Library.  The browser tests
(``tests/test_web_browser.py``) use the same helpers.

>>> square_center({"x": 10, "y": 20, "width": 400, "height": 400}, "a1")
(35.0, 395.0)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-quic"]
LIBRARY = ("rotenberg-1976", "foster-1996", "anderson-01", "anderson-41", "dawson-fcr3190", "roche-1986")
"""The bundled problems copied into the server's folder for the Library page."""
ROTENBERG_MEN = (("white", "bishop", "f6"), ("white", "knight", "d3"), ("white", "rook", "a2"),
                 ("white", "king", "f1"), ("black", "pawn", "h2"), ("black", "king", "h1"))
"""The men of Rotenberg 1976 (8/8/5B2/8/8/3N4/R6p/5K1k), placed by clicks."""
SERVER = ("import sys; from pathlib import Path; import uvicorn; from ksolve.web.app import create_app; "
          "uvicorn.run(create_app(Path(sys.argv[1])), host='127.0.0.1', port=int(sys.argv[2]), log_level='warning')")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def serve(problems: Path, timeout: float = 90.0) -> Iterator[str]:
    """The workbench's server on a free loopback port over ``problems``: yields its URL."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen([sys.executable, "-c", SERVER, str(problems), str(port)], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the server stopped: {process.stderr.read()[-2000:]}")
            try:
                with urllib.request.urlopen(url + "api/problems", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not answer in {timeout:.0f} s") from None
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def problems_folder(target: Path, names: tuple[str, ...] = LIBRARY) -> Path:
    """``target`` holding copies of the bundled problems ``names``."""
    target.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(ROOT / "problems" / f"{name}.toml", target / f"{name}.toml")
    return target


def launch(playwright, chromium: str = CHROMIUM):
    """Headless Chromium (the system's, not Playwright's download)."""
    return playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)


def square_center(box: dict, square: str) -> tuple[float, float]:
    """The page coordinates of ``square``'s centre on a board (White at the bottom) whose bounding box is ``box``."""
    size = box["width"] / 8
    file, rank = "abcdefgh".index(square[0]), int(square[1]) - 1
    return box["x"] + (file + 0.5) * size, box["y"] + (7 - rank + 0.5) * size


def click_square(page, board: str, square: str) -> None:
    page.mouse.click(*square_center(page.locator(board).bounding_box(), square))


def drag_move(page, board: str, orig: str, dest: str) -> None:
    """Drags the man on ``orig`` to ``dest`` with the mouse, in small steps as a hand does."""
    box = page.locator(board).bounding_box()
    page.mouse.move(*square_center(box, orig))
    page.mouse.down()
    page.mouse.move(*square_center(box, dest), steps=8)
    page.mouse.up()


def compose_rotenberg(page, timeout: float = 30_000) -> None:
    """On the Compose page: clears the board, places Rotenberg's men from the palette by clicks,
    adds a hidden black bishop on the dark squares (the preset), sets #8 and the title; waits for
    the check's "30 positions"."""
    from playwright.sync_api import expect

    page.click("#tab-compose")
    page.click("#clear-board")
    for color, role, square in ROTENBERG_MEN:
        page.click(f'button[data-color="{color}"][data-role="{role}"]')
        click_square(page, "#compose-board", square)
    page.click("#add-unit")
    page.select_option("#unit-0 select.unit-piece", "b")
    page.click('#unit-0 button[data-preset="dark"]')
    page.click('#compose .tool[data-tool="move"]')
    page.fill("#stipulation", "#8")
    page.fill("#title", "Rotenberg, The Problemist 1976")
    page.fill("#author", "J. Rotenberg")
    page.fill("#year", "1976")
    page.fill("#save-name", "rotenberg-composed")
    expect(page.locator("#check-status")).to_contain_text("30 positions", timeout=timeout)


def take(out: Path, width: int = 1280, chromium: str = CHROMIUM) -> list[Path]:
    """Writes ``workbench-{compose,verify,try,library}.png`` into ``out``."""
    from playwright.sync_api import expect, sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    suffix = "" if width == 1280 else f"-{width}"
    shots = []
    with tempfile.TemporaryDirectory(prefix="ksolve-workbench-") as folder, \
            serve(problems_folder(Path(folder))) as url, sync_playwright() as playwright:
        browser = launch(playwright, chromium)
        page = browser.new_page(viewport={"width": width, "height": 1000})
        page.goto(url)
        compose_rotenberg(page)
        page.click("#unit-0 button.paint-unit")  # the bishop's squares painted, as while composing
        page.mouse.move(0, 0)
        page.evaluate("window.scrollTo(0, 0)")
        shots.append(out / f"workbench-compose{suffix}.png")
        page.screenshot(path=shots[-1])

        page.click("#tab-verify")
        page.click("#run-verify")
        expect(page.locator("#verdict")).to_contain_text("Sound", timeout=300_000)
        page.wait_for_function("document.getElementById('report-frame').contentDocument?.readyState === 'complete'")
        page.wait_for_timeout(500)
        shots.append(out / f"workbench-verify{suffix}.png")
        page.screenshot(path=shots[-1])

        page.click("#tab-try")
        page.click("#try-start")
        expect(page.locator("#try-stop")).to_be_enabled(timeout=60_000)
        drag_move(page, "#try-board", "d3", "f2")
        expect(page.locator("#try-answer .warning")).to_be_visible(timeout=60_000)
        page.fill("#try-move", "f1f2")
        page.click("#try-send")
        expect(page.locator("#try-reveal")).to_be_visible(timeout=60_000)
        page.wait_for_timeout(400)
        shots.append(out / f"workbench-try{suffix}.png")
        page.screenshot(path=shots[-1])

        page.click("#tab-library")
        expect(page.locator("#library-table tbody tr")).to_have_count(len(LIBRARY), timeout=30_000)
        page.click("#verify-all")
        expect(page.locator("#library-status")).to_contain_text("Done", timeout=300_000)
        shots.append(out / f"workbench-library{suffix}.png")
        page.screenshot(path=shots[-1])
        browser.close()
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="folder of the PNGs (default: docs/)")
    parser.add_argument("--width", type=int, default=1280, help="window width in px (default 1280)")
    parser.add_argument("--chromium", default=CHROMIUM, help=f"Chromium's executable (default {CHROMIUM})")
    args = parser.parse_args(argv)
    for path in take(args.out, args.width, args.chromium):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
