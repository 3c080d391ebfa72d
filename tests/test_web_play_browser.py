"""The Play page (``/play`` of ``ksolve serve``) in a real headless Chromium:
a hot-seat Kriegspiel game where the curtain hides the board between turns, an
illegal attempt answered "No" and the same player moving again, a capture
announced with its square; a Fog-of-War game won by capturing the king, the
spectator page showing no men before the end and the replay every move after.
(Debian's /usr/bin/chromium through Playwright, against the real server, as
``tests/test_web_browser.py`` does.)"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium (.ci/run installs it)")
playwright_api = pytest.importorskip("playwright.sync_api", reason="needs Playwright's Python package (the test extra)")
expect = playwright_api.expect
MEN = "#{} cg-board piece:not(.ghost)"
"""The men standing on a board (chessground's drag ghost left out)."""


@pytest.fixture(scope="module")
def server(workbench, tmp_path_factory):
    with workbench.serve(workbench.problems_folder(tmp_path_factory.mktemp("problems"), ())) as url:
        yield url


@pytest.fixture(scope="module")
def browser(workbench):
    with playwright_api.sync_playwright() as playwright:
        browser = workbench.launch(playwright, str(CHROMIUM))
        yield browser
        browser.close()


@pytest.fixture
def context(browser, server):
    """A browser context on the server; at the end, no request left its origin and no script failed."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    outside, errors = [], []
    context.on("request", lambda request: None if request.url.startswith((server, "data:", "blob:")) else outside.append(request.url))
    context.on("weberror", lambda error: errors.append(str(error.error)))
    yield context
    context.close()
    assert outside == [] and errors == []


def new_game(page, server: str, rules: str) -> None:
    page.goto(server + "play")
    page.select_option("#play-rules", rules)
    page.select_option("#play-mode", "hotseat")
    page.click("#play-start")
    expect(page.locator("#curtain")).to_be_visible()


def through_curtain(page, men: int | None = None) -> None:
    """The next player clicks through the curtain (the board held no men while it was up)."""
    expect(page.locator("#curtain")).to_be_visible()
    expect(page.locator(MEN.format("play-board"))).to_have_count(0)
    page.click("#curtain-go")
    expect(page.locator("#curtain")).to_be_hidden()
    if men is not None:
        expect(page.locator(MEN.format("play-board"))).to_have_count(men)


def move(page, uci: str) -> None:
    page.fill("#play-move", uci)
    page.press("#play-move", "Enter")


def test_hotseat_kriegspiel_curtain_no_and_capture(context, server) -> None:
    page = context.new_page()
    new_game(page, server, "berkeley")
    through_curtain(page, 16)                                   # White sees his 16 men only
    expect(page.locator("#play-turn")).to_contain_text("White to move")
    move(page, "e2e4")
    through_curtain(page, 16)                                   # Black's board: his men only
    expect(page.locator("#play-log")).to_contain_text("White moved: Silent")
    move(page, "e7e5")
    through_curtain(page, 16)
    move(page, "e4e5")                                          # blocked by the unseen pawn
    expect(page.locator("#play-answer")).to_have_text("No")
    expect(page.locator("#curtain")).to_be_hidden()             # the same player moves again
    expect(page.locator("#play-turn")).to_contain_text("White to move")
    move(page, "d2d4")
    through_curtain(page)
    move(page, "e5d4")
    through_curtain(page, 15)                                   # White lost the d-pawn
    expect(page.locator("#play-log")).to_contain_text("Black moved: Capture at d4")
    # a guess from the tray: a black knight on f6, drawn on White's board
    page.click("#play-tray button[data-role=n]")
    box = page.locator("#play-board").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 5.5 / 8, box["y"] + box["height"] * 2.5 / 8)
    expect(page.locator("#play-board .cg-shapes g, #play-board svg image, #play-board piece.ghost, #play-board cg-auto-pieces piece")).not_to_have_count(0)


@pytest.mark.slow  # about 12 s on a loaded 2-core machine (two pages, ten curtain changes)
def test_fog_of_war_king_capture_spectator_and_replay(context, server) -> None:
    page = context.new_page()
    new_game(page, server, "fog-of-war")
    watch_url = page.get_attribute("#spectate-link", "href")
    spectator = context.new_page()
    spectator.goto(server + watch_url.lstrip("/"))
    expect(spectator.locator("#watch-status")).to_contain_text("0 moves played")
    expect(spectator.locator(MEN.format("watch-board"))).to_have_count(0)
    through_curtain(page, 16)
    expect(page.locator("#play-board square.fog")).to_have_count(32)   # ranks 5-8 fogged at the start
    for uci in ("e2e4", "f7f6", "d1h5", "a7a6"):
        move(page, uci)
        through_curtain(page)
    expect(spectator.locator("#watch-status")).to_contain_text("4 moves played")
    expect(spectator.locator(MEN.format("watch-board"))).to_have_count(0)  # no men before the end
    expect(page.locator("#play-board cg-board piece.black.king")).to_have_count(1)  # the queen sees the king
    move(page, "h5e8")
    expect(page.locator("#curtain")).to_be_hidden()
    expect(page.locator("#play-turn")).to_contain_text("1-0 (King captured)")
    expect(page.locator("#replay-moves li")).to_have_count(5)
    expect(page.locator(MEN.format("replay-board"))).to_have_count(31)
    page.click("#replay-first")
    expect(page.locator(MEN.format("replay-board"))).to_have_count(32)
    expect(page.locator("#replay-ply")).to_have_text("0 / 5")
    # the spectator: the fog lifts, the replay shows every move of both sides
    expect(spectator.locator("#replay-moves li")).to_have_count(5)
    expect(spectator.locator("#replay-moves")).to_contain_text("h5e8")
    expect(spectator.locator(MEN.format("replay-board"))).to_have_count(31)
    assert page.get_attribute("#pgn-full", "href").endswith("view=full")


def test_a_saved_pgn_loads_into_the_replay(context, server, tmp_path) -> None:
    from ksolve.games.play import random_policy
    from ksolve.play.match import play_match
    from ksolve.play.records import game_pgn

    game = play_match("wild16", random_policy, random_policy, max_plies=12, seed=3)
    saved = tmp_path / "game.pgn"
    saved.write_text(game_pgn(game))
    page = context.new_page()
    page.goto(server + "play")
    page.set_input_files("#replay-file", str(saved))
    expect(page.locator("#replay-moves li")).to_have_count(12)
    expect(page.locator("#setup-status")).to_have_text("12 moves replayed.")
    expect(page.locator(MEN.format("replay-board"))).to_have_count(len(game.board().piece_map()))
