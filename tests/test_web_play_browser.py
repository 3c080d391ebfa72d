"""The Play page (``/play`` of ``ksolve serve``) in a real headless Chromium, as
a person plays it: games against the computer under Wild 16 and Fog of War
with every White move dragged (refused drags followed by more drags), a
hot-seat Kriegspiel game to the mate with typed and dragged moves and refused
drags, the curtain hiding everything of the other side (the DOM and the
answer of every link on the page), the spectators' link reading no men and
moving nothing, the replay, a saved game, the board's size at 1280 and 400 px
(the move list and the game's buttons in view beside it); a hot-seat game with
takebacks and a draw offered, declined and agreed; a timed game against the
computer resigned and its rematch with the colours swapped; drops the men
cannot make explained before any request, the board flipped, sounds on; the computer at the
level picked ("easy"), two moves dragged against it and its level shown beside its name.
(Debian's /usr/bin/chromium through Playwright, against the real server, as
``tests/test_web_browser.py`` does.)"""

from __future__ import annotations

import re
import time
from pathlib import Path

import chess
import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium (.ci/run installs it)")
playwright_api = pytest.importorskip("playwright.sync_api", reason="needs Playwright's Python package (the test extra)")
expect = playwright_api.expect
MEN = "#{} cg-board piece:not(.ghost)"
"""The men standing on a board (chessground's drag ghost left out)."""
TURN = 30_000
"""Milliseconds a move may take to be answered (the computer's reply included)."""


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


# --- the board -----------------------------------------------------------------------------------
def square_center(page, board: str, square: str) -> tuple[float, float]:
    """The centre of ``square`` on the chessground board ``board``, whichever side is at the bottom."""
    box = page.locator(board).bounding_box()
    black = "orientation-black" in page.get_attribute(board, "class")
    file, rank = "abcdefgh".index(square[0]), int(square[1]) - 1
    if black:
        file, rank = 7 - file, 7 - rank
    size = box["width"] / 8
    return box["x"] + (file + 0.5) * size, box["y"] + (7 - rank + 0.5) * size


def drag(page, orig: str, dest: str, board: str = "#play-board") -> None:
    """Drags the man on ``orig`` to ``dest`` with the mouse, in small steps as a hand does."""
    page.mouse.move(*square_center(page, board, orig))
    page.mouse.down()
    page.mouse.move(*square_center(page, board, dest), steps=8)
    page.mouse.up()


def men_on(page, board: str = "#play-board") -> dict[str, str]:
    """The men chessground shows: square -> "white pawn", ..."""
    return page.evaluate(f"""() => Object.fromEntries([...document.querySelectorAll('{board} cg-board piece')]
        .filter(p => !p.classList.contains('ghost') && p.cgKey).map(p => [p.cgKey, p.cgPiece]))""")


def shows_men(page, men: dict[str, str], timeout: int = 10_000) -> bool:
    """Whether chessground comes to show ``men`` within ``timeout`` ms (its move
    animations and the computer's reply take a moment on a busy machine)."""
    deadline = time.monotonic() + timeout / 1000
    while men_on(page) != men and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    return men_on(page) == men


def own_men(view: dict) -> dict[str, str]:
    """The men a side's view holds, as ``men_on`` names them."""
    names = {"k": "king", "q": "queen", "r": "rook", "b": "bishop", "n": "knight", "p": "pawn"}
    return {square: f"{'white' if symbol.isupper() else 'black'} {names[symbol.lower()]}"
            for square, symbol in {**view["own"], **view["enemy"]}.items()}


def fetch(page, url: str, method: str = "GET", body: dict | None = None) -> tuple[int, str]:
    """``url`` fetched from inside the page (same origin): status and text."""
    return tuple(page.evaluate("""async ([url, method, body]) => {
        const init = {method, headers: {Accept: 'application/json'}};
        if (body) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
        const response = await fetch(url, init);
        return [response.status, await response.text()];
    }""", [url, method, body]))


def game_id(page) -> str:
    return re.search(r"[?&]game=([^&]+)", page.url).group(1)


def state_of(page, side: str | None = None) -> dict:
    import json

    status, text = fetch(page, f"/api/play/{game_id(page)}" + (f"?side={side}" if side else ""))
    assert status == 200, text
    return json.loads(text)["state"]


