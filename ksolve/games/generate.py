"""Mate problems from play: games between simple policies, White's belief at
each of his turns, and the prover's verdict on it.

At every White turn of every game, White's belief (``ksolve.games.estimate``)
is given to the prover: can White force mate within ``ply`` plies (``(ply +
1) // 2`` White moves) whatever the position and whatever Black plays?

- **mate**: yes;
- **near-miss**: no, but mate needs only ``ply + 2`` plies ("D+2"), or White
  would mate within ``ply`` plies in most positions of the belief if he knew
  which one it is ("most": more than ``near_fraction`` of a sample of the
  positions, each proved as a one-position belief);
- **no**, **unknown** (the time limit ran out), **too-large** (the belief
  outgrew ``max_positions``: the rest of that game is skipped).

Mates and near-misses are written as White's filtered PGN of the game up to
that turn (``mate/``, ``near-miss/`` under ``out_dir``, tags ``Instance``,
``Ply``, ``BeliefSize``, ``Detail``), and every verdict as a row of
``stats.csv`` (game, ply, rules, belief size, result, detail, nodes, seconds,
file).  Each game is a ``GameJob`` seeded by the run's seed and its number,
so that the same seed gives the same games in this process and on a Dask
cluster (``--jobs``).  Games are numbered from 1 everywhere: the PGN ``Round`` tag, the
``game`` column, the file names (``berkeley-g0001-p004.pgn``: game 1 at
ply 4) and the progress rows.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as out:
...     rows = generate("berkeley", games=1, ply=1, seed=1, out_dir=out, plies_per_game=4, min_ply=0,
...                     fens=["6k1/8/6K1/8/8/8/8/R7 w - - 0 1"])
...     written = sorted(p.name for p in Path(out).rglob("*.*"))
>>> [(row["ply"], row["result"], row["file"]) for row in rows][:1]
[(0, 'mate', 'mate/berkeley-g0001-p000.pgn')]
>>> written
['berkeley-g0001-p000.pgn', 'berkeley-g0001-p002.pgn', 'stats.csv']
"""

from __future__ import annotations

import csv
import random
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import chess

from ksolve.belief import BeliefState
from ksolve.board.layout import COLUMN_TURN
from ksolve.games.estimate import BeliefTooLarge, Estimator
from ksolve.games.model import Game, filter_game
from ksolve.games.pgn import write_game
from ksolve.games.play import POLICIES, play_game
from ksolve.rules import get_rules
from ksolve.analysis import Analysis
from ksolve.execution.jobs import JobProgress, JobResult, digest
from ksolve.games.problem import belief_problem
from ksolve.search.run import Limits, SearchAborted

if TYPE_CHECKING:
    from distributed import Client

    from ksolve.execution.cluster import RunProgress

CSV_FIELDS = ("game", "ply", "rules", "belief_size", "result", "detail", "nodes", "seconds", "file")


@dataclass
class Verdict:
    """The prover's verdict on one belief."""

    result: str
    """``mate``, ``near-miss``, ``no`` or ``unknown``."""
    detail: str
    nodes: int
    seconds: float


def fewest_moves(rules, belief: BeliefState, max_moves: int, seconds: float | None) -> tuple[int | None, int]:
    """The fewest White moves that force mate from ``belief`` (None: not within
    ``max_moves``), and the prover's nodes; ``SearchAborted`` past ``seconds``.
    The belief is first split by what White hears at the start of his turn, as
    the solver does (one class for a belief estimated from a history), and
    the prover's bounds are fitted to the material as for ``ksolve solve``."""
    analysis = Analysis(belief_problem(belief, rules, max_moves))
    prover = analysis.prover(Limits(seconds=seconds))
    worst = 0
    for first in analysis.classes:
        found = prover.solve(first.belief, max_moves)
        if found is None:
            return None, prover.stats.nodes
        worst = max(worst, found)
    return worst, prover.stats.nodes


def classify(rules, belief: BeliefState, ply: int, seconds: float = 2.0, near_fraction: float = 0.5,
             sample: int = 12, rng: random.Random | None = None) -> Verdict:
    """The verdict on ``belief`` for mate within ``ply`` plies (see the module doc)."""
    moves = (ply + 1) // 2
    started = time.perf_counter()
    try:
        found, nodes = fewest_moves(rules, belief, moves + 1, seconds)
    except SearchAborted:
        return Verdict("unknown", f"over {seconds:g} s", 0, time.perf_counter() - started)
    if found is not None and found <= moves:
        return Verdict("mate", f"mate in {found} moves", nodes, time.perf_counter() - started)
    if found == moves + 1:
        return Verdict("near-miss", f"D+2: mate in {found} moves", nodes, time.perf_counter() - started)
    fraction = _fraction_won(rules, belief, moves, seconds / max(sample, 1), sample, rng or random.Random(0))
    elapsed = time.perf_counter() - started
    if fraction is None:  # a sampled position's proof ran out of time: no honest verdict
        return Verdict("unknown", f"a sampled position over {seconds / max(sample, 1):g} s", nodes, elapsed)
    if fraction > near_fraction and len(belief) > 1:
        return Verdict("near-miss", f"most: {fraction:.0%} of the positions", nodes, elapsed)
    return Verdict("no", f"{fraction:.0%} of the positions", nodes, elapsed)


