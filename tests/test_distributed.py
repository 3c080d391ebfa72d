"""Runs on Dask (ksolve.execution): a LocalCluster of 2 workers gives the same
verifications as one process on a dozen bundled problems, a worker killed
mid-run still leaves every result, a re-run skips the finished tasks, a task
past its hard time limit is recorded and its worker restarted, and the
generated set is the same on the cluster as in one process."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import ksolve
from ksolve.cli import main
from ksolve.games.generate import generate as generate_on_cluster
from ksolve.execution.results import DONE, FAILED, ResultsFile, TaskResult
from ksolve.execution.cluster import Task, cluster_client, run_tasks
from ksolve.execution.jobs import VERIFY, ProblemJob, job_value
from ksolve.execution.options import RunOptions
from ksolve.execution.collection import verify_all

PROBLEMS = Path(__file__).parent.parent / "problems"
DOZEN = ["anderson-05", "anderson-07", "anderson-09", "anderson-11", "anderson-13", "anderson-15", "anderson-19",
         "anderson-23", "anderson-43", "ciancarini-intro-7.1", "ciancarini-intro-7.2", "dawson-fcr3190"]
"""Fast problems (each well under a second) of every verdict the bundle has: sound, cooked, several keys."""


def comparable(report) -> dict:
    """A verification without its time (the one thing that differs between runs)."""
    data = report.as_dict()
    del data["seconds"]
    return data


@pytest.fixture(scope="module")
def client():
    with cluster_client(jobs=2, memory_limit="2GB") as dask_client:
        yield dask_client


def test_two_workers_give_the_verdicts_of_one_process(client, tmp_path) -> None:
    problems = [ksolve.load_problem(PROBLEMS / f"{name}.toml") for name in DOZEN]
    alone = [(problem.id, comparable(ksolve.verify(problem, limits=ksolve.Limits(120)))) for problem in problems]
    shared = verify_all(problems, RunOptions(seconds=120), client=client, results=tmp_path / "run.jsonl")
    assert [(problem.id, comparable(report)) for problem, report in shared] == alone
    assert {verdict for _, report in alone for verdict in [report["verdict"]]} == {"sound", "cooked"}
    workers = {json.loads(line)["worker"] for line in (tmp_path / "run.jsonl").read_text().splitlines()}
    assert len(workers) == 2, "both workers took tasks"


def test_a_rerun_skips_what_the_results_file_holds(tmp_path) -> None:
    problem = ksolve.load_problem(PROBLEMS / "anderson-43.toml")
    results = tmp_path / "run.jsonl"
    first = verify_all([problem], RunOptions(seconds=60), results=results)
    with open(results, "a") as out:
        out.write('{"key": "torn')  # a line cut short by a crash
    job = ProblemJob(VERIFY, problem.text, problem.source, RunOptions(seconds=60))
    calls = []
    again = run_tasks([Task(job.key, calls.append, ("ran",)), Task("new", calls.append, ("new",))],
                      ResultsFile(results))
    assert calls == ["new"], "the finished task was not run again"
    assert again[job.key].value == job_value(job) | {"seconds": again[job.key].value["seconds"]}
    assert first[0][1].verdict == "sound"
    assert ResultsFile(results).finished().keys() == {job.key, "new"}


def test_a_failed_task_is_tried_again_by_a_rerun(tmp_path) -> None:
    results = ResultsFile(tmp_path / "run.jsonl")
    results.append(TaskResult("late", FAILED, error="over the hard time limit"))
    ran = run_tasks([Task("late", str, (7,))], results)
    assert ran["late"].status == DONE and ran["late"].value == "7"


def test_a_task_error_is_its_result_and_the_run_goes_on() -> None:
    ran = run_tasks([Task("bad", int, ("x",)), Task("good", int, ("7",))], ResultsFile(None))
    assert ran["bad"].status == FAILED and ran["bad"].error.startswith("ValueError: invalid literal")
    assert ran["good"].value == 7


@pytest.mark.slow
def test_a_killed_worker_loses_no_result(client, tmp_path) -> None:
    """kill -9 the worker process running the slowest problem: the scheduler gives its task to the
    other worker (the nanny starts a new process), and the run ends with every verification."""
    names = ["anderson-25", "anderson-05", "anderson-07", "anderson-43"]
    problems = [ksolve.load_problem(PROBLEMS / f"{name}.toml") for name in names]
    slow = ProblemJob(VERIFY, problems[0].text, problems[0].source, RunOptions(seconds=120)).key
    killed: list[int] = []

    def kill_when_running() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not killed:
            for worker, keys in client.processing().items():
                if f"ksolve-{slow}" in keys:
                    time.sleep(1.0)  # well inside its proof
                    pid = client.run(os.getpid, workers=[worker])[worker]
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                    return
            time.sleep(0.05)

    killer = threading.Thread(target=kill_when_running)
    killer.start()
    reports = verify_all(problems, RunOptions(seconds=120), client=client, results=tmp_path / "run.jsonl")
    killer.join()
    assert killed, "the slow task was seen running and its worker killed"
    assert [report.verdict for _, report in reports] == ["sound"] * 4
    rows = [json.loads(line) for line in (tmp_path / "run.jsonl").read_text().splitlines()]
    assert sorted(row["status"] for row in rows) == [DONE] * 4
    client.wait_for_workers(2, timeout=60)


@pytest.mark.slow
def test_a_task_past_its_hard_limit_is_recorded_and_its_worker_restarted(client) -> None:
    ran = run_tasks([Task("nap", time.sleep, (120,)), Task("quick", abs, (-3,))], ResultsFile(None), client,
                    hard_timeout=2)
    assert ran["quick"].value == 3
    assert ran["nap"].status == FAILED and "hard time limit of 2 s" in ran["nap"].error
    client.wait_for_workers(2, timeout=60)


def test_generated_games_are_the_same_on_the_cluster(client, tmp_path) -> None:
    fens = ["6k1/8/6K1/8/8/8/8/R7 w - - 0 1", "7k/8/5K2/8/8/8/8/1Q6 w - - 0 1", "k7/8/2K5/8/8/8/8/7R w - - 0 1"]
    options = {"fens": fens, "plies_per_game": 6, "seconds": 5.0, "min_ply": 0}
    alone = generate_on_cluster("berkeley", 6, 1, 3, tmp_path / "one", **options)
    shared = generate_on_cluster("berkeley", 6, 1, 3, tmp_path / "two", client=client, **options)
    strip = [{k: v for k, v in row.items() if k not in ("seconds",)} for row in alone]
    assert [{k: v for k, v in row.items() if k not in ("seconds",)} for row in shared] == strip
    assert any(row["result"] == "mate" for row in alone)
    for row in alone:
        if row["file"]:
            assert (tmp_path / "one" / row["file"]).read_text() == (tmp_path / "two" / row["file"]).read_text()
    assert (tmp_path / "two" / "stats.csv").exists()


@pytest.mark.slow
def test_verify_folder_with_jobs_prints_the_same_table(tmp_path) -> None:
    for name in DOZEN[:3]:
        (tmp_path / f"{name}.toml").write_text((PROBLEMS / f"{name}.toml").read_text())
    alone = CliRunner().invoke(main, ["verify", str(tmp_path)])
    shared = CliRunner().invoke(main, ["verify", str(tmp_path), "--jobs", "2", "--results",
                                       str(tmp_path / "run.jsonl")])
    assert shared.exit_code == alone.exit_code == 0
    cut = [line[:-9] for line in alone.stdout.splitlines()]  # the seconds column differs
    assert [line[:-9] for line in shared.stdout.splitlines()] == cut
    assert "[3/3]" in shared.stderr
    again = CliRunner().invoke(main, ["verify", str(tmp_path), "--jobs", "2", "--results",
                                      str(tmp_path / "run.jsonl")])
    assert [line[:-9] for line in again.stdout.splitlines()] == cut
    assert len((tmp_path / "run.jsonl").read_text().splitlines()) == 3, "the re-run verified nothing again"


def test_a_results_file_for_one_problem_is_one_error_line() -> None:
    """One problem's --jobs runs local worker processes (tests/test_parallel.py); a results file is a folder's."""
    result = CliRunner().invoke(main, ["verify", str(PROBLEMS / "anderson-43.toml"), "--results", "r.jsonl"])
    assert result.exit_code == 2
    assert result.stderr.strip() == "ksolve: error: --results: for a folder of problems (one problem's result is printed)"


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_error_line(tmp_path) -> None:
    (tmp_path / "a.toml").write_text((PROBLEMS / "anderson-43.toml").read_text())
    result = CliRunner().invoke(main, ["verify", str(tmp_path), "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2
    assert result.stderr.strip().startswith("ksolve: error: --scheduler: cannot reach tcp://127.0.0.1:9")


@pytest.mark.slow
def test_generate_command_with_jobs_writes_the_set_and_resumes(tmp_path) -> None:
    args = ["generate", "--games", "2", "--ply", "1", "--seed", "2", "--jobs", "2", "-o", str(tmp_path)]
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    assert "turns examined" in first.stdout and "[2/2]" in first.stderr
    stats = (tmp_path / "stats.csv").read_text()
    rows = (tmp_path / "results.jsonl").read_text()
    again = CliRunner().invoke(main, args)
    assert again.exit_code == 0 and again.stdout == first.stdout
    assert (tmp_path / "stats.csv").read_text() == stats and (tmp_path / "results.jsonl").read_text() == rows
