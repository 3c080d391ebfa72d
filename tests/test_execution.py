"""Running things (``ksolve.execution``): every path within the memory budget, the
one generate loop, a job whose process cannot start."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import ksolve
from ksolve.compose.checks import CandidateJob, check_candidate
from ksolve.execution.cluster import cluster_client
from ksolve.execution.collection import verify_all
from ksolve.execution.options import RunOptions
from ksolve.execution.processes import ProcessUnavailable
from ksolve.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
PROBLEM = ROOT / "problems" / "anderson-43.toml"
"""A sound #2 verified in about a second."""
TINY, ENOUGH = 64 << 20, 2 << 30
"""Budgets below what any process running a search holds (its kernels alone), and enough."""


def _cli(budget: int) -> str:
    """What ``ksolve verify`` says within ``budget``: the verdict, or its error line."""
    done = subprocess.run([sys.executable, "-m", "ksolve.cli", "verify", str(PROBLEM), "--jobs", "1", "--timeout",
                           "120", "--max-memory", f"{budget >> 20}M", "--json"], capture_output=True, text=True, cwd=ROOT)
    if done.returncode == 2:
        return done.stderr.strip().splitlines()[-1]
    import json

    return json.loads(done.stdout)["verdict"]


def _web(budget: int) -> str:
    """What a web verify job says within ``budget`` (``options.max_memory``)."""
    with TestClient(create_app(None, max_running=1, job_memory=ENOUGH)) as client:
        job = client.post("/api/jobs", json={"problem": PROBLEM.read_text(), "action": "verify",
                                             "options": {"max_memory": str(budget), "timeout": 120}}).json()
        deadline = time.monotonic() + 120
        while job["state"] not in ("done", "failed") and time.monotonic() < deadline:
            time.sleep(0.2)
            job = client.get(f"/api/jobs/{job['id']}").json()
    return job["error"] if job["state"] == "failed" else job["result"]["verification"]["verdict"]


def _dask(budget: int, client) -> str:
    """What a Dask task's verification says within ``budget``."""
    [(_, report)] = verify_all([ksolve.load_problem(PROBLEM)], RunOptions(seconds=120, memory=budget), client=client)
    return report.reason if report.verdict == "unknown" else report.verdict


def _compose(budget: int) -> str:
    """What compose's check of a candidate says within ``budget``."""
    checked = check_candidate(CandidateJob(PROBLEM.read_text(), "anderson-43", seconds=120, memory=budget))
    return checked["reason"] if checked["status"] != "sound" else "sound"


@pytest.mark.slow
def test_every_path_verifies_within_the_memory_budget() -> None:
    """The same verification through the command line, a web job, a Dask task and
    compose's check: within a budget no search fits, each stops at it, saying so in its
    own words; within one that suffices, each says "sound"."""
    with cluster_client(jobs=1, memory_limit="4GB") as client:
        stopped = {"cli": _cli(TINY), "web": _web(TINY), "dask": _dask(TINY, client), "compose": _compose(TINY)}
        answered = {"cli": _cli(ENOUGH), "web": _web(ENOUGH), "dask": _dask(ENOUGH, client),
                    "compose": _compose(ENOUGH)}
    assert all(re.search(r"\b64 ?MB? is less than", line) for line in stopped.values()), stopped
    assert stopped["cli"].startswith("ksolve: error: --max-memory: ")
    assert stopped["web"].startswith("options.max_memory: ")
    assert stopped["dask"].startswith("memory budget: ") and stopped["compose"].startswith("memory budget: ")
    assert set(answered.values()) == {"sound"}, answered


@pytest.mark.slow
def test_generate_writes_the_same_games_with_and_without_jobs(tmp_path) -> None:
    """``ksolve generate --seed 7 --games 40`` and the same with ``--jobs 2``: the same
    PGN files byte for byte, the same rows but for the seconds."""
    outputs = []
    for name, extra in (("alone", []), ("jobs", ["--jobs", "2"])):
        out = tmp_path / name
        subprocess.run([sys.executable, "-m", "ksolve.cli", "generate", "--seed", "7", "--games", "40", "--ply", "3",
                        "--seconds", "20", "-o", str(out), *extra], check=True, capture_output=True, cwd=ROOT)
        games = {path.relative_to(out): path.read_bytes() for path in out.rglob("*.pgn")}
        rows = [line.rsplit(",", 2)[0] + "," + line.rsplit(",", 1)[1]
                for line in (out / "stats.csv").read_text().splitlines()]
        outputs.append((games, rows))
    (alone, alone_rows), (jobs, jobs_rows) = outputs
    assert len(alone) >= 3 and alone == jobs
    assert alone_rows == jobs_rows


def test_a_job_whose_process_cannot_start_is_503_with_retry_after(monkeypatch) -> None:
    """Out of file descriptors (or processes): one line, 503 and Retry-After; the job is not left queued."""
    def cannot_start(*_args, **_kwargs):
        raise ProcessUnavailable("cannot start a worker process: Too many open files")

    monkeypatch.setattr("ksolve.web.jobs.start_job_process", cannot_start)
    with TestClient(create_app(None, max_running=1)) as client:
        answer = client.post("/api/jobs", json={"problem": PROBLEM.read_text(), "action": "solve"})
        assert answer.status_code == 503 and "Retry-After" in answer.headers
        assert answer.json() == {"error": "the job's process could not start: cannot start a worker process: Too many "
                                          "open files; try again in a moment"}
        assert client.get("/api/jobs").json()["jobs"] == []