def attempt_by_drag(page, orig: str, dest: str) -> dict:
    """Drags ``orig``-``dest``, waits for the referee's answer (and the computer's reply) on
    the page; the answer as the server gave it."""
    with page.expect_response(lambda r: r.url.endswith("/attempt") and r.request.method == "POST", timeout=TURN) as info:
        drag(page, orig, dest)
    answer = info.value.json()
    if answer["answer"]["kind"] == "move" and answer["state"]["mode"] == "hotseat" and not answer["state"]["over"]:
        expect(page.locator("#curtain-text")).to_contain_text(f"has moved ({answer['answer']['words']})")
    else:
        expect(page.locator("#play-answer")).to_have_text(f"Referee: {answer['answer']['words']}", timeout=TURN)
    return answer


def attempt_by_typing(page, text: str) -> dict:
    with page.expect_response(lambda r: r.url.endswith("/attempt") and r.request.method == "POST", timeout=TURN) as info:
        page.fill("#play-move", text)
        page.press("#play-move", "Enter")
    return info.value.json()


def new_game(page, server: str, rules: str, mode: str = "hotseat", query: str = "") -> None:
    page.goto(server + "play" + query)
    page.select_option("#play-rules", rules)
    page.select_option("#play-mode", mode)
    page.click("#play-start")
    if mode == "hotseat":
        expect(page.locator("#curtain")).to_be_visible()
    else:
        expect(page.locator("#play-turn")).to_contain_text("Your move", timeout=TURN)


def through_curtain(page, men: int | None = None) -> None:
    """The next player clicks through the curtain (the board held no men while it was up)."""
    expect(page.locator("#curtain")).to_be_visible()
    expect(page.locator(MEN.format("play-board"))).to_have_count(0)
    page.click("#curtain-go")
    expect(page.locator("#curtain")).to_be_hidden()
    if men is not None:
        expect(page.locator(MEN.format("play-board"))).to_have_count(men)


# --- against the computer, every White move by drag ---------------------------------------------------
def farthest(state: dict) -> str:
    """The attempt reaching farthest up the board (most are refused: the enemy's men are there)."""
    own = state["view"]["own"]
    moves = [m for m in state["askable"] if own[m[:2]].lower() != "k" and m[4:] in ("", "q")]
    return sorted(moves, key=lambda m: (-int(m[3]), m))[0]


def quiet(state: dict, turn: int) -> str:
    """A move of a man other than the king, never taking a king in sight, taking a man in
    sight when it can; otherwise one chosen by the turn's number (a varied, reproducible game)."""
    own, enemy = state["view"]["own"], state["view"]["enemy"]
    kings = {square for square, symbol in enemy.items() if symbol.lower() == "k"}
    moves = sorted(m for m in state["askable"] if own[m[:2]].lower() != "k" and m[2:4] not in kings and m[4:] in ("", "q")
                   and not (own[m[:2]].lower() == "p" and m[0] != m[2] and m[2:4] not in enemy))
    takes = [m for m in moves if m[2:4] in enemy]
    return takes[0] if takes else moves[(turn * 7) % len(moves)]


def play_twenty_plies_by_drag(page, server: str, rules: str) -> tuple[int, int, int]:
    """A game against the computer (White, the page's seed 5) to 20 plies, every White move
    dragged; under Wild 16 the farthest-reaching attempts first until the referee refuses one,
    under Fog of War a drag to a square that is no move of the man (the page puts it back and
    asks nothing) before the next. The drags, the referee's refusals, the page's refusals."""
    new_game(page, server, rules, "computer", "?seed=5")
    requests = []
    page.on("request", lambda request: requests.append(request.url) if request.url.endswith("/attempt") else None)
    drags = refusals = page_refusals = 0
    state = state_of(page, "white")
    while state["plies"] < 20:
        assert not state["over"], (state["result"], state["termination"])
        assert state["your_turn"] and shows_men(page, own_men(state["view"])), (men_on(page), state["view"])
        if rules == "wild16" and not refusals:
            answer = attempt_by_drag(page, *split(farthest(state)))
            drags += 1
            if answer["answer"]["kind"] == "illegal":
                refusals += 1
                assert answer["answer"]["words"] == "Illegal move" and answer["state"]["your_turn"]
                expect(page.locator("#play-turn")).to_contain_text("Your move")
                assert shows_men(page, own_men(answer["state"]["view"]))  # the man went back
            state = answer["state"]
            if answer["answer"]["kind"] == "move":
                continue
        if rules == "fog-of-war" and not page_refusals:
            before, asked = men_on(page), len(requests)
            king = next(square for square, symbol in state["view"]["own"].items() if symbol == "K")
            drag(page, king, king[0] + "5")                              # no king's move: put back, nothing asked
            page.wait_for_timeout(300)
            assert men_on(page) == before and len(requests) == asked
            page_refusals += 1
        answer = attempt_by_drag(page, *split(quiet(state, state["plies"])))
        drags += 1
        if rules == "wild16" and answer["answer"]["kind"] == "illegal":  # a man it cannot see is in the way
            refusals += 1
            state = answer["state"]
            continue
        assert answer["answer"]["kind"] == "move", answer["answer"]
        state = answer["state"]
        expect(page.locator("#play-turn")).to_contain_text("Your move" if not state["over"] else "Game over", timeout=TURN)
        white_moves = [move for move in state["moves"] if move != "??"]
        expect(page.locator("#play-moves")).to_contain_text(white_moves[-1])  # SAN in the move list
    assert len(requests) == drags                                        # every attempt was a drag
    return drags, refusals, page_refusals


