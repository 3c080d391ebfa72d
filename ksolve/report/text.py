"""Solutions and verifications as text, in problemists' conventions.

A solution reads as magazines print it: the key with "!", White's moves in
SAN with ``x``, ``+`` and ``#``, the main line first and every other answer
of the referee as a variation under it (``ksolve.report.lines``); with
``full`` the whole tree, every answer and Black reply class with the number
of positions White cannot tell apart there.

>>> from ksolve.belief import BeliefState
>>> from ksolve.rules import get_rules
>>> from ksolve.search.prover import Prover
>>> from ksolve.solution import strategy_tree
>>> prover = Prover(get_rules("berkeley"))
>>> belief = BeliefState.from_hidden("k7/8/1K6/8/8/8/8/7R w - - 0 1", [])
>>> _ = prover.wins(belief, 1)
>>> print(render_text(strategy_tree(prover, belief, 1)))
1.Rh8#! (Checkmate)

A verification (keys, tries and their refutations, duals) reads as
composers write it, see ``render_verification_text``.
"""

from __future__ import annotations

from typing import Any

import networkx as nx

from ksolve.report.lines import INDENT, TreeReader, hidden_note

LEGEND = ("[n]: the positions White cannot tell apart there (with the hidden units' squares when few); "
          "Black's moves are named when White can tell them.")
COMPACT_LEGEND = ("Black's silent moves are not written; \"No\": the referee refused the attempt, "
                  "with the hidden units' squares then; --full shows every answer.")


def belief_note(data: dict) -> str:
    """``[27]`` or ``[3: B b2/d2/f2]`` for a node's belief."""
    return f"[{data['size']}{hidden_note(data).replace(' (', ': ', 1).rstrip(')')}]"


def render_text(tree: nx.DiGraph) -> str:
    """The whole tree as indented lines (``--full``)."""
    lines: list[str] = []
    if tree.nodes[0]["kind"] == "start":  # several first announcements: one strategy each
        for _, child, info in tree.out_edges(0, data=True):
            lines.append(f"{info['label']} {belief_note(tree.nodes[child])}")
            _white(tree, child, 1, lines, key=True)
    else:
        _white(tree, 0, 0, lines, key=True)
    return "\n".join(lines)


def render_lines(tree: nx.DiGraph) -> str:
    """The main line and its variations (the default text)."""
    return TreeReader(tree).main_line().text()


def _white(tree: nx.DiGraph, node: int, depth: int, lines: list[str], key: bool = False) -> None:
    for _, attempt, edge in tree.out_edges(node, data=True):
        number = tree.nodes[node]["number"]
        answers = list(tree.out_edges(attempt, data=True))
        if len(answers) == 1 and tree.nodes[answers[0][1]]["kind"] == "win":  # mate wherever it is played
            answer = answers[0][2]
            lines.append(f"{INDENT * depth}{number}.{answer['san']}{'!' if key else ''} ({answer['label']})")
            continue
        lines.append(f"{INDENT * depth}{number}.{edge['label']}{'!' if key else ''}")
        for _, child, answer in answers:
            kind = tree.nodes[child]["kind"]
            if kind == "win":
                lines.append(f"{INDENT * (depth + 1)}{number}.{answer['san']} ({answer['label']})")
                continue
            lines.append(f"{INDENT * (depth + 1)}{answer['label']} {belief_note(tree.nodes[child])}")
            if kind == "white":
                _white(tree, child, depth + 2, lines)
            else:
                _black(tree, child, depth + 2, lines)


def _black(tree: nx.DiGraph, node: int, depth: int, lines: list[str]) -> None:
    number = tree.nodes[node]["number"]
    for _, child, reply in tree.out_edges(node, data=True):
        named = f" {reply['san']} ({reply['label']})" if reply.get("san") else f" {reply['label']}"
        lines.append(f"{INDENT * depth}{number}...{named} {belief_note(tree.nodes[child])}")
        _white(tree, child, depth + 1, lines)


