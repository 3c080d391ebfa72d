"""Check a refutation certificate: White cannot win within the moves, whatever he does.

A refutation (``docs/certificate.md``, "Refutation certificates") is Black's
side of the game: one initial class (the hidden placement's turn
information), and at each White turn, for *every* choice White has there,
one answer of the referee (or Black's one reply after it) that keeps White
from winning in time.  The checker enumerates White's choices itself, from
the positions reaching the turn, and never reads them from the certificate:

- every attempt legal in at least one of those positions (after "Any?"
  answered yes, the pawn captures; under English also the pawn tries
  refused everywhere, which meet the obligation), and "Any?" where it may be
  asked; at the first turn only ``first`` when the certificate refutes one
  first choice (a try);
- per choice, the certificate's answer must be one the referee gives in some
  of the positions, not a win; what follows is the positions giving that
  answer: "No" keeps White's turn, a move ends it, and then one of Black's
  replies (every reply of every position grouped by what White hears) is
  followed;
- ``"lost"`` is where White is out of moves or the game has ended without a
  win (where every ``"lost"`` ends the game, White cannot win at any length:
  ``CheckResult.at_any_length``); ``keep`` narrows the positions to some of them (what White cannot win
  knowing more, he cannot win knowing less: Russell and Wolfe's monotonicity).

Modern Kriegspiel's probes are not enumerated (a turn may name any of some
10^9 sets of squares): its refutations are refused as malformed.

>>> problem = 'stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/8/1K6/8/8/8/7R w - - 0 1"\\n'
>>> import chess
>>> lost = {"attempts": [[m.uci(), {}, "lost"] for m in chess.Board("k7/8/8/1K6/8/8/8/7R w - - 0 1").legal_moves
...                      if m.uci() not in ("h1h8", "h1a1")] + [["h1h8", {"checks": ["rank"]}, "lost"],
...                                                               ["h1a1", {"checks": ["file"]}, "lost"]]}
>>> refutation = {"format": "ksolve-refutation", "version": 1, "rules": "berkeley", "goal": "mate", "moves": 1,
...               "initial": [{}, lost]}
>>> check_refutation_text(problem, refutation).format()
'verified: no mate in 1 under berkeley (1 initial position, 1 node, 22 lines).'
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import chess

from ksolve.checker import referee
from ksolve.checker.problem import parse_problem_file, read_problem_text
from ksolve.checker.replay import (CheckResult, Counterexample, Line, _Refuted, _Replay, same_problem,
                                   walk_from_initial)
from ksolve.checker.schema import LOST, MAX_DEPTH, REFUTATION_DAG_VERSION, CertificateError, validate_refutation


def check_refutation(problem_path: str | Path, certificate: dict[str, Any]) -> CheckResult:
    """Check the refutation ``certificate`` against the problem file at ``problem_path``
    (``CertificateError`` if malformed, ``ProblemFileError`` if the file is unreadable)."""
    validate_refutation(certificate)
    text = read_problem_text(problem_path)
    return _check(text, certificate, str(problem_path))


def check_refutation_text(problem_text: str, certificate: dict[str, Any], name: str = "<problem>") -> CheckResult:
    """``check_refutation`` with the problem given as TOML text."""
    validate_refutation(certificate)
    return _check(problem_text, certificate, name)


def claim_text(certificate: dict[str, Any], at_any_length: bool = False) -> str:
    """The claim in words: ``no mate in 7``, ``e2e4 first: no mate in 3``; with
    ``at_any_length`` (every line of the refutation ends the game before White's
    moves are spent) ``no mate at any length``."""
    goal = "king capture" if certificate["rules"] == "fog-of-war" else "mate"
    length = "at any length" if at_any_length else f"in {certificate['moves']}"
    first = certificate.get("first")
    if first is None:
        return f"no {goal} {length}"
    shown = "Any?" if first == "any" else first
    return f"{shown} first: no {goal} {length}"


def _check(text: str, certificate: dict[str, Any], name: str) -> CheckResult:
    twin = certificate.get("twin", "")
    if not isinstance(twin, str):
        raise CertificateError(f"twin: must be a twin's name, got {twin!r}")
    problem = parse_problem_file(name, text, certificate["rules"], twin)
    rules, moves = certificate["rules"], certificate["moves"]
    result = CheckResult(False, len(problem.boards), rules, moves, certificate.get("positions"),
                         claim=claim_text(certificate))
    note = same_problem(certificate, problem, text, name)
    if note:
        result.notes.append(note)
    walk = _Walk(rules, moves, problem.forbidden, certificate.get("first"), certificate.get("nodes")
                 if certificate["version"] == REFUTATION_DAG_VERSION else None)
    walk_from_initial(walk, certificate["initial"], problem.boards, result, 3 * MAX_DEPTH)
    if result.counterexample is None:
        if rules != problem.file_rules:
            result.reason = f"the refutation holds under {rules}, but the problem's rule set is {problem.file_rules}"
        else:
            result.verified = True
            if walk.spent == 0:
                result.at_any_length = True
                result.claim = claim_text(certificate, at_any_length=True)
    return result


class _Walk(_Replay):
    """Black's side played against every choice of White (raises ``_Refuted`` where the
    certificate leaves White a choice unanswered or answers it wrongly)."""

    def __init__(self, rules: str, moves: int, forbidden: list | None, first: str | None,
                 dag: list | None = None) -> None:
        super().__init__(rules, moves, forbidden, dag=dag)
        self.first = first
        """The one first choice refuted (None: every choice)."""
        self.spent = 0
        """``"lost"`` leaves where the game goes on but White's moves are spent (none: every
        line ends the game, so the refutation holds at any length)."""

    def initial(self, chosen: list, boards: list[chess.Board]) -> None:
        text = referee.canonical(chosen[0])
        lines = {}
        for board in boards:
            if referee.canonical(referee.turn_info(board, self.rules)) == text:
                lines[self.key(board, 0)] = Line(board, board.fen())
        if not lines:
            raise _no_initial(boards, f"no initial position has the turn information {text}")
        self.white(chosen[1], lines, 0, asked=False, obliged=False, first=self.first)

    def kept(self, node: dict, lines: dict) -> dict:
        """``lines`` narrowed to the node's ``keep`` (each listed position must be among them)."""
        if "keep" not in node:
            return lines
        wanted = set(node["keep"])
        kept = {key: line for key, line in lines.items() if key[0] in wanted}
        missing = wanted - {key[0] for key in kept}
        if missing:
            self.refute(next(iter(lines.values())), f"keep names {sorted(missing)[0]}, which does not reach here")
        return kept

    def white(self, node: dict, lines: dict, played: int, asked: bool, obliged: bool,  # type: ignore[override]
              first: str | None = None) -> None:
        """White to move in every line: each of his choices must be answered."""
        node = self.node(node)
        if not self.first_visit(node, lines, played, asked, obliged, first):
            return
        lines = self.kept(node, lines)
        self.nodes += 1
        listed = {entry[0]: entry for entry in node.get("attempts", [])}
        choices = self.choices(lines, obliged) if first is None else ([] if first == "any" else [first])
        for uci in choices:
            if uci not in listed:
                self.refute(next(iter(lines.values())), f"White may attempt {uci} here and the refutation "
                                                        "does not answer it")
            self.attempt(listed.pop(uci), lines, played, asked, obliged)
        if listed:
            self.refute(next(iter(lines.values())), f"the refutation answers {next(iter(listed))}, which is not "
                                                    "a choice of White's here")
        may_ask = referee.may_ask(self.rules, asked) and first in (None, "any")
        if may_ask != ("any" in node):
            self.refute(next(iter(lines.values())), "White may ask \"Any?\" here and the refutation does not "
                        "answer it" if may_ask else "the refutation answers \"Any?\", which White may not ask here")
        if may_ask:
            self.any(node["any"], lines, played)

    def choices(self, lines: dict, obliged: bool) -> list[str]:
        """White's attempts worth answering: legal in some line (after "Yes"/"Try", pawn
        captures; under English also a pawn try refused everywhere, which changes the turn)."""
        found: set[str] = set()
        for line in lines.values():
            for move in referee.moves(line.board, self.rules):
                if not obliged or referee.is_pawn_capture_attempt(line.board, move):
                    found.add(move.uci())
        if obliged and not referee.obliged_after_refusal(self.rules, obliged):
            found.update(_pawn_tries(next(iter(lines.values())).board))
        return sorted(found)

    def attempt(self, entry: list, lines: dict, played: int, asked: bool, obliged: bool) -> None:
        uci, answer, child = entry
        move = chess.Move.from_uci(uci)
        first = next(iter(lines.values()))
        if child == LOST:
            self.lost_after(move, answer, lines, played)
            return
        refused: dict = {}
        classes: dict[str, tuple[dict, dict]] = {}
        for line in lines.values():
            board = line.board
            if not referee.is_legal(board, move, self.rules):
                refused[self.key(board, played)] = line.then(board, "white", uci, "No")
                continue
            heard, after = referee.play(board, move, self.rules)
            text = referee.canonical(heard)
            classes.setdefault(text, (heard, {}))[1][self.key(after, played + 1)] = line.then(after, "white", uci,
                                                                                             text)
        if answer == "No":
            if not refused:
                self.refute(first, f"the refutation answers {uci} with \"No\", which it is nowhere here")
            self.white(child, refused, played, asked, referee.obliged_after_refusal(self.rules, obliged))
            return
        text = referee.canonical(answer)
        if text not in classes:
            self.refute(first, f"the refutation answers {uci} with {text}, which the referee gives nowhere here")
        heard, followers = classes[text]
        witness = next(iter(followers.values()))
        if referee.reached_goal(heard, self.rules):
            self.refute(witness, f"{uci} answered {text} wins: the refutation chose a won answer")
        if "end" in heard or played + 1 >= self.moves:
            self.refute(witness, "White has lost here (the game ended or his moves are spent), and the refutation "
                                 "goes on instead of \"lost\"")
        self.black(child, followers, played + 1)

    def lost_after(self, move: chess.Move, answer: dict, lines: dict, played: int) -> None:
        """White's ``move`` answered ``answer`` loses: the game ends without his win, or it
        was his last move.  One position giving that answer is witness enough."""
        text = referee.canonical(answer)
        for line in lines.values():
            if not referee.is_legal(line.board, move, self.rules):
                continue
            heard, after = referee.play(line.board, move, self.rules)
            if referee.canonical(heard) != text:
                continue
            witness = line.then(after, "white", move.uci(), text)
            if referee.reached_goal(heard, self.rules):
                self.refute(witness, f"{move.uci()} answered {text} wins: the refutation chose a won answer")
            if "end" not in heard:
                if played + 1 < self.moves:
                    self.refute(witness, f"the refutation says \"lost\" after White's move {played + 1} of "
                                         f"{self.moves}")
                self.spent += 1
            self.lines += 1
            return
        self.refute(next(iter(lines.values())), f"the refutation answers {move.uci()} with {text}, which the "
                                                "referee gives nowhere here")

    def any(self, entry: list, lines: dict, played: int) -> None:
        branch, child = entry
        word = "Try" if self.rules == "berkeley-any" else "Yes"
        members = {key: line.then(line.board, "white", "any", word if referee.any_answer(line.board) else "No")
                   for key, line in lines.items() if referee.any_answer(line.board) == (branch == "yes")}
        if not members:
            self.refute(next(iter(lines.values())), f"the refutation answers \"Any?\" {branch}, which it is "
                                                    "nowhere here")
        self.white(child, members, played, asked=True, obliged=branch == "yes")

    def black(self, node: dict, lines: dict, played: int) -> None:  # type: ignore[override]
        """Black to move: the one reply class the certificate names, among those there are
        (where it ends the game, one position giving it is witness enough)."""
        node = self.node(node)
        if not self.first_visit(node, lines, played):
            return
        lines = self.kept(node, lines)
        self.nodes += 1
        seen, child = node["reply"]
        wanted = referee.canonical(seen)
        members: dict = {}
        heard: dict | None = None
        for line in lines.values():
            board = line.board
            for move in self.replies(board, played):
                observed, after = referee.play(board, move, self.rules)
                if referee.canonical(observed) != wanted:
                    continue
                heard = observed
                follower = line.then(after, "black", move.uci(), wanted)
                if child == LOST:
                    if "end" not in heard:
                        self.refute(follower, "the refutation says \"lost\" where the game goes on")
                    self.lines += 1
                    return
                members[self.key(after, played)] = follower
        if heard is None:
            self.refute(next(iter(lines.values())), f"no Black reply here gives {wanted}")
        if "end" in heard:
            self.refute(next(iter(members.values())), "Black's reply ends the game, and the refutation goes on "
                                                      "instead of \"lost\"")
        self.white(child, members, played, asked=False, obliged=False)


def _pawn_tries(board: chess.Board) -> list[str]:
    """Every pawn-capture attempt of the side to move, legal or not (onto the last rank,
    one per promotion piece: each is a choice of White's)."""
    tries = []
    us = board.turn
    for square in chess.scan_forward(board.pawns & board.occupied_co[us]):
        for target in chess.scan_forward(chess.BB_PAWN_ATTACKS[us][square] & ~board.occupied_co[us]):
            last = chess.square_rank(target) in (0, 7)
            for piece in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT) if last else (None,):
                tries.append(chess.Move(square, target, piece).uci())
    return tries


def _no_initial(boards: list[chess.Board], reason: str) -> _Refuted:
    """The failure of a refutation whose initial class no position has."""
    return _Refuted(Counterexample(boards[0].fen() if boards else "", [], reason))
