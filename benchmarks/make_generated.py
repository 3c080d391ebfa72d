"""Regenerate the benchmark set of issue 6: 3-, 5- and 7-ply mate and near-miss
instances from seeded Berkeley games, under ``benchmarks/generated/plyD/``.

Each depth D is one call of ``ksolve.games.generate.generate`` with its
defaults (greedy White, random Black, 60 plies per game, near-miss
fraction 0.5 over a sample of 12) but 10 s per verdict instead of 2 (see
below), and random endgame starts, one per game, drawn by
``random_endgame_fen`` from their own ``random.Random(S)`` (S: the depth's
seed)::

    rng = random.Random(S)
    fens = [random_endgame_fen(rng) for _ in range(N)]
    generate("berkeley", N, D, S, "benchmarks/generated/plyD", fens=fens, seconds=10)

Equivalent commands (the ``ksolve generate`` command calling ``generate()``,
``--seconds`` for its ``seconds``, with the endgame starts drawn as above)::

    ksolve generate --rules berkeley --games 1000 --ply 3 --seed 3 --seconds 10 -o benchmarks/generated/ply3
    ksolve generate --rules berkeley --games 450 --ply 5 --seed 5 --seconds 10 -o benchmarks/generated/ply5
    ksolve generate --rules berkeley --games 120 --ply 7 --seed 7 --seconds 10 -o benchmarks/generated/ply7

Each folder gets ``mate/*.pgn`` and ``near-miss/*.pgn`` (White's filtered
PGN of the game up to the instance, tags ``Instance``, ``Ply``,
``BeliefSize``, ``Detail``) and ``stats.csv`` (every verdict; its
``seconds`` column differs from run to run, its ``nodes`` column from prover
version to version, nothing else should).  Old instance files of a
regenerated depth are removed first.

Reproducible as long as no verdict reaches its time limit: a verdict that
runs out of time becomes ``unknown`` and draws nothing from the generator's
random stream, which the later games share (see ``generate``), and a
near-miss "most" needs each sampled position proved within seconds / 12.
With the default 2 s, a 7-ply run on this shared 2-core machine had an
``unknown`` verdict and several at 2 s; hence 10 s (the slowest verdict took
1.9 to 3 s in the runs made).  Checked: 7-ply generated three times (once
alongside another generation), 5-ply twice, 3-ply as 1,500 and as 1,000
games: identical files.

    python benchmarks/make_generated.py [--ply 3 5 7] [-o benchmarks/generated]
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ksolve.games.generate import generate, random_endgame_fen  # noqa: E402

RULES = "berkeley"
DEPTHS = {3: (1000, 3), 5: (450, 5), 7: (120, 7)}
SECONDS = 10.0
"""Time limit of one verdict."""
"""Ply depth: (games, seed)."""
KINDS = ("mate", "near-miss")


def make(ply: int, out: Path) -> dict:
    """Generate one depth's instances into ``out``; counts and seconds."""
    games, seed = DEPTHS[ply]
    for kind in KINDS:
        for old in sorted((out / kind).glob("*.pgn")):
            old.unlink()
    rng = random.Random(seed)
    fens = [random_endgame_fen(rng) for _ in range(games)]
    started = time.perf_counter()
    rows = generate(RULES, games, ply, seed, out, fens=fens, seconds=SECONDS)
    seconds = time.perf_counter() - started
    counts = collections.Counter(row["result"] for row in rows)
    return {"ply": ply, "games": games, "seed": seed, "beliefs": len(rows), "seconds": round(seconds, 1),
            **{kind: counts.get(kind, 0) for kind in ("mate", "near-miss", "no", "unknown", "too-large")}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ply", type=int, nargs="*", choices=sorted(DEPTHS), default=sorted(DEPTHS))
    parser.add_argument("-o", "--output", default=str(ROOT / "benchmarks" / "generated"),
                        help="folder of the plyD folders")
    args = parser.parse_args()
    for ply in args.ply:
        summary = make(ply, Path(args.output) / f"ply{ply}")
        print("  ".join(f"{name} {value}" for name, value in summary.items()), flush=True)


if __name__ == "__main__":
    main()