def move_text(entry: Any, mark: str) -> str:
    """``1.Rg2!`` from a verification entry: a dict with ``san`` (or
    ``label``, or ``move``), or already text."""
    if not isinstance(entry, dict):
        return str(entry)
    label = str(entry.get("san") or entry.get("label") or entry.get("move") or "?")
    return (label if label[:1].isdigit() else f"1.{label}") + mark


def dual_text(dual: dict, goal: str = "mate") -> str:
    """A dual as composers note it: where, the solution's move and the others.

    >>> dual_text({"move_number": 5, "played": "Rb5", "also": ["Rc5", "Rd5"], "moves_left": 4,
    ...            "after": "1.Rg2 2.Rg8 3.Rh8 4.Rh5", "main_line": True})
    '1.Rg2 2.Rg8 3.Rh8 4.Rh5: 5.Rb5 (also 5.Rc5, 5.Rd5; mate in 4)'
    """
    number = dual.get("move_number", "?")
    also = ", ".join(f"{number}.{move}" for move in dual.get("also") or [])
    speed = f"; {goal_words(goal)} in {dual['moves_left']}" if dual.get("moves_left") else ""
    after = f"{dual['after']}: " if dual.get("after") else ""
    return f"{after}{number}.{dual.get('played', '?')} (also {also}{speed})"


def goal_words(goal: str | None) -> str:
    """How a win is named: ``mate``, or ``capture`` (of the king, in Fog of War).

    >>> goal_words("king-capture")
    'capture'
    """
    return "capture" if goal == "king-capture" else "mate"


def try_lines(tries: list[dict]) -> list[str]:
    """The tries as composers list them, closest first: ``1.Nf2+? Bxf2! (no
    mate in 7)``, one line each; tries refused everywhere or ending the game
    at once are grouped on one line per kind.

    >>> try_lines([{"san": "Nf2+", "refutation": "Bxf2! (no mate in 7)", "refuted_by": {"kind": "no win"}},
    ...            {"san": "Rxa1", "refutation": "", "refuted_by": {"kind": "ends", "answer": "Capture at a1, stalemate"}},
    ...            {"san": "Bxb2", "refutation": "", "refuted_by": {"kind": "ends", "answer": "Capture at b2, stalemate"}}])
    ['1.Nf2+? Bxf2! (no mate in 7)', '2 tries end the game at once (stalemate): 1.Rxa1 1.Bxb2']
    """
    lines: list[str] = []
    groups: dict[str, list[str]] = {}
    for attempt in tries:
        refuted = attempt.get("refuted_by") or {}
        kind = refuted.get("kind")
        if kind == "ends":
            end = str(refuted.get("answer", "")).split(", ")[-1].lower()
            groups.setdefault(f"end the game at once ({end})", []).append(move_text(attempt, ""))
        elif kind == "refused":
            groups.setdefault("are refused in every position", []).append(move_text(attempt, ""))
        else:
            refutation = attempt.get("refutation")
            lines.append(move_text(attempt, "?") + (f" {refutation}" if refutation else ""))
    for words, moves in groups.items():
        if len(moves) == 1:
            lines.append(f"{moves[0]}? {words.replace('end the game', 'ends the game').replace('are refused', 'is refused')}")
        else:
            lines.append(f"{len(moves)} tries {words}: {' '.join(moves)}")
    return lines