def split(uci: str) -> tuple[str, str]:
    return uci[:2], uci[2:4]


def test_wild16_against_the_computer_twenty_plies_every_white_move_dragged(context, server) -> None:
    page = context.new_page()
    drags, refusals, _ = play_twenty_plies_by_drag(page, server, "wild16")
    assert refusals >= 1 and drags >= 11
    state = state_of(page)
    assert state["plies"] >= 20 and state["side"] == "white"
    log = page.locator("#play-log").inner_text()
    assert "Illegal move" in log and "0 pawn tries" not in log and "Black moved:" in log
    assert not re.search(r"\b[a-h][1-8][a-h][1-8]\b", log)               # SAN, no UCI, in the log


def test_fog_of_war_against_the_computer_twenty_plies_every_white_move_dragged(context, server) -> None:
    page = context.new_page()
    drags, _, page_refusals = play_twenty_plies_by_drag(page, server, "fog-of-war")
    assert page_refusals == 1 and drags >= 10
    assert page.locator("#play-board square.fog").count() > 0
    expect(page.locator("#play-legend")).to_contain_text("squares you do not see")


def test_the_computer_at_the_easy_level_two_moves_dragged_and_its_level_shown(context, server) -> None:
    page = context.new_page()
    page.goto(server + "play?seed=4")
    expect(page.locator("#level-field")).to_be_hidden()                     # hot-seat: no level
    page.select_option("#play-rules", "wild16")
    page.select_option("#play-mode", "computer")
    expect(page.locator("#level-field")).to_be_visible()
    expect(page.locator("#level-hint")).to_contain_text("easy")
    expect(page.locator("#play-level")).to_have_value("normal")              # the default
    page.select_option("#play-level", "easy")
    page.select_option("#play-side", "white")
    with page.expect_request(lambda r: r.url.endswith("/api/play") and r.method == "POST") as sent:
        page.click("#play-start")
    assert sent.value.post_data_json["level"] == "easy"
    expect(page.locator("#play-turn")).to_contain_text("Your move", timeout=TURN)
    expect(page.locator("#bar-top")).to_contain_text("Black · the computer (easy)")
    expect(page.locator("#play-line")).to_contain_text("against the computer (easy)")
    state, moved = state_of(page, "white"), 0
    for orig, dest in (("e2", "e4"), ("d2", "d4"), ("g1", "f3"), ("b1", "c3"), ("c2", "c4")):
        assert state["your_turn"] and shows_men(page, own_men(state["view"])), (men_on(page), state["view"])
        answer = attempt_by_drag(page, orig, dest)
        state = answer["state"]
        if answer["answer"]["kind"] == "illegal":                           # refused: the man goes back
            assert state["your_turn"] and shows_men(page, own_men(state["view"]))
            continue
        assert answer["answer"]["kind"] == "move", answer["answer"]
        moved += 1
        expect(page.locator("#play-turn")).to_contain_text("Your move", timeout=TURN)  # the computer replied
        if moved == 2:
            break
    assert moved == 2 and state["plies"] == 4 and state["level"] == "easy"
    expect(page.locator("#play-moves")).to_contain_text(state["moves"][2])
    page.reload()                                                            # the level comes back with the game
    expect(page.locator("#bar-top")).to_contain_text("Black · the computer (easy)")
    assert state_of(page, "white")["level"] == "easy"


