"""One verification over several worker processes (``ksolve.execution.workers``): the
same verdicts, keys with their fewest moves, tries and refutations as one
process, on random problems and bundled ones."""

from __future__ import annotations

import json
import multiprocessing
import sys
import threading

import pytest

import ksolve
from ksolve.execution.processes import start_context
from ksolve.execution.workers import Workers
from ksolve.execution.executors import verify
from test_solver_vs_bruteforce import generate_problems

BUNDLED = ["swart-1034", "anderson-23", "fog-03", "loustau-1988-b", "roche-1986", "semikriegspiel-01"]


@pytest.fixture(scope="module")
def pool():
    with Workers(jobs=2) as workers:
        yield workers


def facts(report) -> tuple:
    """What must not depend on how many processes verified: the duals too."""
    return (report.verdict, [(key.move, key.moves) for key in report.keys], report.tries_total,
            [(attempt.move, json.dumps(attempt.refutation, sort_keys=True)) for attempt in report.tries],
            report.duals_checked, report.after_question, report.duals)


@pytest.mark.slow
def test_random_problems_verify_alike_in_one_process_and_two(pool) -> None:
    problems = [ksolve.load_problem_text(
        f'stipulation = "#{random.moves}"\nrules = "{random.rules}"\n[position]\nfen = "{random.fen}"\n'
        f'hidden = {json.dumps(list(random.hidden))}\n') for random, _ in generate_problems()[:40]]
    verdicts = set()
    for problem in problems:
        alone = verify(problem)
        assert facts(verify(problem, workers=pool)) == facts(alone), problem.text
        verdicts.add(alone.verdict)
    assert {"sound", "no solution"} <= verdicts


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_problems_verify_alike(pool, name: str) -> None:
    problem = ksolve.load_problem(f"problems/{name}.toml")
    alone = verify(problem)
    split = verify(problem, workers=pool)
    # The facts include the duals: they are counted against a strategy a fresh prover
    # reads back (read from the shared table, semikriegspiel-01 had 21 or 25 in runs of
    # one checkout, by which move the table held at White's second turn).
    assert facts(split) == facts(alone)
    assert split.verdict != "sound" or split.duals_checked


def test_a_worker_that_dies_ends_the_search_as_unknown() -> None:
    """Said as a limit is (status unknown, with the reason), not raised: the
    command line prints a result rather than a traceback."""
    problem = ksolve.load_problem("problems/rotenberg-1976.toml")
    from ksolve.analysis import Analysis

    with Workers(jobs=2) as workers:
        workers.load(Analysis(problem))
        workers.processes[1].kill()
        workers.processes[1].join()  # dead before the request: writing it fails too (a broken pipe)
        split = workers.keys_and_tries(list(range(2)))
        assert split.aborted == "a worker process died (out of memory, or killed)"
        assert workers.fewest(list(range(2)), 1, 2).aborted == split.aborted  # the workers are stopped


def test_a_stopped_verification_in_workers_names_the_attempts_left(pool) -> None:
    """Each worker decides its own attempts: a stopped verification names those
    left undecided (at the stipulated depth, or "not begun") instead of one
    depth, which does not hold for every attempt."""
    from ksolve.search.run import Limits

    report = verify(ksolve.load_problem("problems/rotenberg-1976.toml"), limits=Limits(nodes=3000), workers=pool)
    assert report.verdict == "unknown"
    reason = report.line()
    assert reason.startswith("not decided: node limit 3,000 reached; first moves not decided: 1."), reason  # the limit asked for
    assert "(depth 8)" in reason and reason.endswith("(not begun)")


