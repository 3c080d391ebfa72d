"""Replay a certificate against every initial position and every Black reply.

The checker carries the *set* of concrete positions that reach each node of
the strategy tree (python-chess boards, one per distinct position: EPD plus
the half-move clock when it could still reach the draw limit) and checks at
each node what ``docs/certificate.md`` claims:

- initial positions: each falls in a listed ``initial`` class (its turn
  information);
- White node, ``attempt``: where the move is illegal the ``no`` branch exists
  and is followed (same move number); where it is legal the observation is
  listed in ``answers``; ``"win"`` only where the move mates (captures the
  king), no other game end, and no Black node after White's ``moves``-th move;
- White node, ``ask``: allowed once per turn, under ``berkeley-any`` and
  ``english`` only; after "yes" the next attempt is a pawn capture
  (Berkeley+Any: every attempt until one is legal);
- White node, ``probe`` (``modern``): at most the problem's ``probes``
  squares, once per turn and before its first attempt; every position's
  contents of those squares listed in ``answers``; the moves are answered as
  under Berkeley;
- Black node: every Black move in every position is listed by its
  observation, and none ends the game.

The first failure found gives a counterexample: the initial position, every
attempt (refused ones included), every Black reply and what White heard.

>>> problem = 'stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n'
>>> result = check_strategy_text(problem, {
...     "format": "ksolve-certificate", "version": 1, "rules": "berkeley", "goal": "mate", "moves": 1,
...     "positions": 1, "initial": [[{}, {"attempt": "h1h8", "answers": [[{"end": "checkmate"}, "win"]]}]]})
>>> result.format()
'verified: mate in 1 under berkeley from all 1 initial positions (1 node, 1 line).'
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chess

from ksolve.checker import referee
from ksolve.checker.problem import (
    CheckProblem, decode_utf8, parse_problem_file, problem_digest, read_problem_text,
)
from ksolve.checker.schema import DAG_VERSION, CertificateError, validate

History = tuple | None
"""A line's steps as a linked list ``(previous, (side, move or "Any?", heard))``."""


@dataclass
class Line:
    """One concrete position reaching a node, with how it got there."""

    board: chess.Board
    start: str
    """The FEN of the initial position."""
    history: History = None

    def then(self, board: chess.Board, side: str, move: str, heard: str) -> "Line":
        return Line(board, self.start, (self.history, (side, move, heard)))


@dataclass
class Counterexample:
    """A line of play the certificate does not win."""

    fen: str
    """The initial position."""
    moves: list[dict[str, str]]
    """``{"side", "uci", "san", "heard"}`` per step: White's attempts (refused
    ones heard as "No"), "Any?" (``uci`` "any"), Black's replies."""
    reason: str

    def format(self) -> str:
        """One paragraph: the position, the steps with what White heard, the reason."""
        steps, number = [], 1
        for step in self.moves:
            if step["side"] == "white":
                what = "Any?" if step["uci"] == "any" else f"{step['san']} ({step['uci']})"
                steps.append(f"{number}.{what} {step['heard']}")
                if step["heard"] not in ("No", "Yes", "Try") and step["uci"] != "any":
                    number += 1
            else:
                steps.append(f"{number - 1}...{step['san']} ({step['uci']}) {step['heard']}")
        return f"from {self.fen}: {'; '.join(steps) or 'before any move'}: {self.reason}"


