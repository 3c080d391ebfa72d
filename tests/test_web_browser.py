"""The workbench page (``ksolve serve``) driven in a real headless Chromium.

Debian's ``/usr/bin/chromium`` (``.ci/run`` installs it) through Playwright's
Python package, against the real server (``create_app`` under uvicorn in a
child process on a free loopback port, over a temporary problems folder).
The helpers (server, clicks on board squares, composing Rotenberg 1976) are
``docs/workbench_screenshots.py``'s, which photographs the same pages.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium (.ci/run installs it)")
playwright_api = pytest.importorskip("playwright.sync_api", reason="needs Playwright's Python package (the test extra)")
expect = playwright_api.expect

BAD_TOML = 'stipulation = "#2"\nrules = "berkeley"\n[position]\nfen = "8/8/8/8/8/8/8/8 w - - 0 1"\nhidden = [\n'


@pytest.fixture(scope="module")
def server(workbench, tmp_path_factory):
    folder = workbench.problems_folder(tmp_path_factory.mktemp("problems"), ("foster-1996",))
    with workbench.serve(folder) as url:
        yield url, folder


@pytest.fixture(scope="module")
def browser(workbench):
    with playwright_api.sync_playwright() as playwright:
        browser = workbench.launch(playwright, str(CHROMIUM))
        yield browser
        browser.close()


@pytest.fixture
def page(browser, server):
    """A fresh page of the workbench; at the end, no request left the server's origin and no script failed."""
    url, _ = server
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    outside, errors = [], []
    page.on("request", lambda request: None if request.url.startswith((url, "data:", "blob:")) else outside.append(request.url))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    yield page
    context.close()
    assert outside == [], "the page asked for something outside the server"
    assert errors == []


def test_compose_rotenberg_by_clicks_paints_the_30_dark_squares_and_counts_30_positions(page, workbench) -> None:
    workbench.compose_rotenberg(page)
    assert page.input_value("#fen") == "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"
    page.click("#unit-0 button.paint-unit")
    painted = page.locator("#compose-board square.paint")
    expect(painted).to_have_count(30)  # 32 dark squares, f6 and h2 taken
    assert "f6" not in page.input_value("#unit-0 .unit-spec")
    expect(page.locator("#unit-0 .unit-count")).to_have_text("30 squares (dark)")
    toml = page.input_value("#toml")
    assert 'fen = "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1"' in toml
    assert 'hidden = [{piece = "b", squares = "dark"}]' in toml and 'stipulation = "#8"' in toml
    expect(page.locator("#problem-line")).to_contain_text("30 positions")
    # painting by hand: a click takes a square out (the form writes the squares out), another puts it back
    workbench.click_square(page, "#compose-board", "a1")
    expect(painted).to_have_count(29)
    expect(page.locator("#check-status")).to_contain_text("29 positions")
    assert '"c1", "e1"' in page.input_value("#toml") and '"a1"' not in page.input_value("#toml")
    workbench.click_square(page, "#compose-board", "a1")
    expect(page.locator("#check-status")).to_contain_text("30 positions")


