"""Whole-process times: what start-up costs, and Rotenberg 1976 solved and verified.

Each command runs as a fresh process (warm numba cache), ``--repeats`` times;
the median wall time is reported, with the peak resident size.  The
references, measured in the same run: ``python -c pass`` and ``import numba``
(the floor any numba program pays), and a mate in one (every kernel a solve
loads, no search to speak of).  The rows without ``--jobs 2`` are one process
(``--jobs 1``; ``solve`` and ``verify`` use a worker per core by default);
``--jobs 2`` is the same solve or verification over two worker processes: its
ratio to one process is the speed-up on this machine's cores.

    python benchmarks/bench_startup.py [--repeats 5] [-o OUT.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine  # noqa: E402

MATE_IN_ONE = 'stipulation = "#1"\nrules = "berkeley"\n[position]\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\n'
ROTENBERG = str(ROOT / "problems" / "rotenberg-1976.toml")


def commands(mate_in_one: str) -> dict[str, list[str]]:
    python = [sys.executable]
    ksolve = python + ["-m", "ksolve.cli"]
    return {
        "python -c pass": python + ["-c", "pass"],
        "import numba": python + ["-c", "import numba"],
        "import ksolve.api": python + ["-c", "import ksolve.api"],
        "ksolve --help": ksolve + ["--help"],
        "solve #1": ksolve + ["solve", mate_in_one, "--jobs", "1"],
        "solve #1 --jobs 2": ksolve + ["solve", mate_in_one, "--jobs", "2"],
        "solve rotenberg": ksolve + ["solve", ROTENBERG, "--jobs", "1"],
        "solve rotenberg --at-most": ksolve + ["solve", ROTENBERG, "--at-most", "--jobs", "1"],
        "solve rotenberg --jobs 2": ksolve + ["solve", ROTENBERG, "--jobs", "2"],
        "solve rotenberg --at-most --jobs 2": ksolve + ["solve", ROTENBERG, "--at-most", "--jobs", "2"],
        "verify rotenberg": ksolve + ["verify", ROTENBERG, "--jobs", "1"],
        "verify rotenberg --jobs 2": ksolve + ["verify", ROTENBERG, "--jobs", "2"],
    }


def run(command: list[str]) -> tuple[float, int]:
    """Wall seconds and peak resident MB of one process (the largest of it and its workers)."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)}: exit {child.returncode}")
    return time.perf_counter() - start, round(usage.ru_maxrss / 1024)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", nargs="*", help="Names of the commands to run.")
    parser.add_argument("-o", "--output", default=str(ROOT / "benchmarks" / "results" / "startup.json"))
    args = parser.parse_args()
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as file:
        file.write(MATE_IN_ONE)
    rows = []
    for name, command in commands(file.name).items():
        if args.only and name not in args.only:
            continue
        runs = [run(command) for _ in range(args.repeats)]
        seconds = statistics.median(wall for wall, _ in runs)
        row = {"command": name, "median_seconds": round(seconds, 3),
               "all_seconds": [round(wall, 3) for wall, _ in runs], "peak_mb": max(peak for _, peak in runs)}
        rows.append(row)
        print(f"{name:30} {seconds:7.2f} s  {row['peak_mb']:5} MB", flush=True)
    os.unlink(file.name)
    by_name = {row["command"]: row["median_seconds"] for row in rows}
    ratios = {}
    if "verify rotenberg" in by_name and "verify rotenberg --jobs 2" in by_name:
        ratios["verify speed-up, 2 jobs"] = round(by_name["verify rotenberg"] / by_name["verify rotenberg --jobs 2"], 2)
    if "solve rotenberg" in by_name and "solve rotenberg --jobs 2" in by_name:
        ratios["solve speed-up, 2 jobs"] = round(by_name["solve rotenberg"] / by_name["solve rotenberg --jobs 2"], 2)
    if "solve #1" in by_name and "solve rotenberg" in by_name:
        ratios["rotenberg solve / mate-in-one start-up"] = round(by_name["solve rotenberg"] / by_name["solve #1"], 2)
    for name, ratio in ratios.items():
        print(f"{name}: {ratio}")
    Path(args.output).write_text(json.dumps({"benchmark": "startup", "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
                                             "machine": machine(), "repeats": args.repeats, "results": rows,
                                             "ratios": ratios}, indent=2) + "\n")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
