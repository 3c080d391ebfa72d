"""The public library API: what every front end (the CLI, a web app, a
notebook, distributed runs) calls.  ``import ksolve`` exposes these names.

Bad input raises ``InputError`` (``ProblemError`` for problem files) whose
message is one line naming the file, the field and the reason.

>>> import ksolve
>>> problem = ksolve.load_problem_text('stipulation = "#2"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> solution = ksolve.solve(problem)
>>> solution.status, solution.key, solution.moves
('solved', 'h1h8', 1)
>>> ksolve.check(problem, ksolve.certificate(problem, solution)).verified
True
>>> ksolve.verify(problem).verdict
'short solution'
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

from ksolve.errors import InputError
from ksolve.problem import Problem, ProblemError, load_problem_text
from ksolve.resources import Resources
from ksolve.search.run import Limits, Progress

if TYPE_CHECKING:
    from ksolve.analysis import Analysis
    from ksolve.belief import BeliefState
    from ksolve.checker import CheckResult
    from ksolve.endgame import EndgameTable
    from ksolve.games.model import Game
    from ksolve.rules.base import RuleSet
    from ksolve.solver import Solution
    from ksolve.verification import Verification

__all__ = ["InputError", "Limits", "PerftResult", "Problem", "ProblemError", "Resources", "certificate", "check",
           "endgame", "game_belief", "game_problem", "key_solutions", "load_problem", "load_problem_text", "perft",
           "position_belief", "read_endgame", "read_game", "referee_answers", "rule_set", "solve", "verify"]


# --- problems -------------------------------------------------------------------------
def load_problem(path: str | Path, *, ply: int | None = None, moves: int | None = None,
                 max_positions: int | None = None, resources: Resources | None = None) -> Problem:
    """A problem file (``.toml``), or the problem at the end of a Kriegspiel game
    (``.pgn``: "White mates within ``ply`` plies", or ``moves`` moves, from his
    belief estimated from the history, at most ``max_positions`` positions).
    ``resources``: the memory budget of a problem file's belief (default: half of
    the machine's memory) and a callback hearing of its enumeration.

    >>> load_problem("problems/rotenberg-1976.toml").stipulation
    '#8'
    """
    path = str(path)
    if not path.endswith(".pgn"):
        if ply is not None:
            raise InputError("--ply: only for a game (.pgn); a problem file has its stipulation")
        from ksolve.problem import load_problem as load_problem_file

        return load_problem_file(path, resources)
    if ply is None and moves is None:
        raise InputError(f"{path}: a game needs the depth: --ply D or --moves N")
    if ply is not None and moves is not None:
        raise InputError("--ply/--moves: give one of them")
    from ksolve.games.problem import game_problem as problem_of_game

    with _game_input(path):
        return problem_of_game(read_game(path), ply, moves, max_positions, source=path)


def rule_set(name: str) -> "RuleSet":
    """The rule set called ``name``; ``InputError`` naming the valid ones otherwise."""
    from ksolve.rules import UnknownRules, get_rules

    try:
        return get_rules(name)
    except UnknownRules as error:
        raise InputError(f"--rules: {error}") from None


# --- solving --------------------------------------------------------------------------
def solve(problem: "Problem | Analysis", *, rules: "RuleSet | str | None" = None, moves: int | None = None,
          at_most: bool = False, limits: Limits | None = None, progress: Progress | None = None,
          search: str = "pn", tree: bool = True, jobs: int = 1) -> "Solution":
    """Prove or refute "White wins within ``moves``" (default: the stipulation).

    ``at_most``: prove the stipulation alone, without looking for a shorter win;
    ``limits``: seconds and nodes (status ``unknown`` past them); ``progress``:
    called with the run's counters and depth; ``search``: ``pn`` or ``dfs``; ``jobs``: worker
    processes sharing White's first attempts (one first class; a script using them needs the
    ``if __name__ == "__main__":`` guard)."""
    from ksolve.execution.executors import solve as solve_problem

    return solve_problem(problem, moves, rules, limits, progress, tree=tree, search=search, shortest=not at_most,
                         jobs=jobs)


def verify(problem: "Problem | Analysis", *, rules: "RuleSet | str | None" = None, moves: int | None = None,
           limits: Limits | None = None, tries: int | None = None, duals: bool = True,
           progress: Progress | None = None, jobs: int = 1) -> "Verification":
    """Keys, cooks, short solutions, tries with refutations and duals (``tries``: keep the best k;
    ``jobs``: worker processes sharing the first attempts, the same answers sooner on
    several cores; a script that uses them needs the ``if __name__ == "__main__":`` guard)."""
    from ksolve.execution.executors import verify as verify_problem

    return verify_problem(problem, moves, rules, limits, tries, duals, progress, jobs)


def key_solutions(problem: "Problem | Analysis", solution: "Solution", verification: "Verification | None",
                  limits: Limits | None = None) -> list["Solution"]:
    """The strategies of a cooked problem's keys other than ``solution``'s (none unless
    ``verification`` found several), each searched within ``limits``: for ``render_report``,
    which never searches."""
    from ksolve.solver import key_solutions as solve_keys

    if verification is None:
        return []
    keys = [(key.move, key.moves) for key in verification.keys]
    return solve_keys(problem, solution, keys, limits)


def certificate(problem: Problem, solution: "Solution", *, dag: bool = False) -> dict[str, Any]:
    """The certificate of a solved problem, for ``check`` (``docs/certificate.md``; ``dag``:
    version 2, each distinct node written once)."""
    from ksolve.certificates import certificate as make_certificate

    return make_certificate(problem, solution, dag=dag)


def check(problem: Problem | str | Path, certificate: dict[str, Any] | str | Path) -> "CheckResult":
    """Replay a certificate against every initial position of the problem with
    the independent checker (python-chess only): ``result.verified`` or its counterexample.

    ``problem``: a problem file's path, or a ``Problem`` read from TOML;
    ``certificate``: the certificate's JSON object or its file."""
    from ksolve.checker import check_certificate, check_certificate_file, check_certificate_text, read_certificate

    if isinstance(problem, Problem):
        if not problem.text:
            raise InputError(f"{problem.source}: only a problem read from TOML can be checked")
        if not isinstance(certificate, dict):
            certificate = read_certificate(certificate)
        return check_certificate_text(problem.text, certificate, problem.source)
    if isinstance(certificate, dict):
        return check_certificate(problem, certificate)
    return check_certificate_file(problem, certificate)