# --- hot-seat ---------------------------------------------------------------------------------------
def test_hotseat_kriegspiel_to_the_mate_typed_and_dragged_with_refused_drags(context, server) -> None:
    page = context.new_page()
    new_game(page, server, "berkeley")
    through_curtain(page, 16)
    expect(page.locator("#play-turn")).to_contain_text("Your move: White to play")
    assert attempt_by_drag(page, "e2", "e4")["answer"]["kind"] == "move"          # 1.e4 dragged
    through_curtain(page, 16)
    assert "orientation-black" in page.get_attribute("#play-board", "class")       # Black's board, his side below
    expect(page.locator("#play-log")).to_contain_text("White moved: Silent")
    assert attempt_by_typing(page, "e5")["answer"]["kind"] == "move"              # 1...e5 typed (SAN)
    through_curtain(page, 16)
    refused = attempt_by_drag(page, "e4", "e5")                                  # blocked by the unseen pawn
    assert refused["answer"] == {"kind": "illegal", "words": "No"}
    expect(page.locator("#curtain")).to_be_hidden()                               # the same player moves again
    assert shows_men(page, own_men(refused["state"]["view"]))                    # the pawn went back to e4
    refused = attempt_by_drag(page, "e4", "d5")                                  # a pawn try: nothing on d5
    assert refused["answer"]["words"] == "No"
    assert attempt_by_drag(page, "f1", "c4")["answer"]["kind"] == "move"          # 2.Bc4, dragged after two refusals
    through_curtain(page, 16)
    assert attempt_by_drag(page, "b8", "c6")["answer"]["kind"] == "move"          # 2...Nc6 dragged (Black's board)
    through_curtain(page, 16)
    assert attempt_by_typing(page, "d1h5")["answer"]["kind"] == "move"            # 3.Qh5 typed (UCI)
    through_curtain(page, 16)
    refused = attempt_by_drag(page, "e5", "e4")                                  # Black: blocked by White's pawn
    assert refused["answer"]["words"] == "No" and men_on(page)["e5"] == "black pawn"
    assert attempt_by_drag(page, "g8", "f6")["answer"]["kind"] == "move"          # 3...Nf6?? dragged after it
    through_curtain(page, 16)
    expect(page.locator("#play-log")).to_contain_text("Black moved: Silent")
    expect(page.locator("#play-log")).to_contain_text("3. Qh5: Silent")
    mate = attempt_by_drag(page, "h5", "f7")                                     # 4.Qxf7#
    assert mate["answer"]["words"] == "Capture at f7, checkmate" and mate["state"]["over"]
    expect(page.locator("#curtain")).to_be_hidden()
    expect(page.locator("#play-turn")).to_contain_text("Game over: 1-0")
    expect(page.locator("#replay-moves")).to_contain_text("Qxf7#")
    expect(page.locator("#replay-moves button.m")).to_have_count(7)
    expect(page.locator("#replay-result")).to_contain_text("4 moves (7 half-moves)")
    page.click("#replay-first")
    expect(page.locator(MEN.format("replay-board"))).to_have_count(32)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-ply")).to_have_text("1 / 7")
    expect(page.locator("#replay-board square.last-move")).to_have_count(2)     # e2-e4 highlighted
    moves = page.locator("#play-moves").inner_text().split()
    assert moves == ["1.", "e4", "??", "2.", "Bc4", "??", "3.", "Qh5", "??", "4.", "Qxf7#"]


def test_the_curtain_hides_everything_of_the_side_that_moved(context, server) -> None:
    """With the curtain up for Black after 1.e4 e5 2.Bc4 nothing on the page, nor any link's
    answer, carries White's moves, men, status, guesses, belief count or PGN."""
    page = context.new_page()
    page.goto(server + "play")
    page.select_option("#play-rules", "wild16")
    page.check("#play-belief-tool")
    page.click("#play-start")
    through_curtain(page, 16)
    attempt_by_typing(page, "e4")
    through_curtain(page, 16)
    attempt_by_typing(page, "e5")
    through_curtain(page, 16)
    expect(page.locator("#belief-count")).to_contain_text("fit what you heard", timeout=TURN)
    page.click("#play-tray button[data-role=n]")                     # a guess of White's: a knight on c6
    box = page.locator("#play-board").bounding_box()
    page.mouse.click(box["x"] + box["width"] * 2.5 / 8, box["y"] + box["height"] * 2.5 / 8)
    expect(page.locator("#play-board cg-auto-pieces piece, #play-board svg image")).not_to_have_count(0)
    expect(page.locator("#pgn-own")).to_be_visible()
    attempt_by_typing(page, "Bc4")
    expect(page.locator("#curtain")).to_be_visible()

    secrets = (r"Bc4", r"f1c4", r"1\. e4", r"e2e4", r"White's PGN", r"[\d,]+ positions? fit what you heard",
               r"White to play", r"view=white")
    text = page.evaluate("document.body.textContent")
    attributes = page.evaluate("""() => [...document.querySelectorAll('*')].flatMap(e =>
        [...e.attributes].map(a => a.value)).join(' ')""")
    for secret in secrets:
        assert not re.search(secret, text) and not re.search(secret, attributes), secret
    assert page.input_value("#play-move") == ""
    expect(page.locator("#play-turn")).to_have_text(re.compile(r"^Black to move\."))
    expect(page.locator(MEN.format("play-board"))).to_have_count(0)
    expect(page.locator("#play-board cg-auto-pieces piece, #play-board svg image, #play-board square.last-move, "
                        "#play-board square.check")).to_have_count(0)
    expect(page.locator("#pgn-own")).to_be_hidden()
    links = page.evaluate("[...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))")
    assert links and not any("pgn" in link for link in links)
    for link in links:                                              # every link answers without White's secrets
        if link.startswith("#"):
            continue
        status, body = fetch(page, link)
        assert status == 200 and not any(secret in body for secret in ("Bc4", "f1c4", '"own"', "e2e4")), link
    watch = page.get_attribute("#spectate-link", "href").split("watch=")[1]
    status, body = fetch(page, f"/api/play/watch/{watch}")        # what the spectator link's page reads
    assert status == 200 and "Bc4" not in body and '"own"' not in body
    # Black comes to the board: his men only, White's move as Black hears it
    through_curtain(page, 16)
    expect(page.locator("#play-log")).to_contain_text("2. White moved: Silent")
    assert set(men_on(page).values()) <= {f"black {name}" for name in ("king", "queen", "rook", "bishop", "knight", "pawn")}
    expect(page.locator("#play-board cg-auto-pieces piece, #play-board svg image")).to_have_count(0)  # not White's guess


