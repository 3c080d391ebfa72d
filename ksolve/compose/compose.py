"""``ksolve compose``: new sound problems of a given material, ranked.

The search goes in rounds of ``batch`` candidates: random legal placements
of the material (``material.py``) and, once some candidate has a win in the
stipulated moves that is not yet sound (cooked, short), moves of one man of
such near-misses (``edits.py``).  Each candidate is a task (``checks.py``:
belief size, a win in N, none in N-1, the full verification, the
certificate), in this process or on a Dask cluster; the sound ones with a
new position are kept, best ranked first (``ranking.py``).  The same seed
gives the same problems whatever the number of workers.

>>> spec = ComposeSpec(parse_material("KQ v K"), (), moves=1, rules="berkeley", count=1, seed=1, batch=8)
>>> found = compose(spec)
>>> len(found.problems), found.problems[0].check["certified"]
(1, True)
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomlkit

from ksolve.compose.checks import SOUND, CandidateJob
from ksolve.compose.edits import MOVE, edits_of
from ksolve.compose.material import Material, parse_material, random_placement
from ksolve.problem import load_problem_text
from ksolve.execution.cluster import RunProgress, run_jobs
from ksolve.execution.results import DONE, ResultsFile

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["ComposeSpec", "Composed", "ComposeReport", "compose", "parse_material", "problem_text"]
NEAR_MISS_STAGES = ("verify",)
"""Candidates that won in N but were not sound (cooked, or a short key): their one-man moves come next."""


@dataclass(frozen=True)
class ComposeSpec:
    """What to compose: the material, the hidden units (``b:dark``), #``moves``, the rule
    set, how many problems, the seed; each search's seconds, the largest belief, the
    candidates per round and in all."""

    material: Material
    hidden: tuple[str, ...]
    moves: int
    rules: str
    count: int
    seed: int = 0
    seconds: float | None = 30.0
    max_belief: int = 5_000
    batch: int = 64
    max_candidates: int = 2_000
    memory: int | None = None
    """The memory budget in bytes of each candidate's searches (None: half of the machine's memory)."""


@dataclass
class Composed:
    """A sound problem found: its file's text and its checks (verification, ranking)."""

    text: str
    check: dict[str, Any]

    @property
    def score(self) -> float:
        return self.check["ranking"]["score"]


@dataclass
class ComposeReport:
    problems: list[Composed] = field(default_factory=list)
    candidates: int = 0
    stages: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def summary(self) -> str:
        ended = ", ".join(f"{stage} {count}" for stage, count in sorted(self.stages.items(), key=lambda kv: -kv[1]))
        return f"{self.candidates} candidates ({ended}): {len(self.problems)} sound problems, {self.seconds:.1f} s"


def problem_text(spec: ComposeSpec, fen: str, origin: str) -> str:
    """A candidate's problem file (``origin``: how it was made, kept in its notes)."""
    document = tomlkit.document()
    document["title"] = f"ksolve compose: {spec.material.describe()}{' + ' if spec.hidden else ''}" \
                        f"{' '.join(spec.hidden)}, #{spec.moves}"
    document["author"] = "ksolve compose"
    document["stipulation"] = f"#{spec.moves}"
    document["rules"] = spec.rules
    document["notes"] = f"Composed by ksolve compose (seed {spec.seed}; {origin})."
    position = tomlkit.table()
    position["fen"] = fen
    if spec.hidden:
        position["hidden"] = list(spec.hidden)
    document["position"] = position
    return tomlkit.dumps(document)


