"""The composer's workbench, ``ksolve serve``: a local web app (Starlette on
uvicorn) whose JSON API under ``/api`` calls the library (``import ksolve``)
and whose pages are the static files in ``static/``.

- ``app.py``: ``create_app``, the routes and the HTTP contract (README, "Workbench");
- ``jobs.py``: solve / verify / report jobs, each in its own worker process, queued, streamed, cancelled;
- ``worker.py``: what runs in those processes (and the problem check);
- ``problems_store.py``: the ``--problems DIR`` folder (names checked, nothing read or written outside it);
- ``requests.py``: request bodies (size limit, JSON, job options); ``errors.py``: every error as one JSON line;
- ``tryit.py``: the "Try it" referee's routes; ``trials.py``: the trials, kept in their own worker processes;
- ``security.py``: who may use it (Host, Origin, token, JSON bodies); ``client_limits.py``: per-client rates
  and event streams; ``connections.py``: bounded connections; ``server.py``: ``ksolve serve``.

Nothing is imported here, so that a worker process starts without Starlette.
"""
