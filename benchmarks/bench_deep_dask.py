"""One deep verification on Dask workers (``ksolve.execution.first_moves``): how the
time falls from 1 to 2 workers, and a cost model that predicts 8 and 64.

Per problem, in one run:

- ``this process``: ``ksolve.verification.verify`` (the reference verdict and time);
- ``1 worker`` and ``2 workers``: ``verify_on_dask`` on a local cluster of one-thread
  worker processes, started and warmed up (kernels loaded) before the clock starts;
  each report must equal the reference's (verdict, keys, tries, refutations, duals:
  everything but nodes and seconds), or the run says so.

The cost model (``predict``), fitted on the 1- and 2-worker runs:

- each first attempt's task takes what it took on 1 worker (its search seconds, as
  the worker measured them);
- a worker's first task pays a set-up ``w`` once (its analysis, its prover, the
  lone-king engine's tables): measured on the 2-worker run's second worker, against
  the same attempt's time on 1 worker, and taken off the 1-worker run's first task;
- on more than one worker the tasks do more work (``r``: what a task of one worker
  no longer finds in the tables the other's tasks filled), measured on 2 workers;
- every task adds the same overhead ``o`` (scheduler, transfer, the result's merge):
  the 1-worker wall time, less the tasks', the set-ups' and the duals' seconds and
  the manager's set-up ``s`` (its analysis, the problem scattered), per task;
- ``k`` workers run the tasks largest first, each to the worker free first (LPT:
  Dask's own order is the attempts', so the model is optimistic there), then the
  duals' task: T(k) = s + w + makespan_k(r t_i + o) + duals.

Assumptions: ``r`` stays what it is on 2 workers (more workers share less, so 8 and
64 are optimistic); the scheduler's overhead per task does not grow with the
workers (Dask: about 1 ms a task, far below the tasks here); a core per worker (8
and 64 are a cluster's, not this 2-core machine's).  The floor it shows: splitting
at the first move, no k does better than ``s + w`` plus the longest task.

    python benchmarks/bench_deep_dask.py [--only NAME ...] [--timeout S] [-o OUT.json]
"""

from __future__ import annotations

import argparse
import heapq
import json
import sys
import time
from pathlib import Path

from common import machine

import ksolve
from ksolve.attempts import attempt_text
from ksolve.execution.cluster import cluster_client
from ksolve.execution.first_moves import verify_on_dask
from ksolve.search.run import Limits
from ksolve.verification import verify

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "results" / "deep-dask.json"
PROBLEMS = {
    "rotenberg-1976": ROOT / "problems" / "rotenberg-1976.toml",
    "kq-k-8x8": ROOT / "benchmarks" / "deep" / "kq-k-8x8.toml",
    "kq-k-6x6": ROOT / "benchmarks" / "deep" / "kq-k-6x6.toml",
    "anderson-31": ROOT / "problems" / "anderson-31.toml",
}
PREDICTED_WORKERS = (1, 2, 8, 64)


def comparable(report) -> dict:
    """What must be the same wherever the verification ran."""
    data = report.as_dict()
    return {key: value for key, value in data.items() if key not in ("nodes", "seconds")}


def makespan(durations: list[float], workers: int) -> float:
    """The end of the last task, the largest first, each to the worker free first."""
    free = [0.0] * workers
    for duration in sorted(durations, reverse=True):
        heapq.heappush(free, heapq.heappop(free) + duration)
    return max(free)


def worker_setup(one_worker: dict, two_workers: dict) -> float:
    """What a worker's first task pays once (its analysis, prover and tables): the first
    task of the 2-worker run's second worker, less what the same attempt took as a later
    task of the 1-worker run."""
    alone = {task["first"]: task["seconds"] for task in one_worker["tasks"]}
    first_worker = two_workers["tasks"][0]["worker"]
    second = next((task for task in two_workers["tasks"] if task["worker"] != first_worker), None)
    return 0.0 if second is None else max(0.0, second["seconds"] - alone[second["first"]])


