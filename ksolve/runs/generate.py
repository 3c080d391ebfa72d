"""``ksolve generate`` as one task per game, for a Dask cluster.

Each game draws from its own generator, seeded with the run's seed and the
game's number (``random.Random(f"{seed}:{number}")``), so that the set is the
same whatever the number of workers and the order the games end in; the
start positions are ``endgame_starts(games, seed)`` as in the one-process
``ksolve.games.generate``.  (That one draws every game from one generator in
turn, so its set differs from this one's for the same seed; a repeated belief
is examined once per game here, once per run there.)  The workers send back
each game's rows and its instances' PGN text; this process writes them, so a
worker needs no shared folder.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as out:
...     rows = generate_on_cluster("berkeley", 1, 1, 1, out, fens=["6k1/8/6K1/8/8/8/8/R7 w - - 0 1"],
...                                plies_per_game=4, min_ply=0)
>>> [(row["game"], row["ply"], row["result"]) for row in rows][:1]
[(1, 0, 'mate')]
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ksolve.runs.results import DONE, ResultsFile
from ksolve.runs.runner import RunProgress, Task, run_tasks
from ksolve.runs.tasks import digest

if TYPE_CHECKING:
    from distributed import Client

RESULTS_NAME = "results.jsonl"
"""The results file of a distributed ``generate``, in its output folder."""


@dataclass(frozen=True)
class GameJob:
    """One game of a generated set and how its turns are examined."""

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


def game_task(job: GameJob) -> dict[str, Any]:
    """Play the job's game and classify White's belief at each of his turns:
    ``{"rows": [stats.csv rows], "instances": {relative path: PGN text}}``."""
    from ksolve.board.layout import COLUMN_TURN
    from ksolve.games.estimate import BeliefTooLarge, Estimator
    from ksolve.games.generate import Verdict, _row, classify
    from ksolve.games.model import filter_game
    from ksolve.games.pgn import write_game
    from ksolve.games.play import POLICIES, play_game
    from ksolve.rules import get_rules

    rng = random.Random(f"{job.seed}:{job.number}")
    game = play_game(job.rules, POLICIES[job.white], POLICIES[job.black], job.plies_per_game, rng, fen=job.fen,
                     tags=(("Event", f"ksolve generate {job.rules} seed {job.seed}"), ("Round", str(job.number)),
                           ("White", job.white), ("Black", job.black)))
    filtered = filter_game(game, True)
    estimator = Estimator(job.rules, game.start_fen, job.max_positions)
    rows: list[dict] = []
    instances: dict[str, str] = {}
    seen: set[tuple[int, int]] = set()
    for played in range(len(filtered.turns) + 1):
        if played:
            try:
                estimator.observe(filtered.turns[played - 1])
            except BeliefTooLarge as error:
                rows.append(_row(job.number, played, job.rules, error.size,
                                 Verdict("too-large", str(error), 0, 0.0), ""))
                break
        belief = estimator.belief
        over = played == len(filtered.turns) and game.result != "*"
        if played < job.min_ply or int(belief.positions[0, COLUMN_TURN]) != 0 or over:
            continue
        if (belief.key, len(belief)) in seen:
            continue
        seen.add((belief.key, len(belief)))
        verdict = classify(get_rules(job.rules), belief, job.ply, job.seconds, job.near_fraction, job.sample, rng)
        path = ""
        if verdict.result in ("mate", "near-miss"):
            path = f"{verdict.result}/{filtered.rules}-g{job.number:04d}-p{played:03d}.pgn"
            tags = filtered.tags + (("Instance", verdict.result), ("Ply", str(job.ply)),
                                    ("BeliefSize", str(len(belief))), ("Detail", verdict.detail))
            instances[path] = write_game(replace(filtered, turns=filtered.turns[:played], result="*", tags=tags))
        rows.append(_row(job.number, played, job.rules, len(belief), verdict, path))
    return {"rows": rows, "instances": instances}


def generate_on_cluster(rules: str, games: int, ply: int, seed: int, out_dir: str | Path, *,
                        fens: list[str] | None = None, client: "Client | None" = None,
                        progress: RunProgress | None = None, **options: Any) -> list[dict]:
    """The generated set of ``games`` games (one task each, on ``client``'s cluster, or in
    this process), written as ``ksolve.games.generate`` writes it, plus ``results.jsonl``
    (the re-run's memory); the stats rows, game by game.  ``options``: ``GameJob``'s."""
    from ksolve.games.generate import _write_csv

    out = Path(out_dir)
    jobs = [GameJob(rules, number, seed, ply, fens[(number - 1) % len(fens)] if fens else None, **options)
            for number in range(1, games + 1)]
    results = run_tasks([Task(job.key, game_task, (job,)) for job in jobs], ResultsFile(out / RESULTS_NAME),
                        client, progress=progress)
    done = [results[job.key].value for job in jobs if job.key in results and results[job.key].status == DONE]
    for value in done:  # a re-run writes them again: a crash before they were written loses none
        for path, text in value["instances"].items():
            (out / path).parent.mkdir(parents=True, exist_ok=True)
            (out / path).write_text(text, encoding="utf-8")
    rows = [row for value in done for row in value["rows"]]
    _write_csv(out / "stats.csv", rows)
    return rows
