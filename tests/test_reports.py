"""Report renderers: the HTML page, DOT and GraphML, the verification text,
and (when Chromium is installed) the screenshot script."""

from __future__ import annotations

import ksolve

import html
import importlib.util
import io
import json
import re
import shutil
import struct
import subprocess
import tempfile
import zlib
from html.parser import HTMLParser
from pathlib import Path

import networkx as nx
import pytest

from ksolve.problem import load_problem, load_problem_text
from ksolve.report.graph import flatten, to_dot, to_graphml, write_graph
from ksolve.report.html import hidden_marks, render_html
from ksolve.report.text import render_text, render_verification_text, try_lines
from ksolve.solver import solve

ROOT = Path(__file__).resolve().parent.parent
PROBLEMS = ROOT / "problems"
CHROMIUM = Path("/usr/bin/chromium")

VERIFICATION = {  # the shape of ksolve.verification's as_dict()
    "verdict": "sound", "moves": 2,
    "keys": [{"move": "a8a4", "label": "Ra4", "san": "Ra4", "moves": 2}],
    "tries": [{"move": "b4d6", "label": "Qd6", "san": "Qd6", "refutation": "Kxd6! <no mate>",
               "refuted_by": {"kind": "no win"}},
              {"move": "b6c7", "label": "Bc7", "san": "Bc7", "refutation": "the king & Black \"escapes\"",
               "refuted_by": {"kind": "no win"}}],
    "tries_total": 2, "duals": [], "duals_checked": True,
    "published_key": "a8a4", "published_label": "Ra4", "published_key_matches": True,
    "belief_size": 25, "nodes": 1000, "seconds": 2.0,
}


@pytest.fixture(scope="module")
def foster():
    """Two hidden units (a king on five squares, perhaps a pawn), "No" branches."""
    problem = load_problem(PROBLEMS / "foster-1996.toml")
    return problem, solve(problem)


@pytest.fixture(scope="module")
def anderson_05():
    """A strategy that asks "Any?"."""
    problem = load_problem(PROBLEMS / "anderson-05.toml")
    return problem, solve(problem)


class _Checker(HTMLParser):
    """Well-formedness (every element closed in order, void elements aside), and
    the text outside any ``<details>`` and inside closed ones, apart."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []  # (tag, whether it or an ancestor is a closed <details>)
        self.errors: list[str] = []
        self.counts: dict[str, int] = {}
        self.text: list[str] = []
        self.shown: list[str] = []
        """Text shown before any click: outside every closed ``<details>`` (its summary aside)."""

    def handle_starttag(self, tag, attrs):
        self.counts[tag] = self.counts.get(tag, 0) + 1
        if tag not in self.VOID:
            hidden = bool(self.stack) and self.stack[-1][1] or tag == "svg"  # a diagram's title is no text
            if tag == "summary" and self.stack and self.stack[-1][0] == "details":
                hidden = len(self.stack) > 1 and self.stack[-2][1]
            elif tag == "details":
                hidden = hidden or "open" not in dict(attrs)
            self.stack.append((tag, hidden))

    def handle_startendtag(self, tag, attrs):
        self.counts[tag] = self.counts.get(tag, 0) + 1

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)
        if not (self.stack and self.stack[-1][1]):
            self.shown.append(data)


def check_html(page: str) -> _Checker:
    checker = _Checker()
    checker.feed(page)
    checker.close()
    assert not checker.errors, checker.errors[:5]
    assert checker.stack == [], checker.stack
    return checker


def _words(parts: list[str]) -> str:
    return " ".join(" ".join(parts).split())


def _key_label(tree: nx.DiGraph, root: int = 0) -> str:
    """The strategy's first move as the tree labels it."""
    return next(data["label"] for _, _, data in tree.out_edges(root, data=True))


def test_html_page_is_well_formed_and_complete(foster) -> None:
    problem, result = foster
    page = render_html(problem, result, VERIFICATION)
    checker = check_html(page)
    text = _words(checker.text)
    assert page.startswith("<!DOCTYPE html>")
    turns = page.count('<div class="turn')
    assert checker.counts["svg"] == 1 + 1 + turns  # piece definitions, main diagram, one per White turn drawn
    assert f"1.{_key_label(result.tree)}!" in text
    assert "black king: a6 e2 e5 e6 h3" in text and "perhaps a black pawn: a3 a4 a5 a6 a7" in text
    assert "1.Qd6? Kxd6! <no mate>" in text and 'the king & Black "escapes"' in text and "&lt;no mate&gt;" in page
    assert "Checkmate" in text
    assert re.search(r"<(script|link|img|iframe)\b", page) is None
    assert re.search(r"(src|href)=\"(https?:)?//", page) is None  # nothing fetched from outside


