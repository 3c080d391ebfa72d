"""Matches between named players (ksolve.play.match: ``random``, ``greedy``,
``computer``) as imperfect-information bots are measured: seat-swapped pairs
of games (each pair one seed, the first player White then Black), the first
player's wins, draws and losses (a game stopped at the ply cap is a draw,
counted apart as ``capped``), his score with a 95 % Wilson interval and the
Elo difference with its interval, and each side's seconds per move.

    python benchmarks/bench_match.py [--rules NAME] [--players A B [C D ...]] [--pairs N]
                                     [--max-plies P] [--seed S] [--results DIR]

``--players`` names pairings two by two (``computer random computer greedy``:
two matches).  Each match writes ``match-<rules>-<a>-<b>.json`` (the settings,
every game with its moves, the summary), rewritten after every pair so that a
run cut short keeps its games.  If matplotlib is importable, ``match-<rules>.png``
then plots the score and its interval of every ``match-<rules>-*.json`` in the
results folder (so pairings run in separate processes share one plot).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import machine  # noqa: E402

from ksolve.play.match import PLAYERS, Match, run_match  # noqa: E402
from ksolve.play.session import PLAYABLE  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


def describe(match: Match, elapsed: float) -> str:
    """One progress line: the games so far and the summary."""
    s = match.summary
    last = ", ".join(f"{game.result} {game.ending.value} {game.plies}" for game in match.games[-2:])
    return (f"{match.first} v {match.second} pair {len(match.games) // 2}/{match.pairs} [{last}]: "
            f"+{s.wins} ={s.draws} -{s.losses} (capped {s.capped})  score {100 * s.score:.1f}% "
            f"[{100 * s.score_low:.1f}, {100 * s.score_high:.1f}]  Elo {s.elo:+.0f} [{s.elo_low:+.0f}, {s.elo_high:+.0f}]  "
            f"{elapsed / len(match.games):.1f} s/game, s/move {s.first_seconds_per_move:.3f} / {s.second_seconds_per_move:.3f}, "
            f"refused/move {s.first_refused_per_move:.2f} / {s.second_refused_per_move:.2f}")


def write(match: Match, path: Path, started: float, arguments: list[str]) -> None:
    elapsed = time.perf_counter() - started
    data = {"benchmark": "match", "machine": machine(), "command": ["python", "benchmarks/bench_match.py", *arguments],
            "date": time.strftime("%Y-%m-%d"), "seconds": round(elapsed, 1),
            "seconds_per_game": round(elapsed / max(len(match.games), 1), 2), **match.as_json()}
    path.write_text(json.dumps(data, indent=2) + "\n")


def plot(rules: str, results: Path) -> Path | None:
    """The score and its interval per pairing of every match file of ``rules`` in ``results``
    (None, and says so, without matplotlib)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not importable: no plot (pip install matplotlib to get one)")
        return None
    rows = []
    for path in sorted(results.glob(f"match-{rules}-*.json")):
        data = json.loads(path.read_text())
        if data.get("benchmark") == "match" and data.get("rules") == rules:
            s = data["summary"]
            elo = f"Elo {s['elo']:+.0f} [{s['elo_low']:+.0f}, {s['elo_high']:+.0f}]"
            rows.append((f"{s['first']} v {s['second']}", s["score"], s["score_low"], s["score_high"], elo, s["games"]))
    if not rows:
        return None
    figure, axes = plt.subplots(figsize=(7, 1.2 + 0.6 * len(rows)))
    for y, (label, score, low, high, elo, games) in enumerate(rows):
        axes.errorbar([score], [y], xerr=[[score - low], [high - score]], fmt="o", capsize=4, color="tab:blue")
        axes.annotate(f"{100 * score:.0f}%  {elo}  ({games} games)", (score, y), textcoords="offset points",
                      xytext=(0, 8), ha="center", fontsize=8)
    axes.axvline(0.5, color="grey", linestyle=":", linewidth=1)
    axes.set_yticks(range(len(rows)), [row[0] for row in rows])
    axes.set_ylim(-0.6, len(rows) - 0.4)
    axes.set_xlim(0, 1)
    axes.set_xlabel("score of the first player (95 % Wilson interval)")
    axes.set_title(f"Matches under {rules}")
    figure.tight_layout()
    out = results / f"match-{rules}.png"
    figure.savefig(out, dpi=120)
    plt.close(figure)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="wild16", choices=PLAYABLE)
    parser.add_argument("--players", nargs="+", default=["computer", "random"], choices=list(PLAYERS),
                        help="pairings, two names each (the first of each is the one measured)")
    parser.add_argument("--pairs", type=int, default=50, help="seat-swapped pairs per pairing (two games each)")
    parser.add_argument("--max-plies", type=int, default=200, help="the ply cap: a game still going there is a draw")
    parser.add_argument("--seed", type=int, default=0, help="pair i is played under seed + i")
    parser.add_argument("--results", type=Path, default=RESULTS, help="the folder of the JSON files and the plot")
    arguments = sys.argv[1:]
    args = parser.parse_args(arguments)
    if len(args.players) % 2:
        parser.error("--players takes pairings: an even number of names")
    if args.pairs < 1:
        parser.error("--pairs: at least one pair")
    args.results.mkdir(parents=True, exist_ok=True)
    for first, second in zip(args.players[::2], args.players[1::2]):
        path = args.results / f"match-{args.rules}-{first}-{second}.json"
        started = time.perf_counter()
        print(f"{args.rules}: {first} v {second}, {args.pairs} pairs ({2 * args.pairs} games), "
              f"ply cap {args.max_plies}, seeds {args.seed}..{args.seed + args.pairs - 1}", flush=True)

        def progress(match: Match) -> None:
            write(match, path, started, arguments)
            print(describe(match, time.perf_counter() - started), flush=True)

        match = run_match(args.rules, first, second, args.pairs, args.max_plies, args.seed, progress=progress)
        write(match, path, started, arguments)
        print(f"written {path}")
    picture = plot(args.rules, args.results)
    if picture is not None:
        print(f"written {picture}")


if __name__ == "__main__":
    main()
