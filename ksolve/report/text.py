"""The strategy tree as text, in problem composers' conventions.

The key carries "!", each attempt is numbered with White's move number, the
referee's answers and what White hears of Black's replies are indented
under it with the size of the belief (and the hidden units' squares when
few), down to "#".

>>> from ksolve.belief import BeliefState
>>> from ksolve.rules import get_rules
>>> from ksolve.search.prover import Prover
>>> from ksolve.solution import strategy_tree
>>> prover = Prover(get_rules("berkeley"))
>>> belief = BeliefState.from_hidden("k7/8/1K6/8/8/8/8/7R w - - 0 1", [])
>>> _ = prover.wins(belief, 1)
>>> print(render_text(strategy_tree(prover, belief, 1)))
1.Rh1-h8!
  Checkmate #

A verification (keys, tries and their refutations, duals) reads as
composers write it, see ``render_verification_text``.
"""

from __future__ import annotations

from typing import Any

import networkx as nx

INDENT = "  "


def belief_note(data: dict) -> str:
    """``[27]`` or ``[3: bishop b2 d2 f2]`` for a node's belief."""
    hidden = data.get("hidden") or {}
    listed = [f"{name} {' '.join(squares)}" for name, squares in hidden.items() if isinstance(squares, list)]
    return f"[{data['size']}{': ' + '; '.join(listed) if listed else ''}]"


def render_text(tree: nx.DiGraph) -> str:
    """The whole tree as indented lines."""
    lines: list[str] = []
    if tree.nodes[0]["kind"] == "start":  # several first announcements: one strategy each
        for _, child, info in tree.out_edges(0, data=True):
            lines.append(f"{info['label']} {belief_note(tree.nodes[child])}")
            _white(tree, child, 1, lines, key=True)
    else:
        _white(tree, 0, 0, lines, key=True)
    return "\n".join(lines)


def _white(tree: nx.DiGraph, node: int, depth: int, lines: list[str], key: bool = False) -> None:
    for _, attempt, edge in tree.out_edges(node, data=True):
        number = tree.nodes[node]["number"]
        lines.append(f"{INDENT * depth}{number}.{edge['label']}{'!' if key else ''}")
        for _, child, answer in tree.out_edges(attempt, data=True):
            kind = tree.nodes[child]["kind"]
            if kind == "win":
                lines.append(f"{INDENT * (depth + 1)}{answer['label']} #")
                continue
            lines.append(f"{INDENT * (depth + 1)}{answer['label']} {belief_note(tree.nodes[child])}")
            if kind == "white":
                _white(tree, child, depth + 2, lines)
            else:
                _black(tree, child, depth + 2, lines)


def _black(tree: nx.DiGraph, node: int, depth: int, lines: list[str]) -> None:
    number = tree.nodes[node]["number"]
    for _, child, reply in tree.out_edges(node, data=True):
        lines.append(f"{INDENT * depth}{number}... {reply['label']} {belief_note(tree.nodes[child])}")
        _white(tree, child, depth + 1, lines)


def move_text(entry: Any, mark: str) -> str:
    """``1.Ra2-g2!`` from a verification entry: a dict with ``label`` (or
    ``move``), or already text."""
    if not isinstance(entry, dict):
        return str(entry)
    label = str(entry.get("label") or entry.get("move") or "?")
    return (label if label[:1].isdigit() else f"1.{label}") + mark


def entry_text(entry: Any) -> str:
    """A dual (or another verification entry) as one line.

    >>> entry_text({"move_number": 3, "moves_left": 6, "played": "h8h5", "also": ["h8h4"],
    ...             "line": "Ra2-g2 Silent Silent Rg2-g8 Silent Silent"})
    '3.h8h5 (also h8h4), within 6, after Ra2-g2 Silent Silent Rg2-g8 Silent Silent'
    >>> entry_text({"move": 2, "attempts": ["Qd6", "Qe7"]})
    'move: 2; attempts: Qd6 Qe7'
    """
    if isinstance(entry, dict) and "played" in entry:
        also = entry.get("also") or []
        text = f"{entry.get('move_number', '?')}.{entry['played']}"
        text += f" (also {' '.join(map(str, also)) if isinstance(also, list) else also})" if also else ""
        text += f", within {entry['moves_left']}" if entry.get("moves_left") else ""
        return text + (f", after {entry['line']}" if entry.get("line") else "")
    if isinstance(entry, dict):
        return "; ".join(f"{key}: {' '.join(map(str, value)) if isinstance(value, list) else value}"
                         for key, value in entry.items())
    return str(entry)


SEARCH_FIELDS = ("moves", "belief_size", "nodes", "seconds", "reason")
"""Verification fields describing the search, shown on one line."""


def search_line(verification: dict) -> str:
    """``moves 8 · belief size 30 · nodes 1234 · seconds 50.2`` (fields present only).

    >>> search_line({"moves": 8, "nodes": 10, "verdict": "sound"})
    'moves 8 · nodes 10'
    """
    return " · ".join(f"{name.replace('_', ' ')} {verification[name]}" for name in SEARCH_FIELDS
                      if verification.get(name) not in (None, ""))