def test_html_main_line_reads_without_a_click(foster) -> None:
    """The main line stands outside every <details>, numbered 1, 2, ... down to a mate; the
    branches that start open are exactly the mates at once."""
    problem, result = foster
    page = render_html(problem, result)
    check_html(page)
    line = page.split('<div class="line main">')[1].split("</section>")[0]
    shown = check_html(f"<div>{line}").shown
    assert _words(shown).startswith(f"1.{_key_label(result.tree)}!")
    main_turns = re.findall(r'<div class="turn main">.*?<span class="move[^"]*">(\d+)\.', line)
    assert main_turns == [str(n) for n in range(1, len(main_turns) + 1)] and len(main_turns) >= result.moves - 1
    assert "Checkmate" in _words(shown[-3:])  # the line ends in a mate
    opened = line.split('<details class="branch" open>')[1:]
    assert opened and all(part.split("</summary>")[1].startswith('<div class="leaf win">') for part in opened)
    closed = line.split('<details class="branch">')[1:]
    assert closed and not any(part.split("</summary>")[1].startswith('<div class="leaf win">') for part in closed)


def test_html_has_one_result_block(foster) -> None:
    problem, result = foster
    page = render_html(problem, result, VERIFICATION)
    check_html(page)
    assert page.count('class="verdict') == 1 and page.count("<h2>Result</h2>") == 1
    assert page.count(" nodes in ") == 1 and "Verification" not in page
    assert f"searched {result.nodes + 1000:,} nodes in {result.seconds + 2.0:.1f} s" in page
    assert '<p class="verdict good"><strong>Sound</strong> White mates in 2: key' in page
    assert "sound — sound" not in page.lower()
    alone = render_html(problem, result)
    assert alone.count('class="verdict') == 1 and "<strong>Solved</strong> White mates in 2; key" in alone
    assert "not verified" in alone
    stopped = render_html(problem, result, {"verdict": "unknown", "reason": "time limit <60 s>", "moves": 2,
                                            "keys": [{"move": "a8a4", "san": "Ra4", "moves": 2}]})
    assert '<p class="verdict"><strong>Not decided</strong> time limit &lt;60 s&gt;; keys so far: ' in stopped


def test_html_any_question_and_open_depth(anderson_05) -> None:
    problem, result = anderson_05
    closed = render_html(problem, result, open_depth=0)
    opened = render_html(problem, result, open_depth=99)
    check_html(closed)
    assert "2.Any?" in closed and "Yes" in closed
    tree_opened = opened.split('<section class="tree"')[1]
    assert tree_opened.count("<details") == tree_opened.count(" open>") > 0
    for part in closed.split('<details class="branch" open>')[1:]:  # open by default: the mates at once
        assert part.split("</summary>")[1].startswith('<div class="leaf win">')


def test_html_escapes_labels_and_titles(anderson_05) -> None:
    problem, result = anderson_05
    tree = result.tree.copy()
    attempt_edge = next((a, b) for a, b, d in tree.edges(data=True) if d["kind"] == "attempt")
    tree.edges[attempt_edge]["label"] = "<script>alert(1)</script>"
    result.tree, original = tree, result.tree
    problem.title, title = 'A & B <i>"quoted"</i>', problem.title
    try:
        page = render_html(problem, result)
    finally:
        result.tree, problem.title = original, title
    check_html(page)
    assert "<script" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "A &amp; B &lt;i&gt;&quot;quoted&quot;&lt;/i&gt;" in page


def test_html_diagram_budget(foster) -> None:
    problem, result = foster
    page = render_html(problem, result, max_diagrams=1)
    check_html(page)
    assert page.count('<use href="#ks-board"') == 1 and page.count('<div class="turn') > 1
    assert len(render_html(problem, result).encode()) < 200_000