def test_a_spectators_link_reads_no_men_and_moves_nothing(context, server) -> None:
    page = context.new_page()
    new_game(page, server, "berkeley")
    through_curtain(page)
    attempt_by_typing(page, "Nc3")
    through_curtain(page)
    attempt_by_typing(page, "Nh6")
    watch_url = page.get_attribute("#spectate-link", "href")
    watch = watch_url.split("watch=")[1]
    player = game_id(page)
    assert watch != player
    spectator = context.new_page()
    spectator.goto(server + watch_url.lstrip("/"))
    expect(spectator.locator("#watch-status")).to_contain_text("1 move (2 half-moves) played, White to move")
    expect(spectator.locator("#watch-log")).to_contain_text("Black moved: Silent")
    expect(spectator.locator(MEN.format("watch-board"))).to_have_count(0)
    text = spectator.evaluate("document.body.textContent")
    assert not re.search(r"Nc3|b1c3|Nh6|g8h6", text) and player not in spectator.content()
    for link in spectator.evaluate("[...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))"):
        status, body = fetch(spectator, link)
        assert not re.search(r"Nc3|b1c3|Nh6|g8h6|\"own\"", body), link
    # with the spectators' id: no side's board, PGN or belief, no attempt, for either side
    for side in ("white", "black"):
        for url in (f"/api/play/{watch}?side={side}", f"/api/play/{watch}/pgn?view={side}",
                    f"/api/play/{watch}/belief?side={side}"):
            status, body = fetch(spectator, url)
            assert status in (403, 404) and not re.search(r"Nc3|b1c3|Nh6|\"own\"", body), url
        status, _ = fetch(spectator, f"/api/play/{watch}/attempt", "POST", {"side": side, "move": "e2e4"})
        assert status in (403, 404)
    status, body = fetch(spectator, f"/api/play/watch/{watch}/pgn")
    assert status == 403 and "Nc3" not in body
    assert state_of(page, "white")["plies"] == 2                              # nothing moved
    expect(spectator.locator("#watch-status")).to_contain_text("2 half-moves")