# --- endgame tables ---------------------------------------------------------------------
def endgame(material: str, *, rules: str = "berkeley", output: str | Path | None = None, max_moves: int = 50,
            start: str = "anywhere", jobs: int | None = None, scheduler: str | None = None,
            seconds: float | None = None, memory: int | None = None, progress: Callable[..., None] | None = None,
            building: Callable[[int, int], None] | None = None) -> "EndgameTable":
    """The endgame table of ``material`` (``"KQK"``, ``"KRK"``, ``"KBBK"`` ...): per
    placement of White's men up to symmetry, the black king on any legal square,
    the shortest sure win under ``rules`` up to ``max_moves`` (``docs/guide/endgame-tables.md``).

    ``output``: the table file, appended to as rows are decided and resumed from;
    ``start``: ``"general"`` starts the king in general position (not next to a White
    man no other guards) instead of anywhere;
    ``jobs``/``scheduler``: the waves on a Dask cluster; ``seconds``: stop after
    this long (the rows so far kept); ``memory``: bytes for each process's table;
    ``progress``: called with a ``SweepProgress`` as each task ends; ``building``: with
    (placements tabulated, in all) while this process builds the material's tables.

    >>> table = endgame("KQK", max_moves=12)
    >>> table.complete, table.maximum, table.counts()
    (True, None, {'none within 12': 518})
    """
    from ksolve.endgame import build_table

    return build_table(material, rules, output=output, max_moves=max_moves, start=start, jobs=jobs,
                       scheduler=scheduler, seconds=seconds, memory=memory, progress=progress, building=building)


def read_endgame(path: str | Path) -> "EndgameTable":
    """An endgame table file (``endgame(output=...)``, ``ksolve endgame -o``), complete or not."""
    from ksolve.endgame import read_endgame_table

    return read_endgame_table(path)


# --- games and beliefs ------------------------------------------------------------------
def read_game(path: str | Path) -> "Game":
    """A Kriegspiel game from a PGN file (``InputError`` with line and column otherwise)."""
    from ksolve.games.pgn import read_game_file

    with _game_input(str(path)):
        return read_game_file(str(path))


def game_belief(game: "Game", max_positions: int | None = None, source: str = "<game>") -> "BeliefState":
    """White's belief at the end of ``game``, estimated from his filtered history."""
    from ksolve.games.estimate import estimate

    with _game_input(source):
        return estimate(game, max_positions)


def game_problem(game: "Game", *, ply: int | None = None, moves: int | None = None,
                 max_positions: int | None = None, source: str = "<game>") -> Problem:
    """The problem "White mates within ``ply`` plies (or ``moves``)" at the end of ``game``."""
    from ksolve.games.problem import game_problem as problem_of_game

    with _game_input(source):
        return problem_of_game(game, ply, moves, max_positions, source=source)


