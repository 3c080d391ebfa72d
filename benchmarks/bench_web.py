"""A bounded load test of the workbench on loopback, with its locks on and off in
the same run.  Two servers run side by side on free ports, each in a
subprocess with one verification of Rotenberg 1976 running (in its worker
process, about 30 s of work: it outlasts the test):

- ``locked``: ``ksolve serve --token T`` as a user runs it: the Host, Origin,
  token and JSON checks (``ksolve/web/security.py``), the per-client limits
  (``client_limits.py``) and the bounded connections (``connections.py``); each
  request carries the token and the page's own ``Origin`` and ``Sec-Fetch-Site``;
- ``unlocked``: the same app without them (``create_app(locked=False)`` under
  uvicorn's own protocol), the reference.

50 clients of each post ``/api/problems/check`` as fast as the answers come,
the two sets taking turns in windows of ``--window`` seconds (1) for
``--seconds`` (10) each: the other work on a shared machine comes and goes
within seconds, and both servers meet it alike.  The figure is the ratio of the
locked server's median latency to the unlocked one's (the issue's bound: at
most 1.10), with the checks' own time per request measured in this process
(the middleware stack around an empty app, against the empty app alone).
``--calibrate`` runs the unlocked server in both roles: the ratio then is the
harness's own spread on this machine (0.90 to 1.10 on a loaded 2-core one).
``--abuse`` also measures what one client can hold on each server: idle
connections and connections dripping a request's head a byte a second, and
whether a request from another address (127.0.0.2) is answered meanwhile.
Writes ``benchmarks/results/web.json`` (``web-calibration.json`` with ``--calibrate``).

Each client is a kept-alive HTTP/1.1 connection sending the same prepared
request (asyncio streams, a few microseconds of work per request): on a
2-core machine shared by the servers, their check workers, the verifications
and the clients, a general HTTP client's own work would weigh on the figures.

    python benchmarks/bench_web.py --seconds 10 --clients 50 --abuse
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
CALIBRATION = RESULTS.with_name("web-calibration.json")
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


async def take_turns(ports: dict[str, int], clients: int, seconds: float, window: float) -> dict[str, dict]:
    """``clients`` kept-alive connections to each server posting the check, the two sets taking
    turns for ``window`` seconds at a time, ``seconds`` in all for each: each variant's figures."""
    latencies: dict[str, list[float]] = {variant: [] for variant in VARIANTS}
    statuses: dict[str, dict[str, int]] = {variant: {} for variant in VARIANTS}
    turn = {variant: asyncio.Event() for variant in VARIANTS}
    running = True

    async def client(variant: str) -> None:
        request = check_request(ports[variant], variant)
        reader, writer = await asyncio.open_connection("127.0.0.1", ports[variant])
        while True:
            await turn[variant].wait()
            if not running:
                break
            start = time.perf_counter()
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:"))
            await reader.readexactly(length)
            latencies[variant].append(time.perf_counter() - start)
            status = head.split(b" ", 2)[1].decode()
            statuses[variant][status] = statuses[variant].get(status, 0) + 1
        writer.close()

    tasks = [asyncio.create_task(client(variant)) for variant in VARIANTS for _ in range(clients)]
    for number in range(2 * round(seconds / window)):
        on, off = VARIANTS[number % 2], VARIANTS[1 - number % 2]
        turn[off].clear()
        turn[on].set()
        await asyncio.sleep(window)
    running = False
    for event in turn.values():
        event.set()
    await asyncio.gather(*tasks)
    return {variant: figures(latencies[variant], statuses[variant], seconds) for variant in VARIANTS}


def figures(latencies: list[float], statuses: dict[str, int], seconds: float) -> dict:
    ordered = sorted(latencies)
    return {"requests": len(ordered), "statuses": statuses, "requests_per_second": round(len(ordered) / seconds, 1),
            "latency_ms": {"mean": round(1000 * statistics.fmean(ordered), 1),
                           "p50": round(1000 * statistics.median(ordered), 1),
                           "p95": round(1000 * ordered[int(0.95 * (len(ordered) - 1))], 1),
                           "p99": round(1000 * ordered[int(0.99 * (len(ordered) - 1))], 1),
                           "max": round(1000 * ordered[-1], 1)}}


