"""A bounded load test of the workbench on loopback: ``ksolve serve`` in a
subprocess on a free port, two verifications of Rotenberg 1976 running (each
in its worker process, about 30 s of work: they outlast the test), and 50
clients posting ``/api/problems/check`` as fast as the answers come, for
``--seconds`` (10).  Writes the latency percentiles and the counts to
``benchmarks/results/web.json``, cancels the jobs and stops the server.

Each client is a kept-alive HTTP/1.1 connection sending the same prepared
request (asyncio streams, a few microseconds of work per request): on a
2-core machine shared by the server, its check workers, the verifications
and the clients, a general HTTP client's own work would weigh on the figures.

    python benchmarks/bench_web.py --seconds 10 --clients 50
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path

import httpx
from common import free_port, machine, running_server

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "results" / "web.json"
ROTENBERG = (ROOT / "problems" / "rotenberg-1976.toml").read_text()


def check_request(port: int) -> bytes:
    body = json.dumps({"problem": ROTENBERG}).encode()
    return (f"POST /api/problems/check HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


async def one_client(port: int, end: float, latencies: list[float], statuses: dict[str, int]) -> None:
    """Post the check over one kept-alive connection until ``end``."""
    request = check_request(port)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    while time.monotonic() < end:
        start = time.perf_counter()
        writer.write(request)
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        await reader.readexactly(length)
        latencies.append(time.perf_counter() - start)
        status = head.split(b" ", 2)[1].decode()
        statuses[status] = statuses.get(status, 0) + 1
    writer.close()


async def load(base: str, port: int, clients: int, seconds: float, verifications: int) -> dict:
    latencies: list[float] = []
    statuses: dict[str, int] = {}
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        jobs = [(await client.post("/api/jobs", json={"problem": ROTENBERG, "action": "verify"})).json()["id"]
                for _ in range(verifications)]
        await client.post("/api/problems/check", json={"problem": ROTENBERG})  # the check pool's first load
        started = time.monotonic()
        await asyncio.gather(*(one_client(port, started + seconds, latencies, statuses) for _ in range(clients)))
        elapsed = time.monotonic() - started
        states = [(await client.get(f"/api/jobs/{job}")).json() for job in jobs]
        for job in jobs:
            await client.delete(f"/api/jobs/{job}")
    ordered = sorted(latencies)
    return {
        "clients": clients, "verifications": verifications, "seconds": round(elapsed, 2), "requests": len(latencies), "statuses": statuses,
        "requests_per_second": round(len(latencies) / elapsed, 1),
        "latency_ms": {"p50": round(1000 * statistics.median(ordered), 1),
                       "p95": round(1000 * ordered[int(0.95 * (len(ordered) - 1))], 1),
                       "p99": round(1000 * ordered[int(0.99 * (len(ordered) - 1))], 1),
                       "max": round(1000 * ordered[-1], 1)},
        "verifications_running_at_the_end": sum(state["state"] == "running" for state in states),
        "verification_progress_at_the_end": [state["progress"] for state in states],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--verifications", type=int, default=2, help="Verifications running meanwhile.")
    args = parser.parse_args()
    load_average = os.getloadavg()[0]  # other work on the machine weighs on the figures
    port = free_port()
    command = [sys.executable, "-m", "ksolve.cli", "serve", "--port", str(port), "--jobs", "2"]
    with running_server(command, port, ROOT) as base:
        figures = asyncio.run(load(base, port, args.clients, args.seconds, args.verifications))
    figures["machine"] = machine()
    figures["load_average_before"] = load_average
    figures["command"] = (f"python benchmarks/bench_web.py --seconds {args.seconds:g} --clients {args.clients} "
                          f"--verifications {args.verifications}")
    RESULTS.write_text(json.dumps(figures, indent=1) + "\n")
    print(json.dumps({key: figures[key] for key in ("requests", "requests_per_second", "statuses", "latency_ms",
                                                    "verifications_running_at_the_end", "load_average_before")}))


if __name__ == "__main__":
    main()