def position_belief(fen: str, hidden: list[str], rules: "RuleSet", resources: Resources | None = None,
                    reachable: bool = True) -> "BeliefState":
    """Every legal placement of the ``hidden`` units (``b:dark``, ``k:e2,e5``...) into ``fen``
    (within the memory budget of ``resources``); with ``reachable``, those some
    game reaches (the others counted in the belief's ``left_out``)."""
    import chess

    from ksolve.belief import BeliefState
    from ksolve.hidden import HiddenUnitError, parse_hidden_unit
    from ksolve.legality import position_error

    try:
        units = [parse_hidden_unit(spec) for spec in hidden]
    except HiddenUnitError as error:
        raise InputError(f"--hidden: {error}") from None
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise InputError(f"--fen: invalid FEN {fen!r}: {error}") from None
    reason = position_error(board, units, fog=rules.fog, reachable=reachable) if board.turn == chess.WHITE else None
    if reason:
        raise InputError(f"--fen: {reason}")
    try:
        return BeliefState.from_hidden(fen, units, rules.fog, resources, reachable)
    except ValueError as error:
        raise InputError(f"--hidden/--fen: {error}", getattr(error, "setting", None)) from None


def referee_answers(rules: "RuleSet", fen: str, attempts: list[str]) -> list[tuple[str, str, str]]:
    """The referee's answer to each attempt (UCI, or "any" for "Any?") of the
    side to move in turn: ``[(side, attempt, words), ...]``.

    >>> referee_answers(rule_set("berkeley"), "8/8/5B2/8/8/3N4/R6p/5K1k w - - 0 1", ["a2h2"])
    [('White', 'a2h2', 'Capture at h2, check on the file')]
    """
    from ksolve.board import PositionError, move_from_uci, position_from_fen
    from ksolve.rules.referee import Referee

    try:
        game = Referee(rules, position_from_fen(fen, fog=rules.fog))
    except PositionError as error:
        raise InputError(f"--fen: {error}") from None
    answers = []
    for number, token in enumerate(attempts, 1):
        side = "White" if game.turn == 0 else "Black"
        if token.lower() in ("any", "any?"):
            answer = game.ask_any()
        else:
            try:
                move = move_from_uci(token)
            except ValueError as error:
                raise InputError(f"attempt {number}: {error}") from None
            answer = game.attempt(move)
        answers.append((side, token, answer.words))
    return answers


@dataclass(frozen=True)
class PerftResult:
    """Leaf counts of the move tree: the total and, divided, per root move (UCI)."""

    total: int
    divided: list[tuple[str, int]]


def perft(fen: str, depth: int, *, fog: bool = False, bulk: bool = False, divide: bool = False,
          progress: "Callable[[int], None] | None" = None) -> PerftResult:
    """Count the leaves of the move tree ``depth`` plies deep (the engine's self-test).

    The count goes in parts (``ksolve.board.perft_parts``): ``progress`` is
    called with the leaves counted so far after each, and Ctrl-C is honoured.

    >>> perft("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 2).total
    400
    """
    import numpy as np

    from ksolve.board import PositionError, expand, move_to_uci, perft_parts, position_from_fen

    try:
        position = position_from_fen(fen, fog=fog)
    except PositionError as error:
        raise InputError(f"--fen: {error}") from None
    counted = 0

    def count_leaves(row: "np.ndarray", plies: int) -> int:
        nonlocal counted
        leaves = 0
        for part in perft_parts(row, plies, fog, bulk):
            leaves += part
            counted += part
            if progress is not None:
                progress(counted)
        return leaves

    if not divide or depth == 0:
        return PerftResult(count_leaves(position, depth), [])
    children, _, moves = expand(position[np.newaxis, :], fog)
    divided = sorted((move_to_uci(move), count_leaves(child, depth - 1)) for child, move in zip(children, moves))
    return PerftResult(sum(count for _, count in divided), divided)


@contextmanager
def _game_input(source: str) -> Iterator[None]:
    """Turn what reading a game and estimating its belief raise into one ``InputError`` line."""
    from ksolve.games.estimate import BeliefTooLarge

    try:
        yield
    except InputError:
        raise
    except OSError as error:
        raise InputError(f"{source}: cannot read: {error.strerror}") from None
    except BeliefTooLarge as error:
        raise InputError(f"{source}: {error} (raise --max-positions)") from None
    except ValueError as error:  # PGNError, InconsistentHistory, a game over or Black to move
        message = str(error)
        raise InputError(message if message.startswith(source) else f"{source}: {message}") from None
