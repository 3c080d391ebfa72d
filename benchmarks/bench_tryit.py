"""The workbench's problem check while a Try-it trial searches: ``ksolve serve``
in a subprocess on a free port, a trial of Rotenberg 1976 started and then
1.Ke1 attempted (about 5 s of search: the move throws the mate away), while
one client posts ``/api/problems/check`` every 10 ms, as a page being edited
would.  Writes the check's latency percentiles during the start and during
the step to ``benchmarks/results/tryit.json`` and stops the server.

A search in the server's own process holds the interpreter's lock (numba
kernels keep it while they run): with the trials in the server's thread
pool, the checks waited on it.  ``--server`` measures another build of the
server (a command with ``{port}``).

    python benchmarks/bench_tryit.py --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

import httpx
from common import free_port, machine, running_server

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "results" / "tryit.json"
ROTENBERG = (ROOT / "problems" / "rotenberg-1976.toml").read_text()
STEP = "f1e1"
PAUSE = 0.01
"""Seconds between two checks."""


def checks_while(base: str, work) -> tuple[dict, float, dict]:
    """Post checks every ``PAUSE`` seconds while ``work(client)`` runs in a thread:
    the latencies' figures, the work's seconds and its answer."""
    box: dict = {}

    def run() -> None:
        with httpx.Client(base_url=base, timeout=120) as client:
            started = time.monotonic()
            box["answer"] = work(client)
            box["seconds"] = time.monotonic() - started

    latencies = []
    with httpx.Client(base_url=base, timeout=120) as client:
        thread = threading.Thread(target=run)
        thread.start()
        while thread.is_alive():
            started = time.perf_counter()
            client.post("/api/problems/check", json={"problem": ROTENBERG}).raise_for_status()
            latencies.append(time.perf_counter() - started)
            time.sleep(PAUSE)
        thread.join()
    ordered = sorted(latencies)
    figures = {"checks": len(ordered),
               "latency_ms": {"p50": round(1000 * statistics.median(ordered), 1),
                              "p95": round(1000 * ordered[int(0.95 * (len(ordered) - 1))], 1),
                              "max": round(1000 * ordered[-1], 1)}}
    return figures, box["seconds"], box["answer"]


def one_run(base: str) -> dict:
    def warm(n: int) -> None:  # both processes of the check pool started and loaded
        with httpx.Client(base_url=base, timeout=120) as client:
            for _ in range(n):
                client.post("/api/problems/check", json={"problem": ROTENBERG})

    warmers = [threading.Thread(target=warm, args=(10,)) for _ in range(3)]
    for thread in warmers:
        thread.start()
    for thread in warmers:
        thread.join()
    start, start_seconds, started = checks_while(base, lambda c: c.post("/api/try", json={"problem": ROTENBERG}).json())
    trial = started["id"]
    step, step_seconds, answer = checks_while(
        base, lambda c: c.post(f"/api/try/{trial}/attempt", json={"move": STEP}).json())
    httpx.delete(f"{base}/api/try/{trial}")
    return {"start": {**start, "seconds": round(start_seconds, 2)},
            "step": {**step, "seconds": round(step_seconds, 2), "mate_kept": answer.get("mate_kept")}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="Servers started one after another.")
    parser.add_argument("--server", default=f"{sys.executable} -m ksolve.cli serve --port {{port}}",
                        help="The command that serves on {port}.")
    parser.add_argument("--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    load_average = os.getloadavg()[0]  # other work on the machine weighs on the figures
    runs = []
    for _ in range(args.runs):
        port = free_port()
        with running_server(args.server.format(port=port).split(), port, ROOT) as base:
            runs.append(one_run(base))
        print(json.dumps(runs[-1]))
    figures = {"runs": runs, "machine": machine(), "load_average_before": load_average,
               "command": f"python benchmarks/bench_tryit.py --runs {args.runs}"
                          + (f" --server '{args.server}'" if "ksolve.cli serve" not in args.server else "")}
    args.output.write_text(json.dumps(figures, indent=1) + "\n")


if __name__ == "__main__":
    main()