@dataclass
class CheckResult:
    """The checker's verdict."""

    verified: bool
    positions: int
    """Initial positions the checker enumerated from the problem file."""
    rules: str
    moves: int
    claimed_positions: int | None = None
    """The certificate's ``positions`` (the solver's initial belief size)."""
    nodes: int = 0
    """Strategy-tree nodes replayed (reached by at least one position)."""
    lines: int = 0
    """Positions that reached a "win" (with multiplicity over the tree's leaves)."""
    reason: str = ""
    counterexample: Counterexample | None = None
    notes: list[str] = field(default_factory=list)
    claim: str = ""
    """A refutation's claim in words (``no mate in 7``); "" for a strategy's certificate."""
    at_any_length: bool = False
    """A refutation every line of which ends the game (a draw, a capture of White's last
    man) before White's moves are spent: White cannot win at any length."""

    def format(self) -> str:
        """``verified: ...`` or ``counterexample: ...`` (or ``not verified: ...``), one paragraph."""
        notes = "".join(f" Note: {note}." for note in self.notes)
        counts = f"{self.nodes} node{'' if self.nodes == 1 else 's'}, {self.lines} line{'' if self.lines == 1 else 's'}"
        if self.verified and self.claim:
            initial = f"{self.positions} initial position{'' if self.positions == 1 else 's'}"
            return f"verified: {self.claim} under {self.rules} ({initial}, {counts}).{notes}"
        if self.verified:
            goal = "king capture" if self.rules == "fog-of-war" else "mate"
            return (f"verified: {goal} in {self.moves} under {self.rules} from all {self.positions} initial "
                    f"positions ({counts}).{notes}")
        if self.counterexample is not None:
            return f"counterexample: {self.counterexample.format()}.{notes}"
        return f"not verified: {self.reason}.{notes}"


class _Refuted(Exception):
    def __init__(self, counterexample: Counterexample) -> None:
        super().__init__(counterexample.reason)
        self.counterexample = counterexample


class WrongProblem(CertificateError):
    """A certificate written for another problem than the one it is checked against."""


def read_certificate(path: str | Path) -> dict[str, Any]:
    """The JSON object of a certificate file, validated (``CertificateError``
    whose message starts with the file's path otherwise)."""
    try:
        certificate = json.loads(decode_utf8(Path(path).read_bytes()))
    except OSError as error:
        raise CertificateError(f"{path}: {error.strerror or error}") from None
    except json.JSONDecodeError as error:
        raise CertificateError(f"{path}: not JSON: {error}") from None
    except RecursionError:
        raise CertificateError(f"{path}: JSON nested too deeply") from None
    except ValueError as error:  # not UTF-8 text
        raise CertificateError(f"{path}: {error}") from None
    try:
        validate(certificate)
    except CertificateError as error:
        raise CertificateError(f"{path}: {error}") from None
    return certificate


def check_strategy(problem_path: str | Path, certificate: dict[str, Any]) -> CheckResult:
    """Replay a strategy's ``certificate`` against the problem file at ``problem_path``.

    Raises ``CertificateError`` for a malformed certificate (``WrongProblem``
    for one written for another problem) and ``ProblemFileError`` for an
    unreadable problem file (all ``ValueError``).
    """
    validate(certificate)
    text = read_problem_text(problem_path)
    return _check(parse_problem_file(problem_path, text, certificate["rules"], _twin(certificate)), certificate, text,
                  str(problem_path))


def _twin(certificate: dict[str, Any]) -> str:
    """The twin a certificate is for ("" for the problem as printed)."""
    twin = certificate.get("twin", "")
    if not isinstance(twin, str):
        raise CertificateError(f"twin: must be a twin's name, got {twin!r}")
    return twin


def check_strategy_text(problem_text: str, certificate: dict[str, Any], name: str = "<problem>") -> CheckResult:
    """``check_strategy`` with the problem given as TOML text (``name``: its file, for messages)."""
    validate(certificate)
    return _check(parse_problem_file(name, problem_text, certificate["rules"], _twin(certificate)), certificate,
                  problem_text, name)


def same_problem(certificate: dict[str, Any], problem: CheckProblem, text: str, name: str) -> str | None:
    """None if ``certificate`` may be checked against this problem, else a note.

    ``WrongProblem`` when the certificate records another problem: the text's
    digest differs and so does the problem's id (the ``id`` field, or the file
    name's stem).  The same id with another digest is the same problem edited
    since: it is checked, with a note.  Old certificates without a digest are
    checked as they are.

    >>> problem = CheckProblem("berkeley", "mate", 1, id="foster-1996")
    >>> same_problem({"problem_id": "rotenberg-1976", "problem_sha256": "0"}, problem, "", "foster.toml")
    Traceback (most recent call last):
    ...
    ksolve.checker.replay.WrongProblem: this certificate is for rotenberg-1976, not foster.toml
    """
    recorded = certificate.get("problem_sha256")
    if not isinstance(recorded, str) or recorded == problem_digest(text):
        return None
    recorded_id = certificate.get("problem_id")
    if isinstance(recorded_id, str) and recorded_id != problem.id:
        raise WrongProblem(f"this certificate is for {recorded_id}, not {name}")
    return "the problem file has changed since the certificate was written"


