"""The subsumption index on large beliefs: what noting a decided belief and
looking beliefs up cost as the belief grows, against sorting its hashes.

For each size n (10^4, 10^5, 10^6 positions; ``--sizes``) a belief of n
positions with White's men fixed (the rows of one group) is built from
random hashes, and, best of ``--repeats``:

- ``note``: indexing it, won in 3 and lost in 2 (``Subsumption.note``);
- ``contained``: looking up its first n - 1 positions within 3 moves (the
  proof of the whole covers the subset);
- ``containing``: looking up a superset of n + 1 positions within 2 moves
  (the disproof of the whole covers the superset);
- ``unrelated``: looking up n other positions within 2 moves (no answer:
  the sample of the indexed hashes is missed at once).

Each is also given as a ratio to ``np.sort`` of n random 64-bit hashes in
the same run, the O(n log n) reference: a ratio that stays flat from 10^4
to 10^6 is O(n log n) or better (the bit masks this replaced grew
quadratically: a 3.4M-position belief took 245 s to note and look up).

    python benchmarks/bench_subsume.py [-o benchmarks/results/subsume.json] [--sizes 10000 100000 1000000]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import best_of, machine  # noqa: E402


def beliefs(size: int, seed: int = 1):
    """A belief of ``size`` positions (one group: White's men and state alike),
    its subset without the last position, a superset with one more, and an
    unrelated belief of the same size."""
    from ksolve.belief import BeliefState
    from ksolve.board.layout import COLUMN_HASH, POSITION_WIDTH

    rng = np.random.default_rng(seed)
    hashes = np.unique(rng.integers(1, 2**63, size=3 * size + 2, dtype=np.uint64))
    rng.shuffle(hashes)
    whole, other, extra = np.sort(hashes[:size]), np.sort(hashes[size:2 * size]), hashes[2 * size]

    def belief(values: np.ndarray) -> BeliefState:
        rows = np.zeros((len(values), POSITION_WIDTH), dtype=np.uint64)
        rows[:, COLUMN_HASH] = np.sort(values)
        return BeliefState(rows)

    return belief(whole), belief(whole[:-1]), belief(np.append(whole, extra)), belief(other)


def measure(size: int, repeats: int) -> dict:
    from ksolve.search.subsume import Subsumption
    from ksolve.search.table import Entry

    whole, subset, superset, unrelated = beliefs(size)
    reference, _ = best_of(repeats, lambda: np.sort(np.random.default_rng(2).integers(0, 2**63, size,
                                                                                      dtype=np.uint64)))

    def noted() -> Subsumption:
        index = Subsumption()
        index.note(whole, 0, Entry(proven=3, disproven=2, move=7))
        return index

    note, index = best_of(repeats, noted)
    timings = {"note": note}
    expected = {"contained": (subset, 3, "proven"), "containing": (superset, 2, "disproven"),
                "unrelated": (unrelated, 2, None)}
    for name, (belief, moves, answer) in expected.items():
        seconds, found = best_of(repeats, lambda: index.lookup(belief, 0, moves))
        assert (found is None) == (answer is None), name
        timings[name] = seconds
    return {"positions": size, "sort_seconds": round(reference, 5),
            **{f"{name}_seconds": round(seconds, 5) for name, seconds in timings.items()},
            **{f"{name}_per_sort": round(seconds / reference, 2) for name, seconds in timings.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", default=str(ROOT / "benchmarks" / "results" / "subsume.json"))
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rows = []
    for size in args.sizes:
        rows.append(measure(size, args.repeats))
        print(json.dumps(rows[-1]), flush=True)
    result = {"benchmark": "subsume", "date": time.strftime("%Y-%m-%d"), "machine": machine(), "rows": rows}
    Path(args.output).write_text(json.dumps(result, indent=1) + "\n")
    print(f"written to {args.output}")


if __name__ == "__main__":
    main()
