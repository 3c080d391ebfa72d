"""A bounded load test of the workbench on loopback, with its locks on and off in
the same run.  Each round starts a server in a subprocess on a free port, two
verifications of Rotenberg 1976 running (each in its worker process, about 30 s
of work: they outlast the round), and 50 clients posting
``/api/problems/check`` as fast as the answers come, for ``--seconds`` (10);
then cancels the jobs and stops the server.  The rounds alternate:

- ``locked``: ``ksolve serve --token T`` as a user runs it: the Host, Origin,
  token and JSON checks (``ksolve/web/security.py``), the per-client limits
  (``client_limits.py``) and the bounded connections (``connections.py``); each
  request carries the token and the page's own ``Origin`` and ``Sec-Fetch-Site``;
- ``unlocked``: the same app without them (``create_app(locked=False)`` under
  uvicorn's own protocol), the reference.

The figure is the ratio of the locked rounds' median latency to the unlocked
rounds' (the issue's bound: at most 1.10).  ``--abuse`` also measures what one
client can hold on each server: idle connections and connections dripping a
request's head a byte a second, and whether a request from another address
(127.0.0.2) is answered meanwhile.  Writes ``benchmarks/results/web.json``.

Each client is a kept-alive HTTP/1.1 connection sending the same prepared
request (asyncio streams, a few microseconds of work per request): on a
2-core machine shared by the server, its check workers, the verifications
and the clients, a general HTTP client's own work would weigh on the figures.

    python benchmarks/bench_web.py --seconds 10 --clients 50 --rounds 2 --abuse
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

import httpx
from common import free_port, machine, running_server

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "results" / "web.json"
ROTENBERG = (ROOT / "problems" / "rotenberg-1976.toml").read_text()
TOKEN = "bench-web-token-0123456789"
VARIANTS = ("unlocked", "locked")


def page_headers(port: int, variant: str) -> dict[str, str]:
    """What the workbench's own page sends (the token's header for the locked server)."""
    if variant == "unlocked":
        return {}
    return {"Authorization": f"Bearer {TOKEN}", "Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"}


def check_request(port: int, variant: str) -> bytes:
    body = json.dumps({"problem": ROTENBERG}).encode()
    extra = "".join(f"{name}: {value}\r\n" for name, value in page_headers(port, variant).items())
    return (f"POST /api/problems/check HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"{extra}Content-Length: {len(body)}\r\n\r\n").encode() + body


async def one_client(request: bytes, port: int, end: float, latencies: list[float], statuses: dict[str, int]) -> None:
    """Post the check over one kept-alive connection until ``end``."""
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


async def load(base: str, port: int, variant: str, clients: int, seconds: float, verifications: int) -> dict:
    latencies: list[float] = []
    statuses: dict[str, int] = {}
    async with httpx.AsyncClient(base_url=base, timeout=30, headers=page_headers(port, variant)) as client:
        jobs = [(await client.post("/api/jobs", json={"problem": ROTENBERG, "action": "verify"})).json()["id"]
                for _ in range(verifications)]
        await client.post("/api/problems/check", json={"problem": ROTENBERG})  # the check pool's first load
        request = check_request(port, variant)
        started = time.monotonic()
        await asyncio.gather(*(one_client(request, port, started + seconds, latencies, statuses)
                               for _ in range(clients)))
        elapsed = time.monotonic() - started
        states = [(await client.get(f"/api/jobs/{job}")).json() for job in jobs]
        for job in jobs:
            await client.delete(f"/api/jobs/{job}")
    ordered = sorted(latencies)
    return {
        "variant": variant, "seconds": round(elapsed, 2), "requests": len(latencies), "statuses": statuses,
        "requests_per_second": round(len(latencies) / elapsed, 1),
        "latency_ms": {"p50": round(1000 * statistics.median(ordered), 1),
                       "p95": round(1000 * ordered[int(0.95 * (len(ordered) - 1))], 1),
                       "p99": round(1000 * ordered[int(0.99 * (len(ordered) - 1))], 1),
                       "max": round(1000 * ordered[-1], 1)},
        "verifications_running_at_the_end": sum(state["state"] == "running" for state in states),
    }


# --- abuse: what one client can hold -----------------------------------------------------------
async def still_open(reader: asyncio.StreamReader) -> bool:
    """Whether the server still holds the connection without a word (neither an answer nor its end)."""
    try:
        await asyncio.wait_for(reader.read(1), 0.05)
    except asyncio.TimeoutError:
        return True
    except OSError:
        pass
    return False


async def abuse(port: int, variant: str, idle: int, drips: int, seconds: float) -> dict:
    """``idle`` connections that send nothing and ``drips`` that send a request's head a byte a
    second, all from 127.0.0.1; then how many the server still holds after ``seconds``, and
    whether a request from 127.0.0.2 was answered meanwhile."""
    held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(idle)]
    dripping = [await asyncio.open_connection("127.0.0.1", port) for _ in range(drips)]
    answered: list[int] = []
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=10,
                                 headers=page_headers(port, variant)) as other:
        for second in range(int(seconds)):
            for _, writer in dripping:
                if not writer.is_closing():
                    writer.write(b"GET /api/info HTTP/1.1\r\nX"[second % 20:second % 20 + 1])
            try:
                answered.append((await other.get("/api/info")).status_code)
            except httpx.HTTPError:
                answered.append(0)
            await asyncio.sleep(1)
    figures = {"variant": variant, "seconds": seconds,
               "idle_opened": idle, "idle_still_open": sum([await still_open(r) for r, _ in held]),
               "dripping_opened": drips, "dripping_still_open": sum([await still_open(r) for r, _ in dripping]),
               "other_address_answers": {str(code): answered.count(code) for code in sorted(set(answered))}}
    for _, writer in held + dripping:
        writer.close()
    return figures


# --- the servers -------------------------------------------------------------------------------
def server_command(variant: str, port: int) -> list[str]:
    if variant == "locked":
        return [sys.executable, "-m", "ksolve.cli", "serve", "--port", str(port), "--jobs", "2", "--token", TOKEN]
    return [sys.executable, __file__, "--serve-unlocked", str(port)]


def serve_unlocked(port: int) -> None:
    """The reference server: the app without its locks, under uvicorn's own protocol."""
    import uvicorn

    from ksolve.web.app import create_app
    from ksolve.web.server import JobsFirstServer, bind

    app = create_app(None, max_running=2, locked=False)
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=3)
    JobsFirstServer(config, app.state.jobs).run(sockets=[bind("127.0.0.1", port)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--verifications", type=int, default=2, help="Verifications running meanwhile.")
    parser.add_argument("--rounds", type=int, default=2, help="Rounds of each variant, alternating.")
    parser.add_argument("--abuse", action="store_true", help="Also measure what one client can hold.")
    parser.add_argument("--idle", type=int, default=2000, help="Idle connections of the abuse.")
    parser.add_argument("--serve-unlocked", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_unlocked:
        return serve_unlocked(args.serve_unlocked)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the abuse's idle connections
    load_average = os.getloadavg()[0]  # other work on the machine weighs on the figures
    rounds, abused = [], []
    for _ in range(args.rounds):
        for variant in VARIANTS:
            port = free_port()
            with running_server(server_command(variant, port), port, ROOT, page_headers(port, variant)) as base:
                rounds.append(asyncio.run(load(base, port, variant, args.clients, args.seconds, args.verifications)))
    if args.abuse:
        for variant in VARIANTS:
            port = free_port()
            with running_server(server_command(variant, port), port, ROOT, page_headers(port, variant)):
                abused.append(asyncio.run(abuse(port, variant, args.idle, 50, 15)))
    median = {variant: statistics.median(r["latency_ms"]["p50"] for r in rounds if r["variant"] == variant)
              for variant in VARIANTS}
    figures = {
        "clients": args.clients, "verifications": args.verifications, "rounds": rounds,
        "p50_ms_median_of_rounds": median,
        "locked_over_unlocked": round(median["locked"] / median["unlocked"], 3),
        "abuse": abused, "machine": machine(), "load_average_before": load_average,
        "command": (f"python benchmarks/bench_web.py --seconds {args.seconds:g} --clients {args.clients} "
                    f"--verifications {args.verifications} --rounds {args.rounds}{' --abuse' if args.abuse else ''}"),
    }
    RESULTS.write_text(json.dumps(figures, indent=1) + "\n")
    print(json.dumps({key: figures[key] for key in ("p50_ms_median_of_rounds", "locked_over_unlocked", "abuse",
                                                    "load_average_before")}))
    for r in rounds:
        print(r["variant"], r["requests_per_second"], "req/s", r["statuses"], r["latency_ms"])


if __name__ == "__main__":
    main()