def _check(problem: CheckProblem, certificate: dict[str, Any], text: str, name: str) -> CheckResult:
    note = same_problem(certificate, problem, text, name)
    rules, moves = certificate["rules"], certificate["moves"]
    result = CheckResult(False, len(problem.boards), rules, moves, certificate.get("positions"))
    if note:
        result.notes.append(note)
    if result.claimed_positions is not None and result.claimed_positions != result.positions:
        result.notes.append(f"the certificate says {result.claimed_positions} initial positions, "
                            f"the checker enumerates {result.positions}")
    replay = _Replay(rules, moves, problem.forbidden, problem.probes,  # probes: for the certificate's rules
                     certificate["nodes"] if certificate["version"] == DAG_VERSION else None)
    walk_from_initial(replay, certificate["initial"], problem.boards, result, 20_000)
    if result.counterexample is None:
        if rules != problem.file_rules:
            result.reason = f"the strategy holds under {rules}, but the problem's rule set is {problem.file_rules}"
        elif moves > problem.moves:
            result.reason = f"the strategy needs {moves} moves, but the problem stipulates {problem.moves}"
        else:
            result.verified = True
    return result


def walk_from_initial(walker: Any, initial: list, boards: list, result: CheckResult, depth: int) -> None:
    """``walker.initial(initial, boards)`` with room for ``depth`` nested calls: the
    first failure found becomes ``result``'s counterexample, and the walker's node and
    line counts its own (``walker``: a ``_Replay`` or a refutation's walk)."""
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(limit, depth))
        walker.initial(initial, boards)
    except _Refuted as refuted:
        result.counterexample, result.reason = refuted.counterexample, refuted.counterexample.reason
    finally:
        sys.setrecursionlimit(limit)
    result.nodes, result.lines = walker.nodes, walker.lines


