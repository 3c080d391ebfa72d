"""``ksolve mend``: the small changes (``edits.py``) that make a cooked or
unsound problem sound while keeping its author's key, each verified and its
certificate checked, smallest first.

The original is verified first: its other keys are the cooks every candidate
must refute (the cheapest check, so most candidates end there), then the key
must still win and nothing shorter, then the full verification and the
certificate (``checks.py``).  The candidates are independent tasks: in this
process, or on a Dask cluster (``ksolve.execution.cluster``), with a results file that a
re-run resumes.

>>> from ksolve.problem import load_problem_text
>>> short = load_problem_text('stipulation = "#2"\\nrules = "berkeley"\\n[position]\\n'
...                           'fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n[published]\\nkey = "h1h8"\\n')
>>> report = mend(short, kinds=("stipulation",), seconds=30)
>>> report.original, [(fix.edit.describe(), fix.certified) for fix in report.fixes]
('short solution', [('stipulation #1', True)])
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import chess
import tomlkit

from ksolve.compose.checks import SOUND, CandidateJob
from ksolve.compose.edits import ADD, MOVE, NARROW, REMOVE, STIPULATION, Edit, combined, edits_of
from ksolve.errors import InputError, SettingError
from ksolve.moves_check import key_error
from ksolve.problem import Problem
from ksolve.execution.cluster import RunProgress, run_jobs
from ksolve.execution.results import DONE, ResultsFile

if TYPE_CHECKING:
    from distributed import Client

ALL_KINDS = (STIPULATION, NARROW, REMOVE, ADD, MOVE)


@dataclass
class Fix:
    """A change that makes the problem sound with its key, and what its checks found."""

    edit: Edit
    check: dict[str, Any]

    @property
    def certified(self) -> bool:
        return bool(self.check.get("certified"))

    @property
    def line(self) -> str:
        return self.check["reason"]


@dataclass
class MendReport:
    """What ``mend`` tried and found."""

    source: str
    key: str
    original: str
    """The original's verdict."""
    cooks: list[str]
    candidates: int = 0
    stages: dict[str, int] = field(default_factory=dict)
    """How many candidates each check ended (``sound`` for the fixes)."""
    fixes: list[Fix] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        """One line: the candidates, where they ended, the fixes."""
        ended = ", ".join(f"{stage} {count}" for stage, count in sorted(self.stages.items(), key=lambda kv: -kv[1]))
        return (f"{self.source}: {self.original}, key {self.key}, cooks {', '.join(self.cooks) or '-'}: "
                f"{self.candidates} candidates ({ended}), {len(self.fixes)} fixes, {self.seconds:.1f} s")


def mend(problem: Problem, key: str | None = None, kinds: tuple[str, ...] = ALL_KINDS, seconds: float | None = 30.0,
         max_fixes: int | None = 20, client: "Client | None" = None, results: str | Path | None = None,
         progress: RunProgress | None = None, max_pairs: int = 2_000) -> MendReport:
    """The fixes of ``problem`` that keep ``key`` (default: the published key), smallest
    first (at most ``max_fixes``).  ``seconds``: each search's limit in a candidate's checks,
    which search within the memory budget ``problem`` was read within.

    When no single change works and there are several cooks, pairs of board changes
    come next: one refuting some cooks, the other the rest (what each refuted alone is
    in its check), the cheapest ``max_pairs`` of them."""
    import ksolve

    started = time.perf_counter()
    if key is not None and key != "any":  # the published key was checked when the problem was read
        reason = key_error([chess.Board(fen) for fen in (problem.positions or [problem.fen])], problem.hidden, key)
        if reason:
            raise SettingError("key", reason)
    key = key or problem.published_key
    if not key:
        raise InputError(f"{problem.source}: published.key: no key to keep (give one)")
    if key == "any":
        raise InputError(f"{problem.source}: published.key: mending a problem whose key is 'Any?' is not supported")
    original = ksolve.verify(problem, limits=ksolve.Limits(seconds), duals=False)
    if original.verdict == "unknown":
        raise InputError(f"{problem.source}: the original's verification was not decided: {original.reason}")
    cooks = [first.move for first in original.keys if first.move != key]
    report = MendReport(problem.source, key, original.verdict, cooks)
    if original.verdict == "sound" and original.published_key_matches is not False and not cooks:
        report.seconds = time.perf_counter() - started
        return report
    edits = sorted(edits_of(problem, kinds, keep=key), key=lambda edit: edit.sort_key)
    checked = _check_all(edits, problem, key, cooks, seconds, client, results, progress, report)
    if not report.fixes and len(cooks) > 1 and max_pairs:
        pairs = _pairs(problem, cooks, checked, max_pairs)
        _check_all(pairs, problem, key, cooks, seconds, client, results, progress, report)
    report.fixes.sort(key=lambda fix: fix.edit.sort_key)
    report.fixes = report.fixes[:max_fixes] if max_fixes is not None else report.fixes
    report.seconds = time.perf_counter() - started
    return report