def test_html_css_reads_small_and_prints_whole() -> None:
    """The rules the 400 px layout and printing rest on (the browser test checks their effect)."""
    from ksolve.report.html import STYLE

    assert ".move{white-space:nowrap" in STYLE and "@media (max-width:600px)" in STYLE
    printing = STYLE.split("@media print")[1]
    assert "details::details-content" in printing and "content-visibility:visible" in printing
    assert "summary::-webkit-details-marker{display:none}" in printing and ".hint{display:none}" in printing
    assert ".turn" in printing and "break-inside:avoid" in printing


def test_html_tolerates_partial_verification_and_no_tree() -> None:
    problem = load_problem_text('stipulation = "#1"\nrules = "berkeley"\n[position]\n'
                                'fen = "k7/8/2K5/8/8/8/8/7R w - - 0 1"\n')
    result = solve(problem)
    assert result.tree is None
    for verification in ({}, {"verdict": "no solution"}, {"tries": [{"san": "Rh8+", "refutation": "Kb7!"}]},
                         {"keys": ["1.Rh8!"], "duals": [{"move_number": 2, "also": ["a", "b"]}], "extra": 3},
                         {"verdict": None, "keys": None, "tries": None, "duals": None, "published_key": None}):
        page = render_html(problem, result, verification)
        check_html(page)
        assert "No strategy tree (no solution)" in page
    page = render_html(problem, result, {"published_key": "h1h8", "published_key_matches": False})
    assert "not a key" in page and "No hidden units" in page


def test_html_of_explicit_positions_and_several_first_classes(anderson_05) -> None:
    problem = load_problem(PROBLEMS / "roche-1986.toml")
    labels = [mark.label for mark in hidden_marks(problem)]
    assert labels == ["black pawn: a4 a5 a6 a7", "black king: d2 d8 e8 f6 f7 g8 h6 h7"]
    # A "start" root joining one strategy per first class (as the solver builds it).
    _, result = anderson_05
    tree = nx.DiGraph(moves=2, rules="english")
    tree.add_node(0, kind="start", number=1, size=2)
    for label in ("Pawn tries: 1", "No pawn tries"):
        offset = tree.number_of_nodes()
        tree = nx.union(tree, nx.relabel_nodes(result.tree, {n: n + offset for n in result.tree}))
        tree.add_edge(0, offset, kind="info", label=label)
    joined = type(result)(**{**result.__dict__, "tree": tree})
    page = render_html(load_problem(PROBLEMS / "anderson-05.toml"), joined)
    check_html(page)
    key = f"1.{_key_label(result.tree)}!"
    assert page.split('<section class="tree"')[1].count(key) == 2 and "No pawn tries" in page
    assert render_text(tree).count(key) == 2
    assert len(nx.read_graphml(io.BytesIO(to_graphml(tree).encode()))) == tree.number_of_nodes()
    assert _parse_dot(to_dot(tree))[0].keys() == {str(n) for n in tree}


def test_html_cooked_problem_draws_a_tree_per_key() -> None:
    """anderson-27 has two keys: each gets its tree (the second one is what a composer mends)."""
    from ksolve.report import render_report
    from ksolve.verification import verify

    problem = load_problem(PROBLEMS / "anderson-27.toml")
    result, verification = solve(problem), verify(problem, tries=3)
    assert verification.verdict == "cooked" and len(verification.keys) == 2
    page = render_report("html", problem, result, verification,
                         ksolve.key_solutions(problem, result, verification))
    check_html(page)
    assert 'id="solution"' in page and 'id="key-2"' in page and 'id="key-3"' not in page
    second = page.split('id="key-2"')[1]
    other = next(key for key in verification.keys if key.move != result.key)
    assert f"1.{other.label}!" in second.split('<div class="turn')[1]
    assert page.count('<a href="#solution">') == 1 and page.count('<a href="#key-2">') == 1
    assert "<strong>Cooked</strong> 2 keys:" in page


_QUOTED = r'"(?:[^"\\]|\\.)*"'
_NODE = re.compile(rf"^\s*({_QUOTED})\s*\[(.*)\];$")
_EDGE = re.compile(rf"^\s*({_QUOTED})\s*->\s*({_QUOTED})\s*\[(.*)\];$")
_ATTRIBUTE = re.compile(rf"(\w+)=({_QUOTED}|[^,\s]+)")


def _unquote(text: str) -> str:
    if text.startswith('"'):
        return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), text[1:-1])
    return text