def render_verification_text(verification: dict) -> str:
    """A verification as text: the verdict, the keys with "!", short
    solutions, the tries with "?" and their refutation with "!", the duals.
    Fields that are absent are left out.

    >>> print(render_verification_text({
    ...     "verdict": "sound", "line": "sound: key 1.Rg2! (#8), the published key",
    ...     "keys": [{"move": "a2g2", "san": "Rg2", "moves": 8}],
    ...     "tries": [{"move": "d3f2", "san": "Nf2+", "refutation": "Bxf2! (no mate in 7)",
    ...                "refuted_by": {"kind": "no win"}}],
    ...     "tries_total": 20, "duals": [], "duals_checked": True}))
    Verdict: sound: key 1.Rg2! (#8), the published key
    Tries, the closest first:
      1.Nf2+? Bxf2! (no mate in 7)
      (1 of 20 tries shown)
    Duals: none
    """
    lines: list[str] = []
    win = goal_words(verification.get("goal"))
    if verification.get("line"):
        lines.append(f"Verdict: {verification['line']}")
    elif verification.get("verdict"):  # no one-line verdict: the keys on their own lines
        lines.append(f"Verdict: {verification['verdict']}")
        lines.extend(move_text(key, "!") + (f" ({win} in {key['moves']})" if isinstance(key, dict) and key.get("moves")
                                            else "") for key in verification.get("keys") or [])
    short = verification.get("short") or []
    if short:
        lines.append("Short solutions: " + ", ".join(
            f"{move_text(key, '!')} ({win} in {key.get('moves')})" for key in short))
    tries = verification.get("tries") or []
    if tries:
        lines.append("Tries, the closest first:")
        lines.extend(INDENT + line for line in try_lines(tries))
    total = verification.get("tries_total")
    if isinstance(total, int) and total > len(tries):
        lines.append(f"{INDENT}({len(tries)} of {total} tries shown)")
    duals = verification.get("duals")
    if duals is not None and verification.get("verdict") != "unknown":
        unchecked = not duals and not verification.get("duals_checked")
        main = [dual for dual in duals if dual.get("main_line")]
        lines.append("Duals: " + ("not checked" if unchecked else "none" if not duals else
                                  f"{len(main)} in the main line, {len(duals) - len(main)} minor"))
        lines.extend(f"{INDENT}{'main line' if dual.get('main_line') else 'minor'}: {dual_text(dual, verification.get('goal') or 'mate')}"
                     for dual in duals)
    return "\n".join(lines)


def search_line(result: Any) -> str:
    """``89,616 nodes, 24.4 s`` from a solution or verification (or its dict).

    >>> search_line({"nodes": 89616, "seconds": 24.41})
    '89,616 nodes, 24.4 s'
    """
    get = result.get if isinstance(result, dict) else lambda name: getattr(result, name, None)
    return f"{get('nodes') or 0:,} nodes, {get('seconds') or 0:.1f} s"


def render_solution_text(problem, solution, full: bool = False) -> str:
    """What ``ksolve solve`` prints: the problem, the verdict, the solution
    (the main line with its variations; ``full``: the whole tree).

    >>> from ksolve.problem import load_problem_text
    >>> from ksolve.solver import solve
    >>> problem = load_problem_text('stipulation = "#2"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
    >>> print(render_solution_text(problem, solve(problem)))
    problem: #2, rules berkeley, 1 position
    White mates in 1 (the stipulation is 2). Key 1.Rh8#!
    <BLANKLINE>
    1.Rh8#!
    """
    goal = "mates" if problem.goal == "mate" else "captures the king"
    size = solution.belief_size
    lines = [f"{problem.name}: {problem.stipulation}, rules {solution.rules}, "
             f"{size:,} position{'s' if size != 1 else ''}"]
    lines += stated_lines(problem)
    lines += fog_view_lines(problem)
    key = _key_text(problem, solution)
    if solution.status == "solved" and not solution.shortest:
        lines.append(f"White {goal} in at most {solution.moves} (a shorter solution was not looked for).{key}")
    elif solution.status == "solved":
        stipulated = f" (the stipulation is {solution.max_moves})" if solution.moves < solution.max_moves else ""
        lines.append(f"White {goal} in {solution.moves}{stipulated}.{key}")
    elif solution.status == "no solution":
        lines.append(f"No solution: White cannot force {'mate' if problem.goal == 'mate' else 'the king capture'} "
                     f"in {solution.max_moves} or fewer moves.")
    else:
        lines.append(f"Not decided: {solution.reason}")
    if solution.status == "solved" and solution.tree is None and solution.reason:
        lines.append(f"The strategy is not shown: {solution.reason}.")
    if solution.status == "solved" and solution.tree is not None:
        lines.append("")
        if full:
            lines += [render_text(solution.tree), "", LEGEND]
        else:
            text = render_lines(solution.tree)
            lines.append(text)
            if "\n" in text:
                lines += ["", COMPACT_LEGEND]
    return "\n".join(lines)