def _check_all(edits: list[Edit], problem: Problem, key: str, cooks: list[str], seconds: float | None,
               client: "Client | None", results: str | Path | None, progress: RunProgress | None,
               report: MendReport) -> list[tuple[Edit, dict[str, Any]]]:
    """Check every edit as a task; count where each ended and keep the fixes in ``report``."""
    memory = problem.resources.memory if problem.resources is not None else None
    jobs = [CandidateJob(edit.text, f"{problem.source} ({edit.describe()})", key, tuple(cooks), seconds,
                         label=edit.describe(), memory=memory) for edit in edits]
    ended = run_jobs(jobs, ResultsFile(results), client, progress=progress)
    report.candidates += len(jobs)
    checked = []
    for edit, job in zip(edits, jobs):
        result = ended.get(job.key)
        value = result.value if result is not None and result.status == DONE else {"stage": "failed"}
        stage = "sound" if value.get("status") == SOUND else value["stage"]
        report.stages[stage] = report.stages.get(stage, 0) + 1
        if stage == "sound":
            report.fixes.append(Fix(edit, value))
        checked.append((edit, value))
    return checked


def _pairs(problem: Problem, cooks: list[str], checked: list[tuple[Edit, dict[str, Any]]], limit: int) -> list[Edit]:
    """The cheapest ``limit`` pairs of board changes that between them refute every cook."""
    refuting = [(edit, frozenset(value.get("refuted", ()))) for edit, value in checked
                if value.get("stage") == "cooks" and value.get("refuted")]
    everything = frozenset(cooks)
    candidates = sorted(((first, second) for index, (first, some) in enumerate(refuting)
                         for second, rest in refuting[index + 1:] if some | rest == everything),
                        key=lambda pair: (pair[0].cost + pair[1].cost, pair[0].men + pair[1].men,
                                          pair[0].sort_key, pair[1].sort_key))
    pairs = []
    for first, second in candidates:
        both = combined(problem, first, second)
        if both is not None:
            pairs.append(both)
            if len(pairs) == limit:
                break
    return pairs


def mended_text(problem: Problem, report: MendReport, fix: Fix, number: int) -> str:
    """The fix's problem file: the original's fields, its id and title marked as mended
    and a note saying what changed and what the verification found.

    >>> from ksolve.problem import load_problem_text
    >>> edit = Edit("add", "Pa2", 1, 4, 'id = "k"\\nstipulation = "#2"\\n')
    >>> print(mended_text(load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n', default_id="k"),
    ...                   MendReport("k.toml", "c6b6", "cooked", ["c6c7"]), Fix(edit, {"reason": "sound: key 1.Kb6! (#2)", "certified": True}), 1))
    id = "k-mend1"
    stipulation = "#2"
    notes = "Mended by ksolve mend: add Pa2 (the original: cooked, cooks c6c7). Verified: sound: key 1.Kb6! (#2); certificate checked by the independent checker: yes."
    <BLANKLINE>
    """
    document = tomlkit.parse(fix.edit.text)
    document["id"] = f"{problem.id}-mend{number}"
    if "title" in document:
        document["title"] = f"{document['title']} (mended: {fix.edit.describe()})"
    note = (f"Mended by ksolve mend: {fix.edit.describe()} (the original: {report.original}, cooks "
            f"{', '.join(report.cooks) or 'none'}). Verified: {fix.line}; certificate checked by the independent "
            f"checker: {'yes' if fix.certified else 'no'}.")
    notes = f"{document.get('notes', '')}\n{note}".strip()
    document["notes"] = tomlkit.string(notes, multiline=True) if "\n" in notes else notes
    return tomlkit.dumps(document)
