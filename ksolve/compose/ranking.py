"""What composers value in a sound problem, as printed terms and one score:
a quiet key (no check, no capture in any position), the key refused ("No")
in some positions, the "No" branches of the solution, tries refuted in
different ways, and economy (few men).

>>> ranking = Ranking(quiet=True, key_refused=False, no_branches=2, refutations=4, tries=9, men=5)
>>> ranking.score
3.7
>>> ranking.terms()
'quiet key +3, key refused in some positions 0, No branches 2 +2, tries 9 refuted 4 ways +1.2, men 5 -2.5'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

QUIET, KEY_REFUSED, PER_NO_BRANCH, PER_REFUTATION, PER_MAN = 3.0, 2.0, 1.0, 0.3, 0.5
MAX_NO_BRANCHES, MAX_REFUTATIONS = 5, 10
"""The weights, and the counts past which more adds nothing."""


@dataclass(frozen=True)
class Ranking:
    quiet: bool
    key_refused: bool
    no_branches: int
    refutations: int
    """Distinct refutations among the tries."""
    tries: int
    men: int

    @property
    def parts(self) -> list[tuple[str, float]]:
        return [("quiet key" if self.quiet else "key checks or captures", QUIET * self.quiet),
                ("key refused in some positions", KEY_REFUSED * self.key_refused),
                (f"No branches {self.no_branches}", PER_NO_BRANCH * min(self.no_branches, MAX_NO_BRANCHES)),
                (f"tries {self.tries} refuted {self.refutations} ways",
                 PER_REFUTATION * min(self.refutations, MAX_REFUTATIONS)),
                (f"men {self.men}", -PER_MAN * self.men)]

    @property
    def score(self) -> float:
        return round(sum(value for _, value in self.parts), 2)

    def terms(self) -> str:
        return ", ".join(f"{name} {value:+g}" if value else f"{name} 0" for name, value in self.parts)

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "score": self.score, "terms": self.terms()}


def rank(tree, verification: dict[str, Any], men: int) -> Ranking:
    """The ranking of a sound problem from its solution tree (``Solution.tree``) and its
    verification (``Verification.as_dict()``)."""
    root_attempt = next(iter(tree.successors(0)))
    answers = [tree.edges[root_attempt, child] for child in tree.successors(root_attempt)]
    quiet = all(answer.get("san") is None or not any(mark in answer["san"] for mark in "x+#") for answer in answers)
    key_refused = any(answer.get("san") is None for answer in answers)
    no_branches = sum(1 for _, _, data in tree.edges(data=True) if data.get("kind") == "answer" and data.get("san") is None)
    refutations = len({attempt.get("refutation") for attempt in verification["tries"]})
    return Ranking(quiet, key_refused, no_branches, refutations, verification["tries_total"], men)
