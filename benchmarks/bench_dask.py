"""Runs on Dask (``ksolve.execution``): the bundled problems' verification and a
generated set of games, in this process and on 1 and 2 local worker
processes, and on a loopback cluster (a ``dask scheduler`` and worker
processes started and stopped here); the scheduler's overhead per task
(no-op tasks through ``run_tasks``).  Writes ``benchmarks/results/dask.json``
(speed-ups as ratios against this process, measured in the same run).

    python benchmarks/bench_dask.py                 # games=1000, the figures in the README
    python benchmarks/bench_dask.py --games 40 --no-loopback   # a quick look

Each configuration starts its cluster before the clock starts (workers import
ksolve; numba's kernels come from the on-disk cache), and writes its results
file into a fresh temporary folder (no resume between configurations).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from common import free_port, machine

import ksolve
from ksolve.games.generate import endgame_starts
from ksolve.games.generate import generate as generate_on_cluster
from ksolve.execution.results import ResultsFile
from ksolve.execution.cluster import Task, cluster_client, run_tasks
from ksolve.execution.collection import verify_all
from ksolve.execution.options import RunOptions

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "results" / "dask.json"
LEFT_OUT = {"anderson-37": "not decided within 300 s (benchmarks/results/verify.json)"}


@contextmanager
def loopback_cluster(workers: int) -> Iterator[str]:
    """``dask scheduler`` and ``workers`` × ``dask worker --nthreads 1`` on 127.0.0.1, stopped after."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    dask = str(Path(sys.executable).with_name("dask"))
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    processes = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                   "--dashboard-address", ":0"], **quiet)]
    try:
        time.sleep(2)
        processes += [subprocess.Popen([dask, "worker", address, "--nthreads", "1", "--nworkers", "1",
                                        "--no-dashboard", "--memory-limit", "4GB"], cwd=ROOT, **quiet)
                      for _ in range(workers)]
        yield address
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()


def configurations(loopback: int) -> list[tuple[str, dict]]:
    rows = [("this process", {}), ("1 worker", {"jobs": 1}), ("2 workers", {"jobs": 2})]
    if loopback:
        rows.append((f"loopback cluster, {loopback} workers", {"loopback": loopback}))
    return rows


def warm_up() -> str:
    """Load the numba kernels (from the disk cache) in this process: a mate in 1 verified."""
    problem = ksolve.load_problem_text('stipulation = "#1"\nrules = "berkeley"\n[position]\n'
                                       'fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\n')
    return ksolve.verify(problem).verdict


@contextmanager
def client_of(setting: dict, workers_wanted: int) -> Iterator:
    """No client (this process), or a cluster's, its workers warmed up before the clock starts."""
    if not setting:
        warm_up()
        yield None
    elif "loopback" in setting:
        with loopback_cluster(setting["loopback"]) as address, cluster_client(scheduler=address) as client:
            client.wait_for_workers(setting["loopback"], timeout=120)
            client.run(warm_up)
            yield client
    else:
        with cluster_client(jobs=setting["jobs"], memory_limit="4GB") as client:
            client.wait_for_workers(setting["jobs"], timeout=120)
            client.run(warm_up)
            yield client


def bench_verify(problems, setting: dict, timeout: float) -> dict:
    with client_of(setting, setting.get("jobs", 0)) as client, tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        reports = verify_all(problems, RunOptions(seconds=timeout), client=client, results=Path(folder) / "run.jsonl")
        seconds = time.perf_counter() - started
    return {"seconds": round(seconds, 2), "verdicts": {p.id: r.verdict for p, r in reports}}


def bench_generate(games: int, setting: dict, ply: int, seed: int) -> dict:
    fens = endgame_starts(games, seed)
    with client_of(setting, setting.get("jobs", 0)) as client, tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        rows = generate_on_cluster("berkeley", games, ply, seed, folder, fens=fens, client=client, seconds=2.0)
        seconds = time.perf_counter() - started
    results = [row["result"] for row in rows]
    return {"seconds": round(seconds, 2), "turns": len(rows), "mate": results.count("mate"),
            "near-miss": results.count("near-miss"), "games_per_second": round(games / seconds, 2)}


def bench_overhead(tasks: int, setting: dict) -> dict:
    """Seconds per no-op task (``abs``) through ``run_tasks``, results file included."""
    with client_of(setting, setting.get("jobs", 0)) as client, tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        run_tasks([Task(f"noop-{n}", abs, (-n,)) for n in range(tasks)], ResultsFile(Path(folder) / "r.jsonl"),
                  client)
        seconds = time.perf_counter() - started
    return {"tasks": tasks, "seconds": round(seconds, 3), "ms_per_task": round(1000 * seconds / tasks, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--ply", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=120.0, help="Each verification's limit.")
    parser.add_argument("--noop-tasks", type=int, default=1000)
    parser.add_argument("--loopback", type=int, default=2, help="Workers of the loopback cluster (0: none).")
    parser.add_argument("--no-loopback", dest="loopback", action="store_const", const=0)
    parser.add_argument("--only", nargs="*", help="Verify only these bundled problems (names without .toml).")
    parser.add_argument("-o", "--output", type=Path, default=RESULTS)
    args = parser.parse_args()

    problems = [ksolve.load_problem(path) for path in sorted((ROOT / "problems").glob("*.toml"))
                if path.stem not in LEFT_OUT and (not args.only or path.stem in args.only)]
    data: dict = {"machine": machine(), "load": f"os.getloadavg() at start: {os.getloadavg()}",
                  "command": " ".join(["python", "benchmarks/bench_dask.py", *sys.argv[1:]]),
                  "left_out": LEFT_OUT, "verify": {}, "generate": {"games": args.games, "ply": args.ply}, "overhead": {}}
    for name, setting in configurations(args.loopback):
        print(f"verify, {name}...", flush=True)
        data["verify"][name] = bench_verify(problems, setting, args.timeout)
        print(f"  {data['verify'][name]['seconds']} s", flush=True)
        print(f"generate {args.games} games, {name}...", flush=True)
        data["generate"][name] = bench_generate(args.games, setting, args.ply, args.seed)
        print(f"  {data['generate'][name]['seconds']} s", flush=True)
        data["overhead"][name] = bench_overhead(args.noop_tasks, setting)
        print(f"  no-op tasks: {data['overhead'][name]['ms_per_task']} ms each", flush=True)
    alone = data["verify"]["this process"]
    for part in ("verify", "generate"):
        base = data[part]["this process"]["seconds"]
        data[part]["speed_up_vs_this_process"] = {name: round(base / row["seconds"], 2)
                                                  for name, row in data[part].items() if isinstance(row, dict)
                                                  and "seconds" in row}
    data["verify"]["same_verdicts_everywhere"] = all(row["verdicts"] == alone["verdicts"]
                                                     for name, row in data["verify"].items()
                                                     if isinstance(row, dict) and "verdicts" in row)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(data, indent=1) + "\n")
    print(json.dumps({part: data[part].get("speed_up_vs_this_process") for part in ("verify", "generate")}))
    print(f"written to {args.output}")


if __name__ == "__main__":
    main()