def _fraction_won(rules, belief: BeliefState, moves: int, seconds: float, sample: int,
                  rng: random.Random) -> float | None:
    """The share of (a sample of) the belief's positions from which White, knowing
    the position, mates within ``moves``; None if a proof ran out of time."""
    indices = list(range(len(belief)))
    if len(indices) > sample:
        indices = sorted(rng.sample(indices, sample))
    won = 0
    for index in indices:
        try:
            found, _ = fewest_moves(rules, BeliefState(belief.positions[index:index + 1]), moves, seconds)
        except SearchAborted:
            return None
        won += found is not None
    return won / len(indices)


EDGE = [square for square in chess.SQUARES if chess.square_file(square) in (0, 7) or chess.square_rank(square) in (0, 7)]


def mating_kings(rng: random.Random) -> tuple[int, int] | None:
    """Squares for White's and Black's kings where mates are common: the black
    king usually on the edge, the white king usually two or three squares from
    it (None when the two fall on one square).

    >>> white, black = mating_kings(random.Random(3))
    >>> white != black
    True
    """
    black_king = rng.choice(EDGE) if rng.random() < 0.8 else rng.choice(chess.SQUARES)
    near = [s for s in chess.SQUARES if 2 <= chess.square_distance(s, black_king) <= 3]
    white_king = rng.choice(near) if rng.random() < 0.8 else rng.choice(chess.SQUARES)
    return None if white_king == black_king else (white_king, black_king)


