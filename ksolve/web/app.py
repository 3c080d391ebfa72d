"""The workbench's ASGI app: the JSON API under ``/api`` (documented in
docs/web-api.md) and the pages in ``static/``.

Every answer of the API is JSON; every error is ``{"error": "<one line>"}``
(``errors.py``): 400 unreadable JSON, 404 no such job or problem, 413 body
too large, 422 bad input (the loader's line), 429 no room for another job, 503
no process could start for it (both with Retry-After).
Before any handler, ``security.Guard`` refuses a foreign Host (400), another
site's request (403), a request without the token (401) and a body that is not
JSON (415); ``client_limits.ClientLimits`` a client past its rate (429).

>>> [route.path for route in create_app(None).routes if route.path.startswith("/api/jobs")]
['/api/jobs', '/api/jobs', '/api/jobs/{id}', '/api/jobs/{id}', '/api/jobs/{id}/events', '/api/jobs/{id}/report.html', '/api/jobs/{id}/certificate.json']
"""

from __future__ import annotations

import json
import os
from contextlib import asynccontextmanager
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any, AsyncIterator

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ksolve.execution.jobs import REPORT, SOLVE, ProblemJob
from ksolve.execution.options import DEFAULT_SECONDS
from ksolve.web.checks import CheckPool
from ksolve.web.client_limits import ClientLimits
from ksolve.web.errors import EXCEPTION_HANDLERS, ApiError
from ksolve.web.interchange import EXPORTS, export_problem, import_entries
from ksolve.web.jobs import DONE, Job, JobManager, JobsUnavailable, QueueFull
from ksolve.web.problems_store import SUFFIX, ProblemStore
from ksolve.web.requests import BodyLimit, job_request, problem_field, read_json
from ksolve.web.security import Access, Guard

STATIC = Path(__file__).parent / "static"
MAX_BODY = 256 * 1024
"""Bytes of a request body (a problem file is a few kilobytes)."""
CHECK_MEMORY = 256 << 20
"""The belief's memory budget of a check (about 620,000 positions); a job has its own, larger one."""
CHECK_WORKERS = 2
"""Processes of the check pool (a check takes about a millisecond: two keep answering while one loads a large belief)."""
KEEPALIVE_SECONDS = 15.0
"""Seconds between two comment lines of an idle event stream (so proxies and browsers keep it open)."""