def render_verification_text(verification: dict) -> str:
    """A verification as text: the verdict (its one-line summary when given),
    the keys with "!", short solutions, the tries with "?" and "but" their
    refutation, the duals and whether the published key agrees.  Fields that
    are absent are left out.

    >>> print(render_verification_text({
    ...     "verdict": "sound", "keys": [{"move": "a2g2", "label": "Ra2-g2", "moves": 8}],
    ...     "tries": [{"move": "d3f2", "label": "Nd3-f2", "refutation": "Bxf2 (stalemate)"}],
    ...     "tries_total": 20, "duals": [], "published_key": "a2g2", "published_key_matches": True}))
    Verdict: sound
    1.Ra2-g2! (mate in 8)
    1.Nd3-f2? but Bxf2 (stalemate)
    (1 of 20 tries shown)
    Duals: none
    Published key a2g2: matches
    """
    lines: list[str] = []
    if verification.get("verdict") or verification.get("line"):
        lines.append(f"Verdict: {verification.get('line') or verification['verdict']}")
    for key in verification.get("keys") or []:
        moves = key.get("moves") if isinstance(key, dict) else None
        lines.append(move_text(key, "!") + (f" (mate in {moves})" if moves else ""))
    short = verification.get("short") or []
    if short:
        lines.append("Short solutions: " + ", ".join(move_text(key, "") for key in short))
    tries = verification.get("tries") or []
    for attempt in tries:
        refutation = attempt.get("refutation") if isinstance(attempt, dict) else None
        lines.append(move_text(attempt, "?") + (f" but {refutation}" if refutation else ""))
    total = verification.get("tries_total")
    if isinstance(total, int) and total > len(tries):
        lines.append(f"({len(tries)} of {total} tries shown)")
    duals = verification.get("duals")
    if duals is not None:
        unchecked = not duals and verification.get("duals_checked") is False
        lines.append("Duals: " + ("not checked" if unchecked else "none" if not duals else str(len(duals))))
        lines.extend(f"{INDENT}{entry_text(dual)}" for dual in duals)
    if verification.get("published_key"):
        agrees = verification.get("published_key_matches")
        word = "" if agrees is None else ": matches" if agrees else ": does not match"
        lines.append(f"Published key {verification['published_key']}{word}")
    if search_line(verification):
        lines.append(f"Search: {search_line(verification)}")
    return "\n".join(lines)


def render_solution_text(problem, solution) -> str:
    """What ``ksolve solve`` prints: the header, the verdict and the strategy.

    >>> from ksolve.problem import load_problem_text
    >>> from ksolve.solver import solve
    >>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
    >>> print(render_solution_text(problem, solve(problem)))
    problem: #1, rules berkeley, belief 1 positions
    White forces mate in 1; key h1h8
    1.Rh1-h8!
      Checkmate #
    """
    goal = "mate" if problem.goal == "mate" else "king capture"
    lines = [f"{problem.name}: {problem.stipulation}, rules {solution.rules}, "
             f"belief {solution.belief_size} positions"]
    key = f"; key {solution.key or 'per first announcement'}{_published(problem, solution)}"
    if solution.status == "solved" and not solution.shortest:
        lines.append(f"White forces {goal} in at most {solution.moves} (a shorter {goal} was not looked for){key}")
    elif solution.status == "solved":
        stipulated = f" (the stipulation is {solution.max_moves})" if solution.moves < solution.max_moves else ""
        lines.append(f"White forces {goal} in {solution.moves}{stipulated}{key}")
    elif solution.status == "no solution":
        lines.append(f"No forced {goal} in {solution.max_moves} or fewer moves.")
    else:
        lines.append(f"Unknown: {solution.reason}")
    if solution.status == "solved" and solution.tree is not None:
        lines.append(render_text(solution.tree))
    return "\n".join(lines)


def _published(problem, solution) -> str:
    if not problem.published_key or not solution.key:
        return ""
    verdict = "agrees" if problem.published_key == solution.key else "differs"
    return f" (published key {problem.published_key}: {verdict})"


def render_verification_table(reports) -> str:
    """One line per ``(problem, Verification)``: what ``ksolve verify FOLDER`` prints."""
    lines = [f"{'problem':<28} {'stip':>4} {'rules':<12} {'verdict':<15} {'keys':<22} {'tries':>5} "
             f"{'duals':>5} {'published':<10} {'seconds':>8}"]
    for problem, report in reports:
        keys = ",".join(key.move for key in report.keys) or "-"
        published = ("-" if report.published_key is None else
                     "key" if report.published_key_matches else "not a key")
        duals = len(report.duals) if report.duals_checked else "-"
        lines.append(f"{problem.id:<28} {problem.stipulation:>4} {report.rules:<12} {report.verdict:<15} "
                     f"{keys:<22} {report.tries_total:>5} {duals:>5} {published:<10} {report.seconds:>8.1f}")
    return "\n".join(lines)


def hidden_squares_text(belief) -> str:
    """One line per black man type whose square White does not know: its possible squares.

    >>> from ksolve.belief import BeliefState
    >>> print(hidden_squares_text(BeliefState.from_hidden("8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1", ["b:a1,c1"])))
    black bishop: a1 c1
    """
    import chess

    return "\n".join(f"{chess.COLOR_NAMES[piece.color]} {chess.piece_name(piece.piece_type)}: "
                     + " ".join(chess.square_name(s) for s in chess.scan_forward(squares))
                     for piece, squares in belief.hidden_squares())