def random_endgame_fen(rng: random.Random, white: int = 2, black: int = 1) -> str:
    """A legal position, White to move: kings and 1 to ``white`` white men, 0 to
    ``black`` black men; the black king usually on the edge with the white king
    near it (mates within a few moves are then common).

    >>> chess.Board(random_endgame_fen(random.Random(1))).is_valid()
    True
    """
    pieces = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.ROOK, chess.QUEEN, chess.QUEEN]
    while True:
        board = chess.Board(None)
        kings = mating_kings(rng)
        if kings is None:
            continue
        white_king, black_king = kings
        board.set_piece_at(white_king, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(black_king, chess.Piece(chess.KING, chess.BLACK))
        free = [s for s in chess.SQUARES if s not in (white_king, black_king)]
        men = [chess.WHITE] * rng.randint(1, white) + [chess.BLACK] * rng.randint(0, black)
        for color, square in zip(men, rng.sample(free, len(men))):
            piece = rng.choice(pieces)
            if piece != chess.PAWN or chess.square_rank(square) not in (0, 7):
                board.set_piece_at(square, chess.Piece(piece, color))
        if board.is_valid() and not board.is_game_over() and not board.is_check():
            return board.fen()


def endgame_starts(games: int, seed: int) -> list[str]:
    """The start positions of ``ksolve generate --start endgame``: one random
    endgame (``random_endgame_fen``) per game, from their own seeded generator.

    >>> endgame_starts(3, 7) == endgame_starts(3, 7)
    True
    """
    rng = random.Random(seed)
    return [random_endgame_fen(rng) for _ in range(games)]


@dataclass(frozen=True)
class GameJob:
    """One game of a generated set and how its turns are examined (a job of
    ``ksolve.execution.jobs``: the same in this process and on a Dask cluster)."""

    rules: str
    number: int
    seed: int
    ply: int
    fen: str | None
    seconds: float = 2.0
    max_positions: int = 100_000
    plies_per_game: int = 60
    near_fraction: float = 0.5
    sample: int = 12
    white: str = "greedy"
    black: str = "random"
    min_ply: int = 1

    @property
    def key(self) -> str:
        return f"game-{self.number:05d}-" + digest(asdict(self))

    def run(self, progress: JobProgress) -> JobResult:
        """Play the game and classify White's belief at each of his turns:
        ``{"rows": [stats.csv rows], "instances": {relative path: PGN text}}``.  The game
        draws from its own generator, seeded with the run's seed and its number, so that
        the set is the same whatever runs it and in whatever order."""
        rng = random.Random(f"{self.seed}:{self.number}")
        game = play_game(self.rules, POLICIES[self.white], POLICIES[self.black], self.plies_per_game, rng,
                         fen=self.fen, tags=(("Event", f"ksolve generate {self.rules} seed {self.seed}"),
                                             ("Round", str(self.number)), ("White", self.white),
                                             ("Black", self.black)))
        filtered = filter_game(game, True)
        estimator = Estimator(self.rules, game.start_fen, self.max_positions)
        rule_set = get_rules(self.rules)
        rows: list[dict] = []
        instances: dict[str, str] = {}
        seen: set[tuple[int, int]] = set()
        for played in range(len(filtered.turns) + 1):
            if played:
                try:
                    estimator.observe(filtered.turns[played - 1])
                except BeliefTooLarge as error:
                    rows.append(_row(self.number, played, self.rules, error.size,
                                     Verdict("too-large", str(error), 0, 0.0), ""))
                    break
            belief = estimator.belief
            over = played == len(filtered.turns) and game.result != "*"
            if played < self.min_ply or int(belief.positions[0, COLUMN_TURN]) != 0 or over:
                continue
            if (belief.key, len(belief)) in seen:
                continue
            seen.add((belief.key, len(belief)))
            verdict = classify(rule_set, belief, self.ply, self.seconds, self.near_fraction, self.sample, rng)
            path = ""
            if verdict.result in ("mate", "near-miss"):
                path = f"{verdict.result}/{filtered.rules}-g{self.number:04d}-p{played:03d}.pgn"
                tags = filtered.tags + (("Instance", verdict.result), ("Ply", str(self.ply)),
                                        ("BeliefSize", str(len(belief))), ("Detail", verdict.detail))
                instances[path] = write_game(replace(filtered, turns=filtered.turns[:played], result="*", tags=tags))
            rows.append(_row(self.number, played, self.rules, len(belief), verdict, path))
        return JobResult({"rows": rows, "instances": instances})


RESULTS_NAME = "results.jsonl"
"""The results file of a ``generate`` run on a cluster, in its output folder (what a re-run skips)."""


def generate(rules: str, games: int, ply: int, seed: int, out_dir: str | Path, *, plies_per_game: int = 60,
             max_positions: int = 100_000, seconds: float = 2.0, near_fraction: float = 0.5, sample: int = 12,
             fens: list[str] | None = None, white: str = "greedy", black: str = "random", min_ply: int = 1,
             client: "Client | None" = None, results: str | Path | None = None,
             progress: "RunProgress | None" = None) -> list[dict]:
    """Play ``games`` seeded games, classify White's belief at each of his turns,
    write the mate and near-miss instances and ``stats.csv``; return the rows, game by game.

    One ``GameJob`` a game, run in this process or on ``client``'s Dask cluster
    (``ksolve.execution.cluster.run_jobs``): the same seed writes the same games
    either way.  ``results``: a JSON-lines file of the games done (a re-run skips
    them); ``fens``: start positions used in turn (None: the standard start);
    ``white``/``black``: policy names (``random``, ``greedy``); ``min_ply``: the
    first turn examined (1 skips the start position, which White knows);
    ``progress``: hears of each game's end."""
    from ksolve.execution.cluster import run_jobs
    from ksolve.execution.results import DONE, ResultsFile

    out = Path(out_dir)
    jobs = [GameJob(rules, number, seed, ply, fens[(number - 1) % len(fens)] if fens else None, seconds,
                    max_positions, plies_per_game, near_fraction, sample, white, black, min_ply)
            for number in range(1, games + 1)]
    ended = run_jobs(jobs, ResultsFile(results), client, progress=progress)
    done = [ended[job.key].value for job in jobs if job.key in ended and ended[job.key].status == DONE]
    for value in done:  # a re-run writes them again: a crash before they were written loses none
        for path, text in value["instances"].items():
            (out / path).parent.mkdir(parents=True, exist_ok=True)
            (out / path).write_text(text, encoding="utf-8")
    rows = [row for value in done for row in value["rows"]]
    _write_csv(out / "stats.csv", rows)
    return rows


def _row(game: int, played: int, rules: str, size: int, verdict: Verdict, path: str) -> dict:
    return {"game": game, "ply": played, "rules": rules, "belief_size": size, "result": verdict.result,
            "detail": verdict.detail, "nodes": verdict.nodes, "seconds": round(verdict.seconds, 4), "file": path}


def _write_csv(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS)
        writer.writeheader()
        writer.writerows(rows)