def create_app(problems_dir: Path | None, max_running: int = os.cpu_count() or 1, max_queued: int = 8,
               max_body: int = MAX_BODY, job_memory: int | None = None, check_memory: int = CHECK_MEMORY,
               access: Access = Access(), locked: bool = True) -> Starlette:
    """The app: jobs run ``max_running`` at once with ``max_queued`` waiting, each within
    ``job_memory`` bytes of belief (default: the library's budget shared among the running jobs);
    ``problems_dir``: the folder of the Library page (None: no folder); ``access``: the names
    it answers to and its token (default: loopback, no token).  ``locked=False`` leaves out the
    checks of ``security.py`` and ``client_limits.py``: for ``benchmarks/bench_web.py``'s
    reference only."""
    import ksolve
    from ksolve.web import play, tryit

    store = ProblemStore(problems_dir) if problems_dir is not None else None
    memory = job_memory or ksolve.Resources().budget // max_running
    checks = CheckPool(min(CHECK_WORKERS, max_running), check_memory)

    def keep_verdict(job: Job) -> None:
        if store is None or not job.name or job.state != DONE or job.action != "verify" or not job.output:
            return
        verification, solution = job.output.value["verification"], job.output.value["solution"]
        if verification is not None:
            store.record_verdict(job.name, job.work.problem, verification["verdict"], verification["line"])
        else:  # the solve was not decided in time
            store.record_verdict(job.name, job.work.problem, "unknown", f"not decided: {solution.get('reason', '')}")

    jobs = JobManager(max_running, max_queued, keep_verdict)

    def the_store() -> ProblemStore:
        if store is None:
            raise ApiError(404, "no problems folder: start the server with ksolve serve --problems DIR")
        return store

    def the_job(request: Request) -> Job:
        job = jobs.get(request.path_params["id"])
        if job is None:
            raise ApiError(404, f"no job {request.path_params['id']!r} (the last 100 finished jobs are kept)")
        return job

    async def index(_request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def play_page(_request: Request) -> FileResponse:
        return FileResponse(STATIC / "play.html")

    async def info(_request: Request) -> JSONResponse:
        from ksolve.rules import RULE_SET_NAMES

        return JSONResponse({"version": ksolve.__version__, "rules": list(RULE_SET_NAMES),
                             "problems": store is not None,
                             "limits": {"max_running": max_running, "max_queued": max_queued, "max_body": max_body,
                                        "timeout": DEFAULT_SECONDS, "job_memory": memory}})

    async def check(request: Request) -> JSONResponse:
        return JSONResponse(asdict(await checks.check(problem_field(await read_json(request)))))

    async def export(request: Request) -> JSONResponse:
        data = await read_json(request)
        text, to = problem_field(data), data.get("to")
        if not isinstance(to, str):
            raise ApiError(422, f"to: missing (one of {', '.join(EXPORTS)})" if to is None
                           else f"to: must be a string, got {type(to).__name__}")
        return JSONResponse(asdict(await run_in_threadpool(export_problem, text, to)))

    async def import_(request: Request) -> JSONResponse:
        text = (await read_json(request)).get("text")
        if not isinstance(text, str):
            raise ApiError(422, "text: missing (the YAML of a YACPDB entry or an Olive collection)" if text is None
                           else f"text: must be a string, got {type(text).__name__}")
        problems = await run_in_threadpool(import_entries, text)
        return JSONResponse({"problems": [asdict(problem) for problem in problems]})

    async def list_problems(_request: Request) -> JSONResponse:
        problems = await run_in_threadpool(the_store().list)  # reads every file: out of the event loop
        return JSONResponse([asdict(problem) for problem in problems])

    async def get_problem(request: Request) -> JSONResponse:
        name = request.path_params["name"]
        return JSONResponse({"name": name, "problem": the_store().read(name)})

    async def put_problem(request: Request) -> JSONResponse:
        name = request.path_params["name"]
        target = the_store()
        target.path(name)  # a bad name before the work
        text = problem_field(await read_json(request))
        await checks.check(text)  # only a problem the loader takes is saved
        created = target.save(name, text)
        return JSONResponse({"name": name, "file": f"{name}{SUFFIX}", "created": created},
                            status_code=201 if created else 200)

    async def submit(request: Request) -> JSONResponse:
        wanted = job_request(await read_json(request))
        options = wanted.options
        if options.memory is not None and options.memory > memory:
            raise ApiError(422, f"options.max_memory: {options.memory:,} bytes is over the server's "
                                f"{memory:,} per job")
        if wanted.name is not None:
            the_store().path(wanted.name)
        text = wanted.problem if wanted.problem is not None else the_store().read(wanted.name or "")
        source = f"{wanted.name}{SUFFIX}" if wanted.name else "<problem>"
        work = ProblemJob(REPORT if wanted.action == "verify" else SOLVE, text, source,
                          replace(options, memory=options.memory or memory), render=True)
        try:
            job = jobs.submit(wanted.action, work, wanted.name)
        except QueueFull as error:
            raise ApiError(429, str(error), {"Retry-After": "10"}) from None
        except JobsUnavailable as error:
            raise ApiError(503, str(error), {"Retry-After": "5"}) from None
        return JSONResponse(job.view(), status_code=202)

    async def list_jobs(_request: Request) -> JSONResponse:
        return JSONResponse({"jobs": [{**job.view(), "result": None} for job in jobs.jobs.values()]})

    async def get_job(request: Request) -> JSONResponse:
        return JSONResponse(the_job(request).view())

    async def cancel_job(request: Request) -> JSONResponse:
        job = the_job(request)
        jobs.cancel(job)
        return JSONResponse(job.view())

    async def job_events(request: Request) -> StreamingResponse:
        job = the_job(request)
        return StreamingResponse(_events(jobs, job), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    async def job_report(request: Request) -> HTMLResponse:
        job = the_job(request)
        if job.output is None or not job.output.html:
            raise ApiError(404, f"job {job.id}: no report ({job.state})")
        return HTMLResponse(job.output.html)

    async def job_certificate(request: Request) -> Response:
        job = the_job(request)
        if job.output is None or not job.output.certificate:
            raise ApiError(404, f"job {job.id}: no certificate (only a solved problem has one; {job.state})")
        return Response(json.dumps(job.output.certificate, separators=(",", ":")), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{job.id}-certificate.json"'})

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        yield
        jobs.shutdown()
        checks.shutdown()
        tryit.shutdown()
        play.shutdown()

    routes = [
        Route("/api/info", info),
        Route("/api/problems/check", check, methods=["POST"]),
        Route("/api/export", export, methods=["POST"]),
        Route("/api/import", import_, methods=["POST"]),
        Route("/api/problems", list_problems),
        Route("/api/problems/{name}", get_problem),
        Route("/api/problems/{name}", put_problem, methods=["PUT"]),
        Route("/api/jobs", submit, methods=["POST"]),
        Route("/api/jobs", list_jobs),
        Route("/api/jobs/{id}", get_job),
        Route("/api/jobs/{id}", cancel_job, methods=["DELETE"]),
        Route("/api/jobs/{id}/events", job_events),
        Route("/api/jobs/{id}/report.html", job_report),
        Route("/api/jobs/{id}/certificate.json", job_certificate),
        *tryit.routes,
        *play.routes,
        Route("/", index),
        Route("/play", play_page),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    locks = [Middleware(Guard, access=access), Middleware(ClientLimits)] if locked else []
    app = Starlette(routes=routes, middleware=[*locks, Middleware(BodyLimit, limit=max_body)],
                    exception_handlers=EXCEPTION_HANDLERS, lifespan=lifespan)
    app.state.jobs, app.state.store, app.state.checks = jobs, store, checks
    return app


async def _events(jobs: JobManager, job: Job) -> AsyncIterator[str]:
    """Server-sent events: ``state`` (the job now), then ``progress`` and ``state`` as they come,
    and ``done`` (the job as it ended: done, failed or cancelled) last."""
    import asyncio

    queue = jobs.subscribe(job)
    try:
        yield _event("state", job.view())
        if job.finished:
            yield _event("done", job.view())
            return
        while True:
            try:
                event, data = await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
            except asyncio.TimeoutError:
                yield ": keepalive\n\n"
                continue
            yield _event(event, data)
            if event == "done":
                return
    finally:
        jobs.unsubscribe(job, queue)


def _event(name: str, data: dict[str, Any]) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