def test_the_early_duals_are_those_of_the_key_looked_for_afterwards(pool) -> None:
    """The worker that finds the key reads its strategy's dual questions back
    while the others go on, and they are answered by whichever worker is idle:
    the same duals as when asked for after every attempt is decided."""
    from ksolve.analysis import Analysis
    from ksolve.verification import _first_attempts

    analysis = Analysis(ksolve.load_problem("problems/loustau-1988-b.toml"))
    firsts = _first_attempts(analysis.rules, [first.belief for first in analysis.classes])
    pool.load(analysis)
    early = pool.keys_and_tries(firsts, duals=True)
    (key,) = early.needed
    assert pool.early_duals is not None and pool.early_duals[0] == key
    early_duals = pool.duals(key)
    pool.load(analysis)
    late = pool.keys_and_tries(firsts)
    assert late.needed == early.needed and pool.early_duals is None
    assert pool.duals(key) == early_duals


def test_the_workers_share_the_duals_questions_and_answer_them_exactly(pool) -> None:
    """The key's worker reads its strategy back into questions (one a White
    turn), every worker answers some: the duals are those the same questions
    get in one process."""
    from ksolve.analysis import Analysis
    from ksolve.search.pns import ProofNumberSearch
    from ksolve.verification import _first_attempts, dual_answer, sorted_duals

    analysis = Analysis(ksolve.load_problem("problems/rotenberg-1976.toml"))
    pool.load(analysis)
    classes = [first.belief for first in analysis.classes]
    (key,) = pool.keys_and_tries(_first_attempts(analysis.rules, classes)).needed
    duals, checked, reason = pool.duals(key)
    assert checked and reason is None and duals
    pool._send(pool.owner[key], ("dual questions", key, None))
    _, questions, _ = next(pool._answers([pool.owner[key]]))
    assert len(questions) > len(duals)
    search = ProofNumberSearch(analysis.prover())
    alone = [question.entry(others) for question in questions if (others := dual_answer(search, question))]
    assert duals == sorted_duals(alone)


def test_a_strategy_read_back_before_its_key_is_decided_stops_when_superseded(pool) -> None:
    """A worker idle while an attempt is being decided reads that attempt's
    strategy back ahead (``Reading``, search ``number`` of the shared block):
    made stale, it stops and answers "superseded"; left current, it reads the
    same questions as when asked after the key; an attempt that does not win
    is said, not raised, and the worker serves on."""
    from ksolve.analysis import Analysis
    from ksolve.board import move_from_uci

    analysis = Analysis(ksolve.load_problem("problems/rotenberg-1976.toml"))
    pool.load(analysis)
    key, a_try = move_from_uci("a2g2"), move_from_uci("a2a1")

    def read(first: int, number: int | None, supersede: bool = False) -> tuple:
        pool._send(0, ("dual questions", first, number))
        if supersede:
            pool.block.next_search()
        return next(pool._answers([0]))[1:]

    assert read(key, pool.block.next_search(), supersede=True) == ([], "superseded")
    ahead, reason = read(key, pool.block.next_search())
    after, _ = read(key, None)
    assert reason is None and len(ahead) > 20
    assert [(q.after, q.chosen, q.attempts, q.needed) for q in ahead] == [(q.after, q.chosen, q.attempts, q.needed)
                                                                          for q in after]
    questions, reason = read(a_try, pool.block.next_search())
    assert questions == [] and "does not win" in reason
    assert read(key, None)[1] is None


def test_the_command_line_verifies_one_problem_with_jobs() -> None:
    """``ksolve verify FILE --jobs 2`` prints what ``--jobs 1`` prints (but the
    nodes and seconds); ``--scheduler`` is for a folder."""
    from click.testing import CliRunner

    from ksolve.cli import main

    runner = CliRunner()
    outputs = []
    for jobs in ("1", "2"):
        result = runner.invoke(main, ["verify", "problems/swart-1034.toml", "--json", "--jobs", jobs])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        outputs.append({key: value for key, value in data.items() if key not in ("nodes", "seconds")})
    assert outputs[0] == outputs[1]
    refused = runner.invoke(main, ["verify", "problems/swart-1034.toml", "--scheduler", "tcp://127.0.0.1:1"])
    assert refused.exit_code == 2 and refused.stderr.startswith("ksolve: error: --scheduler: cannot reach tcp://127.0.0.1:1")