def _parse_dot(text: str) -> tuple[dict, dict]:
    """Nodes and edges of DOT text as written by ``to_dot`` (a strict reader)."""
    nodes, edges = {}, {}
    lines = text.strip().splitlines()
    assert lines[0].startswith("digraph ") and lines[-1] == "}"
    for line in lines[1:-1]:
        if line.strip().startswith(("graph [", "node [")):
            continue
        if match := _EDGE.match(line):
            attributes = {k: _unquote(v) for k, v in _ATTRIBUTE.findall(match.group(3))}
            edges[_unquote(match.group(1)), _unquote(match.group(2))] = attributes
        elif match := _NODE.match(line):
            nodes[_unquote(match.group(1))] = {k: _unquote(v) for k, v in _ATTRIBUTE.findall(match.group(2))}
        else:
            raise AssertionError(f"unreadable DOT line: {line!r}")
    return nodes, edges


def test_dot_has_every_node_edge_and_attribute(foster) -> None:
    _, result = foster
    tree = result.tree.copy()
    answer = next((a, b) for a, b, data in tree.edges(data=True) if data["kind"] == "answer")
    tree.edges[answer]["label"] = 'say "No" \\ then\nmate <now>'
    nodes, edges = _parse_dot(to_dot(tree))
    assert set(nodes) == {str(n) for n in tree.nodes}
    assert set(edges) == {(str(a), str(b)) for a, b in tree.edges}
    flat = flatten(tree)
    for node, data in flat.nodes(data=True):
        for name, value in data.items():
            expected = str(value).lower() if isinstance(value, bool) else str(value)
            assert nodes[str(node)][name] == expected, (node, name)
    assert edges[tuple(map(str, answer))]["label"] == 'say "No" \\ then\nmate <now>'
    key = _key_label(tree)
    assert nodes["0"]["attempt"] == key and nodes["0"]["is_key"] == "true"
    assert f"{key}!" in nodes["0"]["label"]


@pytest.mark.skipif(shutil.which("dot") is None, reason="needs Graphviz's dot")
def test_graphviz_reads_the_dot(foster, tmp_path: Path) -> None:
    _, result = foster
    tree = result.tree.copy()
    tree.edges[next(iter(tree.edges))]["label"] = 'a "quoted" \\ label'
    completed = subprocess.run(["dot", "-Tsvg"], input=to_dot(tree), capture_output=True, text=True, timeout=60)
    assert completed.returncode == 0 and not completed.stderr.strip(), completed.stderr
    assert completed.stdout.count('class="node"') == tree.number_of_nodes()


def test_graphml_reads_back_with_flat_attributes(foster, tmp_path: Path) -> None:
    _, result = foster
    tree = result.tree
    back = nx.read_graphml(io.BytesIO(to_graphml(tree).encode()))
    assert back.number_of_nodes() == tree.number_of_nodes() and back.number_of_edges() == tree.number_of_edges()
    assert back.graph["moves"] == 2 and back.graph["rules"] == "berkeley"
    root = back.nodes["0"]
    assert (root["kind"], root["size"], root["moves_left"], root["attempt"], root["is_key"]) == \
        ("white", 25, 2, _key_label(tree), True)
    assert root["hidden"] == "pawn: a3 a4 a5 a6 a7; king: e2 h3 e5 a6 e6"
    for source, target, data in tree.edges(data=True):
        read = back.edges[str(source), str(target)]
        assert read["kind"] == data["kind"] and read["label"] == data["label"]
        if data["kind"] in ("answer", "reply"):
            assert read["announcement"] == data["label"] and read["code"] == ",".join(map(str, data["key"]))
    path = write_graph(tree, tmp_path / "tree.graphml")
    assert nx.read_graphml(path).number_of_nodes() == tree.number_of_nodes()
    assert write_graph(tree, tmp_path / "tree.dot").read_text().startswith('digraph "strategy" {')
    with pytest.raises(ValueError):
        write_graph(tree, tmp_path / "tree.png")


def test_verification_text() -> None:
    text = render_verification_text(VERIFICATION)
    assert text.splitlines() == [
        "Verdict: sound",
        "1.Ra4! (mate in 2)",
        "Tries, the closest first:",
        "  1.Qd6? Kxd6! <no mate>",
        '  1.Bc7? the king & Black "escapes"',
        "Duals: none",
    ]
    assert render_verification_text({}) == ""
    cooked = render_verification_text({"verdict": "cooked", "keys": [{"move": "a8a4"}, "1.Qb4-b8!"],
                                       "duals": [{"move_number": 2, "played": "Qd6", "also": ["Qe7"],
                                                  "moves_left": 1, "after": "1.Ra4", "main_line": True}],
                                       "published_key": "a8a4", "published_key_matches": False})
    assert cooked.splitlines() == ["Verdict: cooked", "1.a8a4!", "1.Qb4-b8!", "Duals: 1 in the main line, 0 minor",
                                   "  main line: 1.Ra4: 2.Qd6 (also 2.Qe7; mate in 1)"]