class _Replay:
    """The walk over the strategy tree (raises ``_Refuted`` at the first failure)."""

    def __init__(self, rules: str, moves: int, forbidden: list | None = None, probes: int = 0,
                 dag: list | None = None) -> None:
        self.rules, self.moves = referee.announcing(rules), moves
        """The referee's rule set for moves (Modern Kriegspiel's is Berkeley's)."""
        self.forbidden = forbidden or []
        self.probes = probes
        """Squares a probe may name (0: no probes)."""
        self.limit = referee.move_limit(rules)
        self.nodes = self.lines = 0
        self.dag = dag
        """Version 2's nodes, which references index (None: version 1, nodes nested)."""
        self.checked: set[tuple] = set()
        """Version 2: (node, positions, moves played, turn state) already checked."""

    def node(self, value: Any) -> Any:
        """The node ``value`` stands for: itself (version 1), or the node it indexes."""
        return value if self.dag is None else self.dag[value]

    def first_visit(self, node: dict, lines: dict, *state: Any) -> bool:
        """Whether ``node`` is met with these positions and this turn state for the first
        time (always, in version 1): checking it again would find the same."""
        if self.dag is None:
            return True
        key = (id(node), frozenset(lines), *state)
        if key in self.checked:
            return False
        self.checked.add(key)
        return True

    def key(self, board: chess.Board, played: int) -> tuple[str, int]:
        """What distinguishes positions for the rest of the game: the EPD, and
        the half-move clock only if it can still reach the draw limit."""
        epd = board.epd(en_passant="xfen" if self.rules == "fog-of-war" else "legal")
        plies_left = 2 * (self.moves - played)
        return epd, board.halfmove_clock if board.halfmove_clock + plies_left >= self.limit else -1

    # --- the nodes ------------------------------------------------------------
    def initial(self, classes: list, boards: list[chess.Board]) -> None:
        grouped: dict[str, dict] = defaultdict(dict)
        for board in boards:
            line = Line(board, board.fen())
            grouped[referee.canonical(referee.turn_info(board, self.rules))][self.key(board, 0)] = line
        listed = {referee.canonical(observation): node for observation, node in classes}
        for observation, lines in grouped.items():
            if observation not in listed:
                self.refute(next(iter(lines.values())), f"its turn information {observation} is in no "
                                                        "listed 'initial' class")
            self.white(self.node(listed[observation]), lines, 0, asked=False, obliged=False, fresh=True)

    def white(self, node: dict, lines: dict, played: int, asked: bool, obliged: bool, fresh: bool = False) -> None:
        """White to move in every line; ``asked``: "Any?" asked this turn;
        ``obliged``: the attempt must be a pawn capture; ``fresh``: no probe
        nor attempt made yet this turn."""
        if not lines or not self.first_visit(node, lines, played, asked, obliged, fresh):
            return
        self.nodes += 1
        if "ask" in node:
            self.ask(node, lines, played, asked)
            return
        if "probe" in node:
            self.probe(node, lines, played, fresh)
            return
        move = chess.Move.from_uci(node["attempt"])
        refused: dict = {}
        classes: dict[str, tuple[dict, dict]] = {}
        for line in lines.values():
            board = line.board
            if obliged and not referee.is_pawn_capture_attempt(board, move):
                self.refute(line, f"after \"Any?\" was answered yes the attempt must be a pawn capture, "
                                  f"not {move.uci()}")
            if not referee.is_legal(board, move, self.rules):
                refused[self.key(board, played)] = line.then(board, "white", move.uci(), "No")
                continue
            heard, after = referee.play(board, move, self.rules)
            text = referee.canonical(heard)
            classes.setdefault(text, (heard, {}))[1][self.key(after, played + 1)] = (
                line.then(after, "white", move.uci(), text))
        answers = {referee.canonical(observation): value for observation, value in node.get("answers", [])}
        for text, (heard, followers) in classes.items():
            self.after_white(answers.get(text), heard, followers, played + 1)
        if refused:
            if "no" not in node:
                self.refute(next(iter(refused.values())), f"{move.uci()} is refused here but the certificate "
                                                          "has no 'no' branch")
            self.white(self.node(node["no"]), refused, played, asked,
                       referee.obliged_after_refusal(self.rules, obliged))

    def probe(self, node: dict, lines: dict, played: int, fresh: bool) -> None:
        """White names squares; every line's contents of them must be a listed answer."""
        first = next(iter(lines.values()))
        squares = node["probe"]
        if not self.probes:
            self.refute(first, "a probe, but the problem's rule set has no probes")
        if len(squares) > self.probes:
            self.refute(first, f"the probe names {len(squares)} squares, the problem allows {self.probes}")
        if not fresh:
            self.refute(first, "a probe after this turn's probe or first attempt (one probe, at the turn's start)")
        shown: dict[str, dict] = defaultdict(dict)
        for key, line in lines.items():
            text = referee.canonical(referee.probe(line.board, squares))
            shown[text][key] = line.then(line.board, "white", "probe " + ",".join(squares), text)
        answers = {referee.canonical(observation): child for observation, child in node.get("answers", [])}
        for text, members in shown.items():
            if text not in answers:
                self.refute(next(iter(members.values())), f"the probe of {','.join(squares)} shows {text} here, "
                                                          "which is not among the listed answers")
            self.white(self.node(answers[text]), members, played, asked=False, obliged=False)

    def ask(self, node: dict, lines: dict, played: int, asked: bool) -> None:
        if not referee.may_ask(self.rules, asked):
            self.refute(next(iter(lines.values())), "\"Any?\" asked twice in one turn" if asked
                        else f"\"Any?\" under the {self.rules} rules, which have no such question")
        word = "Try" if self.rules == "berkeley-any" else "Yes"
        branches: dict[str, dict] = {"yes": {}, "no": {}}
        for key, line in lines.items():
            yes = referee.any_answer(line.board)
            branches["yes" if yes else "no"][key] = line.then(line.board, "white", "any", word if yes else "No")
        for branch, members in branches.items():
            if members and branch not in node:
                self.refute(next(iter(members.values())), f"\"Any?\" is answered {branch} here but the "
                                                          f"certificate has no '{branch}' branch")
            if members:
                self.white(self.node(node[branch]), members, played, asked=True, obliged=branch == "yes")

    def after_white(self, value: Any, heard: dict, followers: dict, played: int) -> None:
        """White's legal move number ``played`` gave ``heard``; ``value`` is the certificate's answer."""
        first = next(iter(followers.values()))
        if value is None:
            self.refute(first, f"the observation {referee.canonical(heard)} is not among the listed answers")
        if referee.reached_goal(heard, self.rules):
            if value != "win":
                self.refute(first, "the game is won here but the certificate goes on instead of \"win\"")
            self.lines += len(followers)
            return
        if "end" in heard:
            self.refute(first, f"White's move ends the game without winning ({heard['end']})")
        if value == "win":
            self.refute(first, "the certificate says \"win\" but White's move does not "
                               + ("capture the king" if self.rules == "fog-of-war" else "mate"))
        if played >= self.moves:
            self.refute(first, f"White's move {played} does not win and the certificate allows {self.moves}")
        self.black(self.node(value), followers, played)

    def black(self, node: dict, lines: dict, played: int) -> None:
        if not self.first_visit(node, lines, played):
            return
        self.nodes += 1
        classes: dict[str, dict] = defaultdict(dict)
        for line in lines.values():
            board = line.board
            for move in self.replies(board, played):
                heard, after = referee.play(board, move, self.rules)
                text = referee.canonical(heard)
                follower = line.then(after, "black", move.uci(), text)
                if "end" in heard:
                    self.refute(follower, f"Black's reply ends the game ({heard['end']})")
                classes[text][self.key(after, played)] = follower
        replies = {referee.canonical(observation): child for observation, child in node["replies"]}
        for text, members in classes.items():
            if text not in replies:
                self.refute(next(iter(members.values())), f"Black's reply gives {text}, which is not among "
                                                          "the listed replies")
            self.white(self.node(replies[text]), members, played, asked=False, obliged=False, fresh=True)

    def replies(self, board: chess.Board, played: int) -> list[chess.Move]:
        """Black's moves in his reply to White's move ``played``, less those a stated
        condition excludes there (unless it would exclude them all)."""
        moves = list(referee.moves(board, self.rules))
        excluded = {uci for uci_set, at in self.forbidden if at is None or at == played for uci in uci_set}
        if not excluded:
            return moves
        kept = [move for move in moves if move.uci() not in excluded and move.uci()[:4] not in excluded]
        return kept or moves

    # --- failures ---------------------------------------------------------------
    def refute(self, line: Line, reason: str) -> None:
        raise _Refuted(Counterexample(line.start, _steps(line, self.rules == "fog-of-war"), reason))


def _steps(line: Line, fog: bool) -> list[dict[str, str]]:
    """The line's steps in order, with SAN from a replay of the moves."""
    steps = []
    history = line.history
    while history is not None:
        history, step = history
        steps.append(step)
    steps.reverse()
    board = chess.Board(line.start)
    result = []
    for side, uci, heard in steps:
        if uci == "any" or uci.startswith("probe "):
            result.append({"side": side, "uci": uci, "san": "Any?" if uci == "any" else uci, "heard": heard})
            continue
        move = chess.Move.from_uci(uci)
        try:
            san = board.san(move)
        except (AssertionError, ValueError):
            san = uci
        if heard == "No" or fog:
            san = san.rstrip("+#")  # a refused move gives no check; Fog of War has none
        result.append({"side": side, "uci": uci, "san": san, "heard": heard})
        if heard != "No":
            board.push(move)
    return result