@pytest.mark.slow  # Rotenberg's verification: about a minute on a 2-core machine
def test_verify_shows_sound_and_the_key_and_try_it_says_nf2_loses_the_mate(page, workbench) -> None:
    workbench.compose_rotenberg(page)
    page.click("#tab-verify")
    page.click("#run-verify")
    expect(page.locator("#run-cancel")).to_be_enabled()
    verdict = page.locator("#verdict .verdict")
    expect(verdict).to_contain_text("Sound", timeout=180_000)
    expect(verdict).to_contain_text("key 1.Rg2!")
    assert page.locator("#verdict .verdict").get_attribute("data-verdict") == "sound"
    expect(page.locator("#solution-text")).to_contain_text("1.Rg2! 2.Rg8 3.Rh8 4.Rh5 5.Rb5 6.Rb1 7.Nf2+ Bxf2 8.Kxf2#")
    expect(page.locator("#verification-lists .tries")).to_contain_text("1.Nf2+? Bxf2! (no mate in 7)")
    expect(page.locator("#verification-lists")).to_contain_text("Duals (0 in the main line,")  # the minor ones: those of the strategy found
    # the report with its diagrams, from the server, in the frame
    report = page.frame_locator("#report-frame")
    expect(report.locator(".verdict.good")).to_contain_text("Sound")
    expect(report.locator("section.tree svg").first).to_be_visible()
    assert page.locator('#exports a[href$="certificate.json"]').count() == 1

    page.click("#tab-try")
    page.click("#try-start")
    expect(page.locator("#try-stop")).to_be_enabled(timeout=60_000)
    expect(page.locator("#try-board piece.white:not(.ghost)")).to_have_count(4)  # White's own men only: K, R, B, N
    expect(page.locator("#try-board piece.black:not(.ghost)")).to_have_count(0)
    expect(page.locator("#try-facts")).to_contain_text("30 positions")
    workbench.drag_move(page, "#try-board", "d3", "f2")
    warning = page.locator("#try-answer .warning")
    expect(warning).to_contain_text("loses the forced mate", timeout=60_000)
    expect(warning).to_contain_text("Bxf2!")
    expect(page.locator("#try-heard")).to_contain_text("1.Nf2+")
    # on to the end: Kxf2 stalemates, the fog lifts on the bishop's square and the game
    page.fill("#try-move", "f1f2")
    page.press("#try-move", "Enter")
    expect(page.locator("#try-reveal")).to_be_visible(timeout=60_000)
    expect(page.locator("#reveal-board piece.black.bishop:not(.ghost)")).to_have_count(1)
    expect(page.locator("#replay-moves")).to_contain_text("Nf2+")
    expect(page.locator("#try-lost")).to_have_text("The forced mate was lost at 1.Nf2+: Bxf2! (no mate in 7)")