@pytest.mark.slow  # about 12 s on a loaded 2-core machine (two pages, ten curtain changes)
def test_fog_of_war_king_capture_spectator_and_replay(context, server) -> None:
    page = context.new_page()
    new_game(page, server, "fog-of-war")
    watch_url = page.get_attribute("#spectate-link", "href")
    spectator = context.new_page()
    spectator.goto(server + watch_url.lstrip("/"))
    expect(spectator.locator("#watch-status")).to_contain_text("0 moves (0 half-moves) played")
    expect(spectator.locator(MEN.format("watch-board"))).to_have_count(0)
    through_curtain(page, 16)
    expect(page.locator("#play-board square.fog")).to_have_count(32)   # ranks 5-8 fogged at the start
    for san in ("e4", "f6", "Qh5", "a6"):
        attempt_by_typing(page, san)
        through_curtain(page)
    expect(spectator.locator("#watch-status")).to_contain_text("2 moves (4 half-moves) played")
    expect(spectator.locator(MEN.format("watch-board"))).to_have_count(0)  # no men before the end
    expect(page.locator("#play-board cg-board piece.black.king")).to_have_count(1)  # the queen sees the king
    attempt_by_drag(page, "h5", "e8")
    expect(page.locator("#curtain")).to_be_hidden()
    expect(page.locator("#play-turn")).to_contain_text("1-0 (King captured)")
    expect(page.locator("#replay-moves button.m")).to_have_count(5)
    expect(page.locator("#replay-moves")).to_contain_text("Qxe8")
    expect(page.locator(MEN.format("replay-board"))).to_have_count(31)
    page.click("#replay-first")
    expect(page.locator(MEN.format("replay-board"))).to_have_count(32)
    expect(page.locator("#replay-ply")).to_have_text("0 / 5")
    # the spectator: the fog lifts, the replay shows every move of both sides
    expect(spectator.locator("#replay-moves button.m")).to_have_count(5, timeout=TURN)
    expect(spectator.locator("#replay-moves")).to_contain_text("Qxe8")
    expect(spectator.locator(MEN.format("replay-board"))).to_have_count(31)
    assert page.get_attribute("#pgn-full", "href").endswith("view=full")
    status, body = fetch(spectator, spectator.get_attribute("#pgn-full", "href"))
    assert status == 200 and "Qd1-h5" in body


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
    expect(page.locator("#replay-moves button.m")).to_have_count(12)
    expect(page.locator("#setup-status")).to_have_text("6 moves (12 half-moves) replayed.")
    expect(page.locator("#replay-moves")).to_contain_text(game.sans()[0])
    expect(page.locator(MEN.format("replay-board"))).to_have_count(len(game.board().piece_map()))


def test_the_rule_set_shows_its_words_and_modern_is_not_offered(context, server) -> None:
    page = context.new_page()
    page.goto(server + "play")
    expect(page.locator("#play-rules option")).to_have_count(7)
    options = page.eval_on_selector_all("#play-rules option", "options => options.map(o => o.value)")
    assert options == ["berkeley", "berkeley-any", "english", "cincinnati", "rand", "wild16", "fog-of-war"]
    expect(page.locator("#rulebook")).to_contain_text("Pawn at e4 captured")
    expect(page.locator("#rulebook")).to_contain_text("Long-diagonal check")
    expect(page.locator("#rulebook-source")).to_contain_text("Internet Chess Club")
    page.select_option("#play-rules", "berkeley")
    expect(page.locator("#rulebook")).to_contain_text("Capture at e4")
    expect(page.locator("#rulebook")).not_to_contain_text("Pawn at e4 captured")


@pytest.mark.parametrize("width, smallest, largest", [(1280, 560, 640), (400, 300, 380)])
def test_the_board_is_large_where_the_screen_allows_and_reads_at_400_px(browser, server, width, smallest, largest) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    new_game(page, server, "wild16", "computer")
    board = page.locator("#play-board").bounding_box()
    assert smallest <= board["width"] <= largest and abs(board["width"] - board["height"]) < 2
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.keyboard.press("N")                                         # typing anywhere goes to the move field
    page.keyboard.type("f3")
    expect(page.locator("#play-move")).to_have_value("Nf3")
    page.keyboard.press("Enter")
    expect(page.locator("#play-log")).to_contain_text("1. Nf3: Silent", timeout=TURN)
    expect(page.locator("#play-board square.last-move")).to_have_count(2)
    # the board, the move list and the game's buttons are all in view, without scrolling
    expect(page.locator("#play-moves")).to_contain_text("Nf3")
    for selector in ("#play-board", "#play-moves", "#play-flip", "#play-draw", "#play-takeback", "#play-resign",
                     "#play-sound", "#play-turn"):
        box = page.locator(selector).bounding_box()
        assert box and box["x"] >= 0 and box["y"] >= 0, selector
        assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= 900, (selector, box)
    assert page.evaluate("window.scrollY") == 0 and page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()


def test_a_reloaded_page_goes_on_with_its_game(context, server) -> None:
    page = context.new_page()
    new_game(page, server, "wild16", "computer")
    attempt_by_typing(page, "Nf3")
    expect(page.locator("#play-log")).to_contain_text("1. Nf3: Silent", timeout=TURN)
    page.reload()                                                      # ?game=<id> in the address bar
    expect(page.locator("#play-log")).to_contain_text("1. Nf3: Silent")
    expect(page.locator(MEN.format("play-board"))).to_have_count(16)
    expect(page.locator("#play-turn")).to_contain_text("Your move: White to play, move 2")
    new_game(page, server, "berkeley")
    through_curtain(page)
    attempt_by_typing(page, "e4")
    page.reload()                                                      # hot-seat: behind the curtain again
    expect(page.locator("#curtain")).to_be_visible()
    expect(page.locator("#curtain-text")).to_contain_text("Black to play")
    expect(page.locator(MEN.format("play-board"))).to_have_count(0)
    page.goto(server + "play?game=nosuch")
    expect(page.locator("#setup-status")).to_contain_text("no game 'nosuch'")