def compose(spec: ComposeSpec, client: "Client | None" = None, results: str | Path | None = None,
            progress: RunProgress | None = None) -> ComposeReport:
    """Up to ``spec.count`` sound problems, best ranked first (see the module doc)."""
    started = time.perf_counter()
    rng = random.Random(spec.seed)
    report = ComposeReport()
    found: dict[str, Composed] = {}
    near: list[str] = []
    seen: set[str] = set()
    while len(found) < spec.count and report.candidates < spec.max_candidates:
        texts = _round(spec, rng, near, seen, min(spec.batch, spec.max_candidates - report.candidates))
        if not texts:
            break
        jobs = [CandidateJob(text, f"candidate {report.candidates + number + 1}", None, (), spec.seconds,
                             spec.max_belief, label=origin, memory=spec.memory)
                for number, (text, origin) in enumerate(texts)]
        ended = run_jobs(jobs, ResultsFile(results), client, progress=progress)
        report.candidates += len(jobs)
        near = []
        for job in jobs:
            result = ended.get(job.key)
            value = result.value if result is not None and result.status == DONE else {"stage": "failed"}
            stage = "sound" if value.get("status") == SOUND else value["stage"]
            report.stages[stage] = report.stages.get(stage, 0) + 1
            fen = tomlkit.parse(job.text)["position"]["fen"]  # the candidate may be illegal (stage "legal")
            if stage == "sound" and fen not in found and len(found) < spec.count:
                found[fen] = Composed(_with_key(job.text, value), value)
            elif stage in NEAR_MISS_STAGES:
                near.append(job.text)
    report.problems = sorted(found.values(), key=lambda problem: -problem.score)
    report.seconds = time.perf_counter() - started
    return report


def _round(spec: ComposeSpec, rng: random.Random, near: list[str], seen: set[str], size: int) -> list[tuple[str, str]]:
    """A round's candidates: one-man moves of the last round's near misses (a random
    sample, half the round at most), then random placements; none seen before."""
    texts: list[tuple[str, str]] = []
    mutations = []
    for text in near:
        problem = load_problem_text(text)
        mutations += [(edit.text, f"{edit.describe()} of {problem.fen}") for edit in edits_of(problem, (MOVE,))]
    rng.shuffle(mutations)
    for text, origin in mutations[:size // 2]:
        fen = tomlkit.parse(text)["position"]["fen"]
        if fen not in seen:
            seen.add(fen)
            texts.append((problem_text(spec, fen, f"one man moved: {origin}"), origin))
    while len(texts) < size:
        fen = random_placement(spec.material, rng)
        if fen not in seen:
            seen.add(fen)
            texts.append((problem_text(spec, fen, "random placement"), "random placement"))
    return texts


def _with_key(text: str, check: dict[str, Any]) -> str:
    """The problem file with its key, verification and ranking recorded."""
    document = tomlkit.parse(text)
    verification, ranking = check["verification"], check["ranking"]
    document["notes"] = (f"{document['notes']} Verified: {verification['line']}; {verification['tries_total']} "
                         f"tries; belief {verification['belief_size']} positions; certificate checked by the "
                         f"independent checker. Ranking {ranking['score']:+g}: {ranking['terms']}.")
    published = tomlkit.table()
    published["key"] = check["key"]
    document["published"] = published
    return tomlkit.dumps(document)



def write_problems(report: ComposeReport, spec: ComposeSpec, out_dir: str | Path, prefix: str = "composed"
                   ) -> list[Path]:
    """Each problem as ``PREFIX-N.toml`` (best ranked first; ``id`` set to its file name), and
    ``booklet.html``: the problems solved and verified again, on one booklet page."""
    import ksolve
    from ksolve.report.booklet import BookletEntry, render_booklet

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths, entries = [], []
    for number, composed in enumerate(report.problems, 1):
        name = f"{prefix}-{number:02d}"
        document = tomlkit.document()
        document["id"] = name  # first, as in the bundled problems
        for field_name, value in tomlkit.parse(composed.text).items():
            document[field_name] = value
        path = out / f"{name}.toml"
        path.write_text(tomlkit.dumps(document), encoding="utf-8")
        paths.append(path)
        problem = ksolve.load_problem(path)
        limits = ksolve.Limits(spec.seconds)
        solution, verification = ksolve.solve(problem, limits=limits), ksolve.verify(problem, limits=limits)
        entries.append(BookletEntry(problem, solution, verification,
                                    ksolve.key_solutions(problem, solution, verification, limits)))
    (out / "booklet.html").write_text(render_booklet(entries, f"ksolve compose: {spec.material.describe()}"),
                                      encoding="utf-8")
    return paths