VERIFY_DICT = {  # the shape of ksolve.verification's as_dict()
    "verdict": "cooked", "line": "cooked: keys 1.Ra4! (#2), 1.Qb8! (#1); the published key 1.Ra4 is a key",
    "moves": 2, "keys": [{"move": "a8a4", "label": "Ra4", "san": "Ra4", "moves": 2},
                         {"move": "b4b8", "label": "Qb8", "san": "Qb8", "moves": 1}],
    "short": [{"move": "b4b8", "label": "Qb8", "san": "Qb8", "moves": 1}],
    "tries": [{"move": "a8a3", "label": "Ra3", "san": "Ra3", "refutation": "Ke5/Ke6! (K e5/e6; no mate in 1)",
               "refuted_by": {"answer": "Silent", "size": 2, "kind": "no win"}}],
    "tries_total": 85, "duals": [], "duals_checked": False, "published_key": "a8a4",
    "published_key_matches": True, "belief_size": 25, "nodes": 418, "seconds": 1.237,
}


def test_verification_in_the_verifiers_shape(foster) -> None:
    text = render_verification_text(VERIFY_DICT).splitlines()
    assert text == [
        "Verdict: cooked: keys 1.Ra4! (#2), 1.Qb8! (#1); the published key 1.Ra4 is a key",
        "Short solutions: 1.Qb8! (mate in 1)",
        "Tries, the closest first:",
        "  1.Ra3? Ke5/Ke6! (K e5/e6; no mate in 1)",
        "  (1 of 85 tries shown)", "Duals: not checked",
    ]
    problem, result = foster
    page = render_html(problem, result, VERIFY_DICT)
    check_html(page)
    assert 'class="verdict bad"' in page and "Tries, the closest first (1 of 85)" in page
    assert "Duals: not checked" in page and "refuted_by" not in page and "Short solutions: 1.Qb8" in page
    assert "<strong>Cooked</strong> 2 keys:" in page and "(mate in 1)" in page


def test_html_with_the_verifier(foster) -> None:
    verify = pytest.importorskip("ksolve.verification")
    problem, result = foster
    verification = verify.verify(problem, tries=5).as_dict()
    page = render_html(problem, result, verification)
    check_html(page)
    assert '<p class="verdict good"><strong>Sound</strong>' in page
    block = page.split("<h2>Result</h2>")[1].split("</section>")[0]
    tries = block.split("<summary>Tries")[1].split("</details>")[0]
    assert tries.count("<li>") == len(try_lines(verification["tries"])) and f"(5 of {verification['tries_total']})" in tries
    assert block.count(" nodes in ") == 1 and "Duals (" in block


def test_render_text_unchanged(foster) -> None:
    _, result = foster
    lines = render_text(result.tree).splitlines()
    assert lines[0] == "1.Ra4!" and "  No [13: P a5/a6/a7; K e2/h3/e5/a6/e6]" in lines


def _png_facts(data: bytes) -> tuple[int, int, int]:
    """Width, height and the number of distinct byte values of the image data."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    at, idat = 8, b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            idat += data[at + 8:at + 8 + length]
        at += 12 + length
    return width, height, len(set(zlib.decompress(idat)))


LAYOUT_PROBE = """<script>
addEventListener("load", () => {
  const width = innerWidth, line = document.querySelector(".line.main");
  const steps = [...line.children].filter(e => !e.matches("details"));
  const rows = e => new Set([...e.getClientRects()].map(r => Math.round(r.top))).size;
  const moves = [...document.querySelectorAll(".move")].filter(e => e.getClientRects().length);
  parent.document.body.dataset.layout = JSON.stringify({
    width, scroll: document.documentElement.scrollWidth,
    broken: moves.filter(e => rows(e) > 1).map(e => e.textContent),
    unseen: steps.filter(e => !e.getClientRects().length).length,
    outside: steps.filter(e => e.getBoundingClientRect().right > width + 0.5).map(e => e.textContent.slice(0, 60)),
    overflowing: [...document.querySelectorAll(".tree, .result, .top")].filter(e => e.scrollWidth > e.clientWidth + 1)
      .map(e => e.className),
    turns: line.querySelectorAll(":scope > .turn").length,
    key: document.querySelector(".line.main .move.key").textContent});
});
</script>"""
"""Measures the report's layout in the browser (a test probe: the report itself has no script)."""


