"""Photograph the Play page (``ksolve serve``, ``/play``) at 1280 and 400 px:

- ``play-kriegspiel.png``: a hot-seat Wild 16 game, White's board after 1.e4 d5 and a refused
  pawn try ("Illegal move"), with a guess from the tray and the belief tool's heat map of the
  black pawns;
- ``play-computer.png``: Fog of War against the computer, White to move, the fog, the enemy men
  in sight and the last move;
- ``play-spectator.png``: the spectators' page of a game under way (no men, the lines both
  players hear);
- ``play-replay.png``: the replay of a finished hot-seat game (4.Qxf7#), the fog lifted.

Each at 400 px too (``-400`` before ``.png``, the whole page).  The server and the browser are
the workbench screenshots' helpers (``docs/workbench_screenshots.py``)::

    python docs/play_screenshots.py [--out docs]
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WIDTHS = (1280, 400)


def _workbench():
    spec = importlib.util.spec_from_file_location("workbench_screenshots", ROOT / "docs" / "workbench_screenshots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _type(page, move: str, curtain: bool = True) -> None:
    """Types ``move`` and, hot-seat, lets the next player through the curtain."""
    from playwright.sync_api import expect

    page.fill("#play-move", move)
    page.press("#play-move", "Enter")
    if curtain:
        expect(page.locator("#curtain")).to_be_visible()
        page.click("#curtain-go")
        expect(page.locator("#curtain")).to_be_hidden()


def _start(page, url: str, rules: str, mode: str = "hotseat", belief: bool = False, query: str = "") -> None:
    from playwright.sync_api import expect

    page.goto(url + "play" + query)
    page.select_option("#play-rules", rules)
    page.select_option("#play-mode", mode)
    if belief:
        page.check("#play-belief-tool")
    page.click("#play-start")
    if mode == "hotseat":
        page.click("#curtain-go")
    else:
        expect(page.locator("#play-turn")).to_contain_text("Your move", timeout=60_000)


def _shot(page, path: Path, width: int) -> Path:
    page.mouse.move(0, 0)
    page.wait_for_timeout(300)
    page.screenshot(path=str(path), full_page=width < 600)
    return path


def take(out: Path, widths: tuple[int, ...] = WIDTHS) -> list[Path]:
    from playwright.sync_api import expect, sync_playwright

    workbench = _workbench()
    out.mkdir(parents=True, exist_ok=True)
    shots = []
    with tempfile.TemporaryDirectory() as folder, workbench.serve(Path(folder)) as url, sync_playwright() as playwright:
        browser = workbench.launch(playwright)
        for width in widths:
            suffix = "" if width == 1280 else f"-{width}"
            page = browser.new_page(viewport={"width": width, "height": 900})

            # hot-seat Wild 16: White's board after a refused pawn try, a guess, the heat map
            _start(page, url, "wild16", belief=True)
            _type(page, "e4")
            _type(page, "d5")
            page.fill("#play-move", "exf5")
            page.press("#play-move", "Enter")
            expect(page.locator("#play-answer")).to_have_text("Referee: Illegal move")
            page.select_option("#belief-piece", "p")
            expect(page.locator("#belief-count")).to_contain_text("fit what you heard", timeout=60_000)
            page.click("#play-tray button[data-role=n]")
            workbench.click_square(page, "#play-board", "c6")
            page.click("#play-tray button[data-role=n]")
            page.evaluate("window.scrollTo(0, 0)")
            shots.append(_shot(page, out / f"play-kriegspiel{suffix}.png", width))

            # the spectators' page of that game
            watch = page.get_attribute("#spectate-link", "href")
            spectator = browser.new_page(viewport={"width": width, "height": 900})
            spectator.goto(url + watch.lstrip("/"))
            expect(spectator.locator("#watch-log")).to_contain_text("Black moved")
            shots.append(_shot(spectator, out / f"play-spectator{suffix}.png", width))
            spectator.close()

            # Fog of War against the computer
            _start(page, url, "fog-of-war", "computer", query="?seed=5")
            for move in ("e4", "Nf3", "Bc4", "d3", "Nc3"):
                page.fill("#play-move", move)
                page.press("#play-move", "Enter")
                expect(page.locator("#play-turn")).to_contain_text("Your move", timeout=60_000)
            page.evaluate("window.scrollTo(0, 0)")
            shots.append(_shot(page, out / f"play-computer{suffix}.png", width))

            # a finished hot-seat game: the replay
            _start(page, url, "berkeley")
            for move in ("e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"):
                _type(page, move)
            _type(page, "Qxf7", curtain=False)
            expect(page.locator("#replay")).to_be_visible()
            page.click("#replay-last")
            page.locator("#replay").scroll_into_view_if_needed()
            shots.append(_shot(page, out / f"play-replay{suffix}.png", width))
            page.close()
        browser.close()
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="folder of the PNGs (default: docs/)")
    parser.add_argument("--width", type=int, action="append", help="a window width in px (default: 1280 and 400)")
    args = parser.parse_args(argv)
    for shot in take(args.out, tuple(args.width or WIDTHS)):
        print(shot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