async def load(bases: dict[str, str], ports: dict[str, int], clients: int, seconds: float, window: float,
               verifications: int) -> dict:
    """The verifications started in each server, the check pools loaded, then the turns."""
    controls = {variant: httpx.AsyncClient(base_url=bases[variant], timeout=30,
                                           headers=page_headers(ports[variant], variant)) for variant in VARIANTS}
    jobs = {variant: [(await control.post("/api/jobs", json={"problem": ROTENBERG, "action": "verify"})).json()["id"]
                      for _ in range(verifications)] for variant, control in controls.items()}
    for control in controls.values():
        await control.post("/api/problems/check", json={"problem": ROTENBERG})  # the check pool's first load
    measured = await take_turns(ports, clients, seconds, window)
    for variant, control in controls.items():
        states = [(await control.get(f"/api/jobs/{job}")).json()["state"] for job in jobs[variant]]
        measured[variant]["verifications_running_at_the_end"] = states.count("running")
        for job in jobs[variant]:
            await control.delete(f"/api/jobs/{job}")
        await control.aclose()
    return measured


def checks_cost(requests: int = 20_000) -> dict[str, float]:
    """Microseconds per request of the locks (``Guard`` and ``ClientLimits``) around an empty app,
    and of the empty app alone, on the benchmark's own request (token, Origin, JSON)."""
    from ksolve.web.client_limits import ClientLimits
    from ksolve.web.security import Access, Guard

    async def empty(scope, receive, send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    locked = Guard(ClientLimits(empty), Access(token=TOKEN))
    headers = [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json"), (b"content-length", b"1500"),
               *[(name.lower().encode(), value.encode()) for name, value in page_headers(8000, "locked").items()]]
    scope = {"type": "http", "method": "POST", "path": "/api/problems/check", "headers": headers,
             "query_string": b"", "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 50000), "scheme": "http"}

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(_message) -> None:
        pass

    async def timed(app) -> float:
        start = time.perf_counter()
        for _ in range(requests):
            await app(dict(scope), receive, send)
        return 1e6 * (time.perf_counter() - start) / requests

    async def both() -> dict[str, float]:
        return {"empty_app_us": round(await timed(empty), 2), "locked_empty_app_us": round(await timed(locked), 2)}

    return asyncio.run(both())


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
def server_command(variant: str, port: int, calibrate: bool = False) -> list[str]:
    if variant == "locked" and not calibrate:
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
    parser.add_argument("--seconds", type=float, default=10.0, help="Seconds of load on each server.")
    parser.add_argument("--window", type=float, default=1.0, help="Seconds of each turn.")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--verifications", type=int, default=1, help="Verifications running in each server.")
    parser.add_argument("--abuse", action="store_true", help="Also measure what one client can hold.")
    parser.add_argument("--idle", type=int, default=2000, help="Idle connections of the abuse.")
    parser.add_argument("--calibrate", action="store_true",
                        help="Run the unlocked server in both roles: the ratio then shows the harness's own spread.")
    parser.add_argument("--serve-unlocked", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_unlocked:
        return serve_unlocked(args.serve_unlocked)
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the abuse's idle connections
    load_average = os.getloadavg()[0]  # other work on the machine weighs on the figures
    ports = {variant: free_port() for variant in VARIANTS}
    with contextlib.ExitStack() as servers:
        bases = {variant: servers.enter_context(running_server(
            server_command(variant, ports[variant], args.calibrate), ports[variant], ROOT,
            page_headers(ports[variant], variant))) for variant in VARIANTS}
        measured = asyncio.run(load(bases, ports, args.clients, args.seconds, args.window, args.verifications))
    abused = []
    if args.abuse:
        for variant in VARIANTS:
            port = free_port()
            with running_server(server_command(variant, port), port, ROOT, page_headers(port, variant)):
                abused.append(asyncio.run(abuse(port, variant, args.idle, 50, 15)))
    latency = {variant: measured[variant]["latency_ms"] for variant in VARIANTS}
    results = {
        "clients": args.clients, "seconds_each": args.seconds, "window": args.window,
        "verifications_each": args.verifications, "calibration": args.calibrate, **measured,
        "locked_over_unlocked_p50": round(latency["locked"]["p50"] / latency["unlocked"]["p50"], 3),
        "locked_over_unlocked_mean": round(latency["locked"]["mean"] / latency["unlocked"]["mean"], 3),
        "checks_in_process": checks_cost(),
        "abuse": abused, "machine": machine(), "load_average_before": load_average,
        "command": (f"python benchmarks/bench_web.py --seconds {args.seconds:g} --window {args.window:g} "
                    f"--clients {args.clients} --verifications {args.verifications}{' --abuse' if args.abuse else ''}"
                    f"{' --calibrate' if args.calibrate else ''}"),
    }
    (CALIBRATION if args.calibrate else RESULTS).write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps({key: results[key] for key in ("locked_over_unlocked_p50", "locked_over_unlocked_mean",
                                                     "checks_in_process", "abuse", "load_average_before")}))
    for variant in VARIANTS:
        print(variant, measured[variant]["requests_per_second"], "req/s", measured[variant]["statuses"],
              latency[variant])


if __name__ == "__main__":
    main()
