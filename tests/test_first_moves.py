"""One verification on Dask workers (ksolve.execution.first_moves): the first
attempts as tasks give the report one process gives (verdict, keys, tries with
their refutations, duals, the undecided named at a limit), and ``ksolve verify
PROBLEM --scheduler ADDRESS`` prints it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import ksolve
from ksolve.cli import main
from ksolve.execution.cluster import cluster_client
from ksolve.execution.first_moves import verify_on_dask
from ksolve.verification import UNKNOWN, verify

PROBLEMS = Path(__file__).parent.parent / "problems"


def comparable(report) -> dict:
    data = report.as_dict()
    return {key: value for key, value in data.items() if key not in ("nodes", "seconds")}


@pytest.fixture(scope="module")
def client():
    with cluster_client(jobs=2, memory_limit="2GB") as dask_client:
        dask_client.wait_for_workers(2, timeout=120)
        yield dask_client


@pytest.mark.parametrize("name", ["anderson-43", "ciancarini-intro-7.2", "foster-1996", "anderson-19"])
def test_the_tasks_give_the_report_of_one_process(client, name: str) -> None:
    problem = ksolve.load_problem(PROBLEMS / f"{name}.toml")
    alone = verify(problem, limits=ksolve.Limits(120))
    spread = verify_on_dask(problem, client, limits=ksolve.Limits(120))
    assert comparable(spread.report) == comparable(alone)
    assert alone.verdict != UNKNOWN
    assert [outcome.first for outcome in spread.outcomes] == sorted(outcome.first for outcome in spread.outcomes)
    assert len(spread.outcomes) == len(alone.keys) + alone.tries_total


def test_both_workers_take_tasks_and_a_second_run_is_alike(client) -> None:
    problem = ksolve.load_problem(PROBLEMS / "rotenberg-1976.toml")
    first = verify_on_dask(problem, client, limits=ksolve.Limits(300), duals=False)
    again = verify_on_dask(problem, client, limits=ksolve.Limits(300), duals=False)
    assert first.report.verdict == "sound" and [key.label for key in first.report.keys] == ["Rg2"]
    assert comparable(first.report) == comparable(again.report)
    assert len({outcome.worker for outcome in first.outcomes}) == 2


def test_a_time_limit_names_the_first_moves_left(client) -> None:
    problem = ksolve.load_problem(PROBLEMS / "rotenberg-1976.toml")
    spread = verify_on_dask(problem, client, limits=ksolve.Limits(0.5))
    assert spread.report.verdict == UNKNOWN
    assert spread.report.reason.startswith("time limit 0.5 s reached")
    assert "first moves not decided" in spread.report.reason


def test_the_command_line_verifies_one_problem_on_a_scheduler(client) -> None:
    address = client.scheduler.address
    path = str(PROBLEMS / "anderson-43.toml")
    alone = CliRunner().invoke(main, ["verify", path, "--json", "--jobs", "1"])
    spread = CliRunner().invoke(main, ["verify", path, "--json", "--scheduler", address])
    assert spread.exit_code == alone.exit_code == 0, spread.output
    drop = ("nodes", "seconds")
    assert ({k: v for k, v in json.loads(spread.stdout).items() if k not in drop}
            == {k: v for k, v in json.loads(alone.stdout).items() if k not in drop})


def test_results_for_one_problem_is_refused(tmp_path) -> None:
    result = CliRunner().invoke(main, ["verify", str(PROBLEMS / "anderson-43.toml"), "--results",
                                       str(tmp_path / "r.jsonl")])
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == ("ksolve: error: --results: for a folder of problems "
                                                      "(one problem's result is printed)")