def stated_lines(problem) -> list[str]:
    """What the problem states beyond the position: its variant, the twin and
    what it changes, each condition on Black's play (with its note), and the
    placements of the hidden units left out because no game reaches them.

    >>> from ksolve.problem import load_problem_text
    >>> problem = load_problem_text('stipulation = "#2"\\nrules = "berkeley"\\n[[condition]]\\nmove = "a8b8"\\nat = 1\\n'
    ...                             '[position]\\nfen = "k7/8/2K5/8/8/8/8/1R6 w - - 0 1"\\n')
    >>> stated_lines(problem)
    ['Condition: Black will not play a8b8 at his move 1']
    """
    lines = []
    variant = getattr(problem, "variant", None)
    if variant is not None:
        lines.append(f"Variant: {variant.describe()}")
    if getattr(problem, "twin", ""):
        lines.append(f"Twin {problem.twin}" + (f": {problem.twin_note}" if problem.twin_note else ""))
    for condition in getattr(problem, "conditions", []):
        lines.append(f"Condition: {condition.text()}" + (f" ({condition.note})" if condition.note else ""))
    left_out = getattr(problem, "left_out", None)
    if left_out is not None and left_out.total:
        lines.append(f"Left out: {left_out.describe()}")
    return lines


def fog_view_lines(problem) -> list[str]:
    """White's view as Fog-of-War problems print the diagram: his men and the
    black men he sees, ``.`` a square he sees empty, ``?`` the fog; nothing
    under a referee that shows no squares.

    >>> from ksolve.problem import load_problem_text
    >>> print("\\n".join(fog_view_lines(load_problem_text(
    ...     'stipulation = "xk1"\\nrules = "fog-of-war"\\n[position]\\nfen = "k7/8/8/8/8/8/8/RK6 w - - 0 1"\\n'))))
    White's view (? the fog, 52 squares he does not see):
      8 k ? ? ? ? ? ? ?
      7 . ? ? ? ? ? ? ?
      6 . ? ? ? ? ? ? ?
      5 . ? ? ? ? ? ? ?
      4 . ? ? ? ? ? ? ?
      3 . ? ? ? ? ? ? ?
      2 . . . ? ? ? ? ?
      1 R K . ? ? ? ? ?
        a b c d e f g h
    """
    import chess

    from ksolve.report.position import initial_fog, visible_board

    fog = initial_fog(problem)
    if not fog:
        return []
    board = visible_board(problem)
    lines = [f"White's view (? the fog, {bin(fog).count('1')} squares he does not see):"]
    for rank in range(7, -1, -1):
        row = []
        for file in range(8):
            square = chess.square(file, rank)
            piece = board.piece_at(square)
            row.append("?" if fog >> square & 1 else piece.symbol() if piece else ".")
        lines.append(f"  {rank + 1} " + " ".join(row))
    lines.append("    a b c d e f g h")
    return lines


def _key_text(problem, solution) -> str:
    if solution.status != "solved":
        return ""
    if not solution.key:
        return " One strategy per first announcement."
    if solution.tree is None:  # not read back (a limit reached after the proof): the key as the search wrote it
        first = solution.key
    else:
        first = TreeReader(solution.tree).main_line().moves[0] if solution.tree.nodes[0]["kind"] != "start" else None
    text = f" Key {first}" if first else ""
    if problem.published_key:
        text += " (the published key)" if problem.published_key == solution.key else \
            f" (the published key {problem.published_key} differs)"
    return text


def render_verification_table(reports) -> str:
    """One line per ``(problem, Verification)``: what ``ksolve verify FOLDER`` prints."""
    lines = [f"{'problem':<28} {'stip':>4} {'rules':<12} {'verdict':<15} {'keys':<22} {'tries':>5} "
             f"{'duals':>5} {'published':<10} {'seconds':>8}"]
    for problem, report in reports:
        keys = ",".join(key.label for key in report.keys) or "-"
        published = ("-" if report.published_key is None else "not decided" if report.verdict == "unknown" else
                     "key" if report.published_key_matches else "not a key")
        duals = len(report.duals) if report.duals_checked else "-"
        verdict = "not decided" if report.verdict == "unknown" else report.verdict
        lines.append(f"{problem.id:<28} {problem.stipulation:>4} {report.rules:<12} {verdict:<15} "
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