def test_compose_tools_drag_from_the_palette_move_drag_off_and_remove(page, workbench) -> None:
    box = page.locator("#compose-board").bounding_box()
    queen = page.locator('button[data-color="white"][data-role="queen"]').bounding_box()
    page.mouse.move(queen["x"] + queen["width"] / 2, queen["y"] + queen["height"] / 2)
    page.mouse.down()
    page.mouse.move(*workbench.square_center(box, "d4"), steps=10)
    page.mouse.up()
    expect(page.locator("#fen")).to_have_value("4k3/8/8/8/3Q4/8/8/4K3 w - - 0 1")
    workbench.drag_move(page, "#compose-board", "d4", "h4")
    expect(page.locator("#fen")).to_have_value("4k3/8/8/8/7Q/8/8/4K3 w - - 0 1")
    page.mouse.move(*workbench.square_center(box, "h4"))
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] + 120, box["y"] + 40, steps=10)
    page.mouse.up()
    expect(page.locator("#fen")).to_have_value("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    page.click('#compose .tool[data-tool="remove"]')
    workbench.click_square(page, "#compose-board", "e8")
    expect(page.locator("#fen")).to_have_value("8/8/8/8/8/8/8/4K3 w - - 0 1")
    expect(page.locator("#check-status")).to_contain_text("no black king")
    page.keyboard.press("Escape")
    expect(page.locator('#compose .tool[data-tool="move"]')).to_have_attribute("aria-pressed", "true")


def test_a_running_verification_shows_its_progress_and_can_be_cancelled(page) -> None:
    page.fill("#toml", (ROOT / "problems" / "rotenberg-1976.toml").read_text())
    expect(page.locator("#check-status")).to_contain_text("30 positions")
    page.click("#tab-verify")
    page.click("#run-verify")
    expect(page.locator("#run-status")).to_contain_text("depth", timeout=60_000)
    expect(page.locator("#run-status")).to_contain_text("nodes")
    page.click("#run-cancel")
    expect(page.locator("#run-status")).to_have_text("Cancelled.", timeout=20_000)
    expect(page.locator("#run-verify")).to_be_enabled()
    assert page.locator("#run-result").is_hidden()


def test_try_it_mates_by_drag_and_lifts_the_fog(page, workbench) -> None:
    page.fill("#toml", 'title = "Rook mate"\nstipulation = "#1"\nrules = "berkeley"\n[position]\n'
                       'fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\n')
    # the default problem has 1 position too (#2): wait for the pasted one's own check
    expect(page.locator("#check-status")).to_contain_text("1 position · #1 · berkeley")
    page.click("#tab-try")
    expect(page.locator("#try-any")).to_be_hidden()  # Berkeley has no "Any?"
    page.click("#try-start")
    expect(page.locator("#try-stop")).to_be_enabled(timeout=60_000)
    expect(page.locator("#try-board piece.white.rook")).to_have_count(1)  # the board drawn before the hand moves
    workbench.drag_move(page, "#try-board", "h1", "h8")
    expect(page.locator("#try-status")).to_have_text("Game over: mate.", timeout=60_000)
    expect(page.locator("#try-answer")).to_contain_text("Checkmate")
    expect(page.locator("#try-heard")).to_contain_text("1.Rh8#")
    expect(page.locator("#reveal-board piece.black.king:not(.ghost)")).to_have_count(1)
    page.click("#replay-last")
    expect(page.locator("#replay-moves .replay-move.current")).to_have_text("Rh8#")


def test_try_it_offers_any_under_english_rules(page) -> None:
    page.fill("#toml", (ROOT / "problems" / "anderson-01.toml").read_text())
    expect(page.locator("#check-status")).to_contain_text("4 positions")
    page.click("#tab-try")
    page.click("#try-start")
    expect(page.locator("#try-any")).to_be_visible(timeout=60_000)
    page.fill("#try-move", "a1a8")
    page.press("#try-move", "Enter")
    expect(page.locator("#try-answer .bad")).to_contain_text("not a move of White's men")
    page.click("#try-any")
    expect(page.locator("#try-answer")).to_contain_text("Referee:", timeout=60_000)
    expect(page.locator("#try-heard")).to_contain_text("Any?")


def test_bad_toml_pasted_into_the_textarea_shows_the_loaders_one_line(page) -> None:
    expect(page.locator("#check-status")).to_contain_text("1 position")
    page.fill("#toml", BAD_TOML)
    status = page.locator("#check-status")
    expect(status).to_have_class(re.compile(r"\bbad\b"))
    expect(status).to_contain_text("toml: ")
    assert "\n" not in status.inner_text().strip() and "Traceback" not in status.inner_text()
    expect(page.locator("#problem-line")).to_contain_text("error")
    # a good file pasted fills the form
    page.fill("#toml", (ROOT / "problems" / "foster-1996.toml").read_text())
    expect(status).to_contain_text("25 positions")
    assert page.input_value("#fen").startswith("R7/5PP1/1B4KP/1N6/1Q2B1P1/6P1/P1N2P1P/3R4")
    expect(page.locator("#units .unit")).to_have_count(2)
    assert page.input_value("#title") == "Foster, Variant Chess 1996"


def test_library_saves_lists_and_opens_problems(page, server) -> None:
    _, folder = server
    page.fill("#toml", (ROOT / "problems" / "dawson-fcr3192.toml").read_text())
    expect(page.locator("#check-status")).to_contain_text("1 position")
    page.fill("#save-name", "../escape")
    page.click("#save")
    expect(page.locator("#save-status")).to_have_class(re.compile(r"\bbad\b"))
    page.fill("#save-name", "dawson-copy")
    page.click("#save")
    expect(page.locator("#save-status")).to_contain_text("Saved as dawson-copy.toml")
    assert (folder / "dawson-copy.toml").exists()
    page.click("#tab-library")
    rows = page.locator("#library-table tbody tr")
    expect(rows).to_have_count(2)
    expect(page.locator('#library-table tr[data-name="foster-1996"]')).to_contain_text("#2")
    page.click('#library-table tr[data-name="foster-1996"] button.open')
    expect(page.locator("#tab-compose")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#check-status")).to_contain_text("25 positions")
    page.click("#tab-library")
    page.click("#verify-all")
    expect(page.locator("#library-status")).to_contain_text("Done: 2 of 2 verified (2 sound)", timeout=60_000)
    expect(page.locator('#library-table td.verdict-cell[data-name="foster-1996"]')).to_contain_text("sound")
    page.click("#library-refresh")  # the server kept the verdicts
    expect(page.locator('#library-table td.verdict-cell[data-name="dawson-copy"] .badge')).to_have_text("sound")


def test_every_page_reads_at_400_px(browser, server) -> None:
    url, _ = server
    context = browser.new_context(viewport={"width": 400, "height": 800})
    page = context.new_page()
    page.goto(url)
    expect(page.locator("#check-status")).to_contain_text("1 position")
    for tab in ("compose", "verify", "try", "library"):
        page.click(f"#tab-{tab}")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 400, f"{tab}: the page is {width} px wide"
    page.click("#tab-compose")
    board = page.locator("#compose-board").bounding_box()
    assert 300 <= board["width"] <= 400 and abs(board["width"] - board["height"]) < 2
    context.close()


@pytest.mark.slow  # Rotenberg's solution step by step: each step's search takes seconds
def test_try_it_plays_rotenbergs_whole_solution_by_drags(page, workbench) -> None:
    """Every White move of the solution, whatever the worst-case referee answers, dragged on
    the board (chessground is told it is White's turn after every answer, so the next drag
    lifts a man), to the mate."""
    import ksolve

    problem = ksolve.load_problem(ROOT / "problems" / "rotenberg-1976.toml")
    tree = ksolve.solve(problem).tree
    page.fill("#toml", (ROOT / "problems" / "rotenberg-1976.toml").read_text())
    expect(page.locator("#check-status")).to_contain_text("30 positions")
    page.click("#tab-try")
    page.click("#try-start")
    expect(page.locator("#try-stop")).to_be_enabled(timeout=60_000)
    expect(page.locator("#try-legend")).to_contain_text("bishop: may stand on the dotted squares (30 squares)")
    node, played = 0, []
    for _ in range(20):
        (_, attempt, edge), = tree.out_edges(node, data=True)
        assert edge["kind"] != "ask"
        move = edge["move"]
        with page.expect_response(lambda r: "/attempt" in r.url and r.request.method == "POST", timeout=60_000) as info:
            workbench.drag_move(page, "#try-board", move[:2], move[2:4])
        step = info.value.json()
        assert step["attempt"] == move and step["mate_kept"] is not False, step
        expect(page.locator("#try-answer .words")).to_have_text(step["answer"])
        if step["san"]:
            played.append(step["san"])
        node = next(child for _, child, data in tree.out_edges(attempt, data=True) if data["label"] == step["answer"])
        if step["view"]["over"]:
            break
        if tree.nodes[node]["kind"] == "black":
            expect(page.locator("#try-answer .reply-words")).to_have_text(step["reply"])
            node = next(child for _, child, data in tree.out_edges(node, data=True) if data["label"] == step["reply"])
    expect(page.locator("#try-status")).to_have_text("Game over: mate.", timeout=60_000)
    assert played[-1].endswith("#") and len(played) <= 8
    heard = page.locator("#try-heard li").all_inner_texts()
    assert heard[0].startswith("1.") and not page.locator("#try-heard").evaluate(
        "list => getComputedStyle(list).listStyleType !== 'none'")       # numbered once: by its lines


def test_verify_progress_counts_on_across_phases(page) -> None:
    """The job's phases each count from zero; the page's counters add them up and never go back."""
    totals = page.evaluate("""async () => {
        const { ProgressTally, progressText } = await import('/static/verify.js');
        const tally = new ProgressTally();
        const events = [{phase: 'belief', depth: 0, nodes: 0, seconds: 0.4, tried: 5, total: 30},
                        {phase: 'solve', depth: 3, nodes: 500, seconds: 1.0}, {phase: 'solve', depth: 6, nodes: 1200, seconds: 2.5},
                        {phase: 'verify', depth: 1, nodes: 100, seconds: 0.5}, {phase: 'verify', depth: 2, nodes: 900, seconds: 3.0}];
        return events.map(event => progressText('verify', tally.add(event)));
    }""")
    assert totals[1:] == ["Verifying (solve): depth 3, 500 nodes, 1.4 s", "Verifying (solve): depth 6, 1,200 nodes, 2.9 s",
                          "Verifying: depth 1, 1,300 nodes, 3.4 s", "Verifying: depth 2, 2,100 nodes, 5.9 s"]


def test_a_verification_on_the_verify_page_shows_in_the_library_and_variants_show_their_rules(browser, workbench, tmp_path) -> None:
    folder = workbench.problems_folder(tmp_path / "problems", ("dawson-fcr3192", "one-eye-01"))
    with workbench.serve(folder) as url:
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        page = context.new_page()
        page.goto(url)
        page.click("#tab-library")
        expect(page.locator('#library-table tr[data-name="one-eye-01"] td.rules')).to_have_text("berkeley")
        page.click('#library-table tr[data-name="dawson-fcr3192"] button.open')      # opened from the Library
        expect(page.locator("#check-status")).to_contain_text("1 position")
        page.click("#tab-verify")
        page.click("#run-verify")
        expect(page.locator("#verdict .verdict")).to_contain_text("Sound", timeout=120_000)
        page.click("#tab-library")                                                  # no Refresh pressed
        expect(page.locator('#library-table td.verdict-cell[data-name="dawson-fcr3192"] .badge')).to_have_text("sound")
        page.click("#tab-compose")                                                  # saved from Compose, then verified
        page.fill("#title", "Dawson, a copy")
        page.fill("#save-name", "dawson-copy")
        page.click("#save")
        expect(page.locator("#save-status")).to_contain_text("Saved as dawson-copy.toml")
        expect(page.locator("#check-status")).to_contain_text("1 position")
        page.click("#tab-verify")
        page.click("#run-verify")
        expect(page.locator("#run-status")).to_have_text("Done.", timeout=120_000)
        page.click("#tab-library")
        expect(page.locator('#library-table td.verdict-cell[data-name="dawson-copy"] .badge')).to_have_text("sound")
        context.close()


def test_export_and_import_as_a_composer_does(page, tmp_path) -> None:
    """Export the problem in each format (a refused one says why), then import an Olive
    collection of three, open each from the list, and a fairy entry is refused in one line."""
    from click.testing import CliRunner

    from ksolve.cli import main

    page.fill("#toml", (ROOT / "problems" / "foster-1996.toml").read_text())
    expect(page.locator("#check-status")).to_contain_text("25 positions")
    for to, suffix, words in (("latex", "tex", r"\begin{diagram}"), ("yacpdb", "yaml", "ksolve-problem: "),
                              ("olive", "olv", "algebraic:")):
        page.select_option("#export-to", to)
        with page.expect_download() as download:
            page.click("#export")
        assert download.value.suggested_filename == f"foster-1996.{suffix}"
        assert words in Path(download.value.path()).read_text(encoding="utf-8")
        expect(page.locator("#save-status")).to_contain_text(f"Exported as foster-1996.{suffix}")
    page.select_option("#export-to", "popeye")
    page.click("#export")
    status = page.locator("#save-status")
    expect(status).to_have_class(re.compile(r"\bbad\b"))
    expect(status).to_contain_text("Popeye solves orthodox problems")
    folder = tmp_path / "three"
    folder.mkdir()
    for name in ("dawson-fcr3192", "foster-1996", "rotenberg-1976"):
        (folder / f"{name}.toml").write_bytes((ROOT / "problems" / f"{name}.toml").read_bytes())
    CliRunner().invoke(main, ["export", str(folder), "--to", "olive", "-o", str(tmp_path / "three.olv")])
    page.set_input_files("#import-file", str(tmp_path / "three.olv"))
    expect(status).to_contain_text("three.olv: 3 problems; dawson-fcr3192 opened")
    expect(page.locator("#import-pick option")).to_have_count(3)
    expect(page.locator("#check-status")).to_contain_text("1 position")
    page.select_option("#import-pick", label="rotenberg-1976")
    expect(page.locator("#check-status")).to_contain_text("30 positions")
    assert page.input_value("#save-name") == "rotenberg-1976" and page.input_value("#title").startswith("Rotenberg")
    page.select_option("#import-pick", label="foster-1996")
    expect(page.locator("#check-status")).to_contain_text("25 positions")
    (tmp_path / "fairy.yaml").write_text("algebraic: {white: [Ka1, Gb2], black: [Kh8]}\nstipulation: '#2'\n")
    page.set_input_files("#import-file", str(tmp_path / "fairy.yaml"))
    expect(status).to_have_class(re.compile(r"\bbad\b"))
    expect(status).to_contain_text("fairy.yaml: ")
    assert "\n" not in status.inner_text().strip() and "fairy pieces" in status.inner_text()
    expect(page.locator("#check-status")).to_contain_text("25 positions")  # the open problem stays