def test_a_run_with_workers_ends_without_a_traceback_or_a_leftover_block() -> None:
    """The whole process's stderr, the resource tracker's included (a
    subprocess: it writes to the real stderr): the workers share the parent's
    tracker, and a block they attach to must stay registered once, or the
    parent's unlink makes the tracker print a ``KeyError`` traceback."""
    import os
    import subprocess
    import sys

    before = set(os.listdir("/dev/shm")) if os.path.isdir("/dev/shm") else set()
    run = subprocess.run([sys.executable, "-c", "from ksolve.cli import main; main()", "verify",
                          "problems/swart-1034.toml", "--jobs", "2"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr and "Error" not in run.stderr, run.stderr
    if os.path.isdir("/dev/shm"):
        assert not {name for name in set(os.listdir("/dev/shm")) - before if name.startswith("psm_")}


@pytest.mark.slow
def test_solve_with_two_jobs_finds_the_same_fewest_moves(tmp_path) -> None:
    """``solve(jobs=2)``: the first attempts shared by two workers find the
    same status and fewest moves as one process (shortest and at most), and
    every strategy they return is certified by the checker."""
    from ksolve.certificates import certificate
    from ksolve.checker import check_certificate

    checked = 0
    for index, (random, _) in enumerate(generate_problems()[:30]):
        path = tmp_path / f"p{index}.toml"
        path.write_text(f'stipulation = "#{random.moves}"\nrules = "{random.rules}"\n[position]\n'
                        f'fen = "{random.fen}"\nhidden = {json.dumps(list(random.hidden))}\n')
        problem = ksolve.load_problem(str(path))
        for at_most in (False, True):
            alone, split = ksolve.solve(problem, at_most=at_most), ksolve.solve(problem, at_most=at_most, jobs=2)
            assert (split.status, split.moves) == (alone.status, alone.moves), path.read_text()
            if split.status == "solved":
                assert check_certificate(path, json.loads(json.dumps(certificate(problem, split)))).verified
                checked += 1
    assert checked >= 10


def test_the_command_line_solves_rotenberg_with_two_jobs() -> None:
    from click.testing import CliRunner

    from ksolve.cli import main

    result = CliRunner().invoke(main, ["solve", "problems/rotenberg-1976.toml", "--jobs", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["status"], data["moves"], data["key"]) == ("solved", 8, "a2g2")


def test_a_shared_table_that_echoes_one_process_changes_nothing() -> None:
    """Results written to the shared table and merged back on lookup are the
    prover's own: alone with it, a proof takes exactly the nodes it takes without."""
    from ksolve.analysis import Analysis
    from ksolve.search.pns import ProofNumberSearch
    from ksolve.execution.shared_block import SharedBlock

    analysis = Analysis(ksolve.load_problem("problems/family/family-09-knight-c1.toml"))
    nodes = []
    for share in (False, True):
        prover = analysis.prover()
        block = SharedBlock.create(1, slots=1 << 16)
        if share:
            prover.table.shared = block.results
        assert ProofNumberSearch(prover).wins(analysis.classes[0].belief, analysis.moves)
        nodes.append(prover.stats.nodes)
        block.close()
    assert nodes[0] == nodes[1]


def test_a_slot_written_by_two_processes_at_once_reads_as_empty() -> None:
    """A slot holding one entry's check word and another's value (two writers
    interleaved) is no entry at all, never a wrong one."""
    from ksolve.execution.shared_block import SharedBlock

    block = SharedBlock.create(2, slots=1 << 4)
    results = block.results
    results.put_white(5, proven=3, disproven=0, move=100, work=1)
    check = int(results.slots[5, 0])
    results.put_white(5 + 16, proven=7, disproven=2, move=200, work=1)  # the same slot, another key
    results.slots[5, 0] = check  # the first writer's check word beside the second's value
    assert results.white(5) is None and results.white(5 + 16) is None
    block.close()


def test_workers_racing_on_one_proof_give_the_first_decision(pool) -> None:
    """``Workers.prove``: the workers race on Rotenberg's whole tree, tuned
    differently; the first to prove it gives the key, the others stop at once
    (their searches superseded), and the pool serves the next request."""
    from ksolve.analysis import Analysis
    from ksolve.board import move_from_uci

    analysis = Analysis(ksolve.load_problem("problems/rotenberg-1976.toml"))
    pool.load(analysis)
    found = pool.prove(analysis.moves, analysis.moves)
    assert (found.moves, found.key, found.aborted) == (8, move_from_uci("a2g2"), None)
    refuted = pool.prove(7, 7)
    assert (refuted.moves, refuted.settled, refuted.aborted) == (None, 7, None)



def test_workers_forget_one_problem_before_the_next(pool) -> None:
    """The shared block's results and orthodox bounds hold for one rule set and
    stipulation (an orthodox "won in 2" is a mate under Berkeley rules, a king
    taken in Fog of War): loading another problem clears them, and the same
    position under another rule set is verified as one process does."""
    from ksolve.analysis import Analysis

    swart = ksolve.load_problem("problems/swart-1034.toml")
    verify(swart, workers=pool)
    assert pool.block.orthodox.any() and pool.block.results.slots.any()
    pool.load(Analysis(swart))
    assert not pool.block.orthodox.any() and not pool.block.results.slots.any()
    fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"
    for rules, stipulation in (("berkeley", "#2"), ("fog-of-war", "xk2")):
        problem = ksolve.load_problem_text(f'stipulation = "{stipulation}"\nrules = "{rules}"\n'
                                           f'[position]\nfen = "{fen}"\n')
        assert facts(verify(problem, workers=pool)) == facts(verify(problem)), rules


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_forked_and_spawned_workers_verify_alike(method: str) -> None:
    """Workers forked with the parent's kernels loaded answer as spawned ones,
    which import everything again."""
    problem = ksolve.load_problem("problems/swart-1034.toml")
    alone = verify(problem)
    with Workers(jobs=2, context=multiprocessing.get_context(method)) as workers:
        assert facts(verify(problem, workers=workers)) == facts(alone)


def test_workers_are_spawned_while_another_thread_runs() -> None:
    """A process running a second thread (the workbench's job processes watch
    their parent in one) spawns its workers: a fork could copy a lock that
    thread holds."""
    stop = threading.Event()
    watcher = threading.Thread(target=stop.wait, daemon=True)
    watcher.start()
    try:
        assert start_context().get_start_method() == "spawn"
    finally:
        stop.set()
        watcher.join()
    if threading.active_count() == 1 and sys.platform.startswith("linux"):
        assert start_context().get_start_method() == "fork"


def test_a_worker_done_with_its_share_takes_half_of_the_largest_share_left() -> None:
    """``Workers._help``: the idle worker deepens on the second half of the
    attempts a running worker has not handed out yet, from that share's
    owner's depth; the share keeps its first half for the next helper."""
    sent = []
    workers = Workers.__new__(Workers)
    workers._send = lambda worker, request, what="verification": sent.append((worker, request))
    shares = {0: [10, 11, 12, 13, 14], 1: [], 2: [20, 21]}
    running, owner_of, done = {0, 2}, {}, {0: 6, 1: 11, 2: 4}
    workers._help(1, shares, running, owner_of, done, 11)
    assert sent == [(1, ("fewest", [12, 13, 14], 7, 11))]
    assert shares[0] == [10, 11] and owner_of == {1: 0} and running == {0, 1, 2}
    running.discard(2)
    done[2] = 11
    workers._help(2, shares, running, owner_of, done, 11)  # a helper's share is split in turn, from the owner's depth
    assert sent[-1] == (2, ("fewest", [13, 14], 7, 11)) and shares[1] == [12] and owner_of[2] == 0
    done[0] = 11
    running.discard(1)
    workers._help(1, shares, running, owner_of, done, 11)  # the owner refuted every depth: no help wanted
    assert len(sent) == 2 and 1 not in running