# --- the game's buttons: takeback, draw, resign, rematch, flip; the clock; drops; sounds --------------
def curtain_says(page, words: str) -> None:
    expect(page.locator("#curtain")).to_be_visible()
    expect(page.locator("#curtain-text")).to_contain_text(words)


def test_hotseat_takebacks_and_a_draw_offer_declined_then_accepted(context, server) -> None:
    page = context.new_page()
    new_game(page, server, "berkeley")
    spectator = context.new_page()
    spectator.goto(server + page.get_attribute("#spectate-link", "href").lstrip("/"))
    page.bring_to_front()                                                        # drags want the page in front
    through_curtain(page, 16)
    assert attempt_by_drag(page, "e2", "e4")["answer"]["kind"] == "move"
    expect(page.locator("#curtain-takeback")).to_be_visible()                   # the mover may take it back
    with page.expect_response(lambda r: r.url.endswith("/takeback")) as info:
        page.click("#curtain-takeback")
    assert info.value.status == 200
    expect(page.locator("#curtain")).to_be_hidden()                              # White's board again
    expect(page.locator("#play-answer")).to_contain_text("Your move was taken back")
    assert shows_men(page, own_men(state_of(page, "white")["view"])) and men_on(page)["e2"] == "white pawn"
    expect(page.locator("#play-log")).to_contain_text("White takes back his move")
    assert attempt_by_drag(page, "d2", "d4")["answer"]["kind"] == "move"         # another move instead
    through_curtain(page, 16)
    assert attempt_by_drag(page, "d7", "d5")["answer"]["kind"] == "move"
    through_curtain(page, 16)
    refused = attempt_by_drag(page, "d4", "d5")                                  # blocked by the unseen pawn
    assert refused["answer"]["words"] == "No" and men_on(page)["d4"] == "white pawn"
    page.click("#play-draw")                                                      # White offers, then moves
    expect(page.locator("#play-turn")).to_contain_text("You offer a draw")
    expect(page.locator("#play-draw")).to_be_disabled()
    assert attempt_by_drag(page, "g1", "f3")["answer"]["kind"] == "move"
    curtain_says(page, "White offers a draw")
    through_curtain(page, 16)
    expect(page.locator("#draw-box")).to_contain_text("White offers a draw.")
    page.click("#draw-decline")
    expect(page.locator("#play-answer")).to_contain_text("Black declines the draw")
    expect(page.locator("#draw-box")).to_be_hidden()
    assert attempt_by_drag(page, "b8", "c6")["answer"]["kind"] == "move"          # Black plays on
    through_curtain(page, 16)
    page.click("#play-takeback")                                                  # White lets Black take back Nc6
    curtain_says(page, "White lets Black take back his move")
    through_curtain(page, 16)
    assert men_on(page)["b8"] == "black knight"
    assert attempt_by_drag(page, "g8", "f6")["answer"]["kind"] == "move"
    through_curtain(page, 16)
    page.click("#play-draw")
    assert attempt_by_drag(page, "e2", "e3")["answer"]["kind"] == "move"
    through_curtain(page, 16)
    page.click("#draw-accept")
    expect(page.locator("#play-turn")).to_contain_text("Game over: 1/2-1/2 (draw by agreement)")
    expect(page.locator("#replay-result")).to_contain_text("draw by agreement")
    expect(page.locator("#replay-moves button.m")).to_have_count(5)               # d4 d5 Nf3 Nf6 e3: no e4, no Nc6
    assert page.locator("#replay-moves").inner_text().split() == ["1.", "d4", "d5", "2.", "Nf3", "Nf6", "3.", "e3"]
    status, body = fetch(page, page.get_attribute("#pgn-full", "href"))
    assert status == 200 and '[Termination "draw by agreement"]' in body and body.rstrip().endswith("1/2-1/2")
    expect(spectator.locator("#replay-result")).to_contain_text("1/2-1/2: draw by agreement", timeout=TURN)
    expect(page.locator("#play-rematch")).to_be_visible()