def predict(one_worker: dict, two_workers: dict) -> dict:
    """The model fitted on the 1- and 2-worker runs, and its predictions."""
    setup_worker = worker_setup(one_worker, two_workers)
    tasks = [task["seconds"] for task in one_worker["tasks"]]
    tasks[0] = max(0.0, tasks[0] - setup_worker)
    setup = one_worker["setup_seconds"]
    overhead = max(0.0, (one_worker["seconds"] - setup - setup_worker - sum(tasks) - one_worker["duals_seconds"])
                   / len(tasks))
    two_sum = sum(task["seconds"] for task in two_workers["tasks"]) - 2 * setup_worker
    inflation = max(1.0, two_sum / sum(tasks)) if sum(tasks) else 1.0
    model = {"tasks": len(tasks), "task_seconds_sum": round(sum(tasks), 3), "longest_task": round(max(tasks), 3),
             "overhead_per_task": round(overhead, 4), "setup_seconds": round(setup, 3),
             "worker_setup_seconds": round(setup_worker, 3), "work_inflation": round(inflation, 3),
             "duals_seconds": round(one_worker["duals_seconds"], 3)}
    model["predicted_seconds"] = {
        str(k): round(setup + setup_worker + makespan([t * (inflation if k > 1 else 1.0) + overhead for t in tasks], k)
                      + one_worker["duals_seconds"], 2)
        for k in PREDICTED_WORKERS}
    return model


def warm_up() -> str:
    """Load the numba kernels (from the disk cache): a mate in 1 verified."""
    problem = ksolve.load_problem_text('stipulation = "#1"\nrules = "berkeley"\n[position]\n'
                                       'fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\n')
    return ksolve.verify(problem).verdict


def on_workers(problem, workers: int, timeout: float) -> tuple[dict, object]:
    with cluster_client(jobs=workers, memory_limit="6GB") as client:
        client.wait_for_workers(workers, timeout=120)
        client.run(warm_up)
        started = time.perf_counter()
        spread = verify_on_dask(problem, client, limits=Limits(timeout))
        seconds = time.perf_counter() - started
    run = {"workers": workers, "seconds": round(seconds, 2), "verdict": spread.report.verdict,
           "duals_seconds": round(spread.duals_seconds, 3),
           "setup_seconds": round(spread.setup_seconds, 3),
           "tasks": [{"first": attempt_text(task.first), "seconds": round(task.seconds, 4), "nodes": task.nodes,
                      "worker": task.worker} for task in spread.outcomes]}
    return run, spread.report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", choices=sorted(PROBLEMS))
    parser.add_argument("--timeout", type=float, default=300.0)
    parser.add_argument("-o", "--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    warm_up()
    rows = []
    for name in args.only or list(PROBLEMS):
        problem = ksolve.load_problem(str(PROBLEMS[name]))
        started = time.perf_counter()
        reference = verify(problem, limits=Limits(args.timeout))
        here = time.perf_counter() - started
        row = {"problem": name, "positions": len(problem.belief()), "verdict": reference.verdict,
               "this_process_seconds": round(here, 2)}
        for workers in (1, 2):
            run, report = on_workers(problem, workers, args.timeout)
            run["same_report"] = comparable(report) == comparable(reference)
            row[f"{workers}_workers"] = run
        row["speedup_2_over_1"] = round(row["1_workers"]["seconds"] / row["2_workers"]["seconds"], 2)
        row["model"] = predict(row["1_workers"], row["2_workers"])
        row["model"]["measured_2"] = row["2_workers"]["seconds"]
        rows.append(row)
        print(f"{name}: this process {here:.1f} s; 1 worker {row['1_workers']['seconds']} s, 2 workers "
              f"{row['2_workers']['seconds']} s ({row['speedup_2_over_1']}x), same report "
              f"{row['1_workers']['same_report'] and row['2_workers']['same_report']}; predicted "
              f"{row['model']['predicted_seconds']}", file=sys.stderr)
    args.output.write_text(json.dumps({"benchmark": "deep-dask", "date": time.strftime("%Y-%m-%dT%H:%M:%S"),
                                       "machine": machine(), "timeout": args.timeout, "results": rows},
                                      indent=2) + "\n")


if __name__ == "__main__":
    main()
