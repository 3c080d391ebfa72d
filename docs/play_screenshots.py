"""Screenshots of the Play page for the README: ``docs/play-kriegspiel.png``
(a hot-seat Wild 16 game, White's board with a guess from the tray and the
belief tool's heat map of the black king) and ``docs/play-fog.png`` (a Fog of
War game's board, fogged squares dark) and ``docs/play-replay.png`` (the
replay after a king capture).  Uses the workbench screenshots' server and
browser helpers.

    python docs/play_screenshots.py [--out docs]
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _workbench():
    spec = importlib.util.spec_from_file_location("workbench_screenshots", ROOT / "docs" / "workbench_screenshots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _move(page, uci: str, curtain: bool = True) -> None:
    page.fill("#play-move", uci)
    page.press("#play-move", "Enter")
    if curtain:
        page.wait_for_selector("#curtain:not([hidden])")
        page.click("#curtain-go")
        page.wait_for_selector("#curtain", state="hidden")


def take(out: Path) -> list[Path]:
    import tempfile

    from playwright.sync_api import sync_playwright

    workbench = _workbench()
    shots = []
    with tempfile.TemporaryDirectory() as folder, workbench.serve(Path(folder)) as url, sync_playwright() as playwright:
        browser = workbench.launch(playwright)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url + "play")
        page.select_option("#play-rules", "wild16")
        page.check("#play-belief-tool")
        page.click("#play-start")
        page.click("#curtain-go")
        for uci in ("e2e4", "e7e5", "g1f3", "b8c6"):
            _move(page, uci)
        page.select_option("#belief-piece", "n")
        page.wait_for_function("document.getElementById('belief-count').textContent.includes('fit')")
        page.click("#play-tray button[data-role=n]")
        workbench.click_square(page, "#play-board", "c6")
        shots.append(out / "play-kriegspiel.png")
        page.screenshot(path=str(shots[-1]))
        page.goto(url + "play")
        page.select_option("#play-rules", "fog-of-war")
        page.click("#play-start")
        page.click("#curtain-go")
        for uci in ("e2e4", "f7f6", "d1h5", "a7a6"):
            _move(page, uci)
        shots.append(out / "play-fog.png")
        page.screenshot(path=str(shots[-1]))
        _move(page, "h5e8", curtain=False)
        page.wait_for_selector("#replay:not([hidden])")
        page.locator("#replay").scroll_into_view_if_needed()
        shots.append(out / "play-replay.png")
        page.screenshot(path=str(shots[-1]), full_page=True)
        browser.close()
    return shots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    for shot in take(parser.parse_args().out):
        print(shot)


if __name__ == "__main__":
    main()