def test_a_timed_game_against_the_computer_resigned_then_a_rematch_with_colours_swapped(context, server) -> None:
    page = context.new_page()
    page.goto(server + "play?seed=3")
    page.select_option("#play-rules", "wild16")
    page.select_option("#play-mode", "computer")
    page.select_option("#play-side", "white")
    page.select_option("#play-clock", "300+0")
    page.click("#play-start")
    expect(page.locator("#play-turn")).to_contain_text("Your move", timeout=TURN)
    expect(page.locator("#bar-bottom .clock")).to_have_text("5:00")
    expect(page.locator("#bar-top .clock")).to_have_text("5:00")
    for orig, dest in (("e2", "e4"), ("d2", "d4")):                             # the clocks start after these
        assert attempt_by_drag(page, orig, dest)["answer"]["kind"] == "move"
        expect(page.locator("#play-turn")).to_contain_text("Your move", timeout=TURN)
    expect(page.locator("#bar-bottom .clock.running")).to_be_visible()
    expect(page.locator("#bar-bottom .clock")).to_have_text(re.compile(r"^4:5\d$"), timeout=5_000)  # counting down
    state = state_of(page, "white")
    assert state["clock"]["running"] == "white" and state["clock"]["black"] < 300  # its thinking counted
    page.click("#play-takeback")
    expect(page.locator("#play-answer")).to_contain_text("no takebacks against the computer")
    assert state_of(page, "white")["plies"] == 4                                # nothing undone
    page.click("#play-resign")
    expect(page.locator("#play-resign")).to_have_text(re.compile("Really resign"))  # asks once more
    page.click("#play-resign")
    expect(page.locator("#play-turn")).to_contain_text("Game over: 0-1 (White resigns)")
    expect(page.locator("#replay-result")).to_contain_text("0-1: White resigns")
    expect(page.locator("#bar-bottom .clock.running")).to_have_count(0)
    first = game_id(page)
    with page.expect_response(lambda r: r.url.endswith("/rematch")) as info:
        page.click("#play-rematch")
    assert info.value.status == 201
    expect(page.locator("#play-turn")).to_contain_text("Your move: Black to play", timeout=TURN)
    assert game_id(page) != first
    assert "orientation-black" in page.get_attribute("#play-board", "class")
    expect(page.locator("#bar-bottom")).to_contain_text("Black · you")
    expect(page.locator("#bar-top")).to_contain_text("White · the computer")
    expect(page.locator("#bar-bottom .clock")).to_have_text("5:00")
    expect(page.locator("#replay")).to_be_hidden()
    expect(page.locator("#play-log")).to_contain_text("White moved")
    rematch = state_of(page)
    assert rematch["side"] == "black" and rematch["computer"] == "white" and rematch["rules"] == "wild16"
    assert rematch["clock"]["limit"] == 300 and rematch["plies"] == 1


def test_drops_the_man_cannot_make_are_explained_the_board_flips_and_sounds_play(context, server) -> None:
    page = context.new_page()
    page.add_init_script("""window.tones = 0;
        const make = AudioContext.prototype.createOscillator;
        AudioContext.prototype.createOscillator = function () { window.tones += 1; return make.call(this); };""")
    new_game(page, server, "berkeley")
    assert not page.is_checked("#play-sound")                                   # off by default
    through_curtain(page, 16)
    page.check("#play-sound")
    requests = []
    page.on("request", lambda request: requests.append(request.url) if "/api/play/" in request.url else None)
    for orig, dest, words in (("g1", "g3", "A knight does not move so."),
                              ("f1", "c4", "A bishop does not pass over your own men."),
                              ("e1", "e2", "e2 holds one of your own men."),
                              ("e2", "e5", "A pawn does not move so.")):
        drag(page, orig, dest)
        expect(page.locator("#play-answer")).to_contain_text(words)
        expect(page.locator("#play-answer")).to_contain_text("Nothing was asked of the referee")
        assert "Referee" not in page.inner_text("#play-answer")                 # not the referee's "No"
    assert requests == [] and men_on(page)["g1"] == "white knight" and men_on(page)["e2"] == "white pawn"
    page.click("#play-flip")                                                      # White's board, Black below
    assert "orientation-black" in page.get_attribute("#play-board", "class")
    expect(page.locator("#bar-bottom")).to_contain_text("Black · your opponent")
    drag(page, "b1", "b3")                                                        # drags work the other way round
    expect(page.locator("#play-answer")).to_contain_text("A knight does not move so.")
    assert attempt_by_drag(page, "b1", "c3")["answer"]["kind"] == "move"
    through_curtain(page, 16)
    assert "orientation-black" not in page.get_attribute("#play-board", "class")  # Black's board: flipped, White below
    page.click("#play-flip")
    assert "orientation-black" in page.get_attribute("#play-board", "class")
    assert attempt_by_drag(page, "e7", "e5")["answer"]["kind"] == "move"
    assert page.evaluate("window.tones") >= 6                                    # "No" four times, the moves
    page.reload()
    expect(page.locator("#play-sound")).to_be_checked()                          # the choice is kept