@pytest.fixture(scope="module")
def screenshot_script():
    spec = importlib.util.spec_from_file_location("screenshot", ROOT / "docs" / "screenshot.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script


def _chromium(script, page: Path, window: tuple[int, int], *args: str) -> str:
    """Headless Chromium's standard output for ``page`` (a fresh profile, no network services)."""
    with tempfile.TemporaryDirectory(prefix="ksolve-test-chromium-") as profile:
        completed = subprocess.run([str(CHROMIUM), *script.FLAGS, f"--user-data-dir={profile}",
                                    f"--window-size={window[0]},{window[1]}", *args, page.as_uri()],
                                   capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr[-2000:]
    return completed.stdout


def _pdf_pages(script, page: str, path: Path) -> int:
    path.with_suffix(".html").write_text(page, encoding="utf-8")
    _chromium(script, path.with_suffix(".html"), (1280, 1000), f"--print-to-pdf={path}", "--no-pdf-header-footer")
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", path.read_bytes()))


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium (.ci/run installs it)")
@pytest.mark.parametrize("width", [1280, 400])
def test_browser_lays_the_report_out_at(width: int, foster, screenshot_script, tmp_path: Path) -> None:
    """In Chromium at 1280 and at 400 px: a drawn page; no move broken across lines; the main
    line all shown, inside the window; nothing wider than the window or than its box."""
    problem, result = foster
    page = render_html(problem, result, VERIFICATION)
    report = tmp_path / "report.html"
    report.write_text(page, encoding="utf-8")
    png = screenshot_script.screenshot(report, tmp_path / "report.png", (width, 1200), str(CHROMIUM))
    data = png.read_bytes()
    assert _png_facts(data)[:2] == (width, 1200) and _png_facts(data)[2] > 100 and len(data) > 20_000
    probe = tmp_path / "probe.html"
    probe.write_text(screenshot_script.framed(page.replace("</body>", LAYOUT_PROBE + "</body>"), width, 1200),
                     encoding="utf-8")
    dom = _chromium(screenshot_script, probe, (width, 1200), "--dump-dom")
    layout = json.loads(html.unescape(re.search(r'data-layout="([^"]*)"', dom).group(1)))
    assert layout["width"] == width and layout["scroll"] <= width, layout
    assert layout["broken"] == [] and layout["unseen"] == 0 and layout["outside"] == [], layout
    assert layout["overflowing"] == [], layout  # as loaded, nothing needs scrolling sideways
    assert layout["turns"] >= 1 and layout["key"] == f"1.{_key_label(result.tree)}!"


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium (.ci/run installs it)")
def test_browser_prints_every_branch(foster, screenshot_script, tmp_path: Path) -> None:
    """Printed, the page is as long as with every <details> opened by hand: print CSS expands them."""
    problem, result = foster
    page = render_html(problem, result, VERIFICATION)
    opened = re.sub(r"<details( class=\"branch\")?>", r"<details\1 open>", page)
    assert opened.count(" open>") > page.count(" open>")
    printed = _pdf_pages(screenshot_script, page, tmp_path / "page.pdf")
    assert printed == _pdf_pages(screenshot_script, opened, tmp_path / "opened.pdf") and printed > 1


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium (.ci/run installs it)")
def test_screenshot_script(screenshot_script, tmp_path: Path) -> None:
    png, page = tmp_path / "foster.png", tmp_path / "foster.html"
    assert screenshot_script.main([str(PROBLEMS / "foster-1996.toml"), "-o", str(png), "--html", str(page),
                                   "--window", "400x900", "--chromium", str(CHROMIUM)]) == 0
    check_html(page.read_text())
    data = png.read_bytes()
    width, height, values = _png_facts(data)
    assert (width, height) == (400, 900)  # narrower than Chromium's windows: photographed in a frame
    assert len(data) > 20_000 and values > 100  # a drawn page, not a blank one
