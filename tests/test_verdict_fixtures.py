"""Differential test of the verdicts (issue 47, "One engine"): every bundled problem gives
the verdict, keys, short solutions, tries with their refutations, duals and lengths that
``tests/fixtures/verdicts.json`` recorded, and ``ksolve.solve`` the status, moves and key.

The fixture is data written by ``tests/make_verdict_fixtures.py`` from the search engine of
its day; this module only re-runs ``ksolve.verify`` and ``ksolve.solve`` and compares, field
by field.  A difference is a verdict change: fix the search, or (when the change is intended
and explained) regenerate the entries concerned with ``python tests/make_verdict_fixtures.py
--only NAME``.  Entries the fixture's run left undecided within its time limit are skipped.
"""

from __future__ import annotations

from typing import Any

import pytest

from make_verdict_fixtures import (LIMIT_SECONDS, ROOT, UNKNOWN, bundled_problems, read_fixture, run_solve,
                                   run_verify, solution_content, verification_content)

EXPECTED = read_fixture()
TEST_LIMIT = 5 * LIMIT_SECONDS
"""The seconds a re-run may take: every entry kept was decided within ``LIMIT_SECONDS``
when the fixture was made, the margin is for a loaded machine."""

# More than about 5 s (wall seconds of one process on the 2-core machine shared with other
# jobs, when the fixture was made): marked deep, run with ``pytest --deep`` (about 7
# minutes on 2 cores) before an engine change lands; every run checks the rest, about
# 34 s of verifications and 5 s of solves.
DEEP_VERIFY = {
    "family/family-09-knight-c1",     # 104 s
    "family/family-10-walls-c7-e3",   # 27 s
    "family/family-11-wall-e3",       # 74 s
    "family/family-11-walls-a5-e3",   # 120 s with the duals (stopped by the limit); without them, as tested, less
    "rotenberg-1976",                 # 24 s
}
DEEP_SOLVE = {
    "family/family-09-knight-c1",          # 14 s
    "family/family-10-rook-a6-knight-c1",  # 94 s
    "family/family-10-walls-c7-e3",        # 14 s
    "family/family-11-wall-e3",            # 39 s
    "family/family-11-walls-a5-e3",        # 43 s
    "family/family-11-walls-c6-e3",        # 116 s
    "rotenberg-1976",                      # 5.5 s
}


def _params(part: str, result: str, deep: set[str]) -> list[Any]:
    """One parameter an entry: skipped when the fixture's run did not decide it, deep if in ``deep``."""
    params = []
    for name, entry in EXPECTED.items():
        marks = [pytest.mark.deep] if name in deep else []
        if entry[part][result] == UNKNOWN:
            marks.append(pytest.mark.skip(reason=f"{name}: {part} not decided within "
                                                 f"{entry[part]['limit_seconds']:g} s when the fixture was made"))
        params.append(pytest.param(name, marks=marks, id=name))
    return params


def _problem(name: str) -> Any:
    """The bundled problem of fixture entry ``name``."""
    import ksolve

    entry = EXPECTED[name]
    problems = ksolve.load_problem(ROOT / entry["path"]).with_twins()
    return next(problem for problem in problems if (problem.twin or None) == entry["twin"])


def differences(expected: Any, actual: Any, where: str) -> list[str]:
    """Where ``actual`` differs from ``expected``, each difference named by its field
    (``verify.tries[1.Qf5].black_moves``); [] when they are equal."""
    if expected == actual:
        return []
    if where.endswith(".duals") and isinstance(expected, list) and isinstance(actual, list):
        return _dual_differences(expected, actual, where)
    if isinstance(expected, dict) and isinstance(actual, dict):
        found = []
        for field in sorted(set(expected) | set(actual)):
            if field not in actual:
                found.append(f"{where}.{field}: in the fixture ({expected[field]!r}), not given now")
            elif field not in expected:
                found.append(f"{where}.{field}: given now ({actual[field]!r}), not in the fixture")
            else:
                found += differences(expected[field], actual[field], f"{where}.{field}")
        return found
    if isinstance(expected, list) and isinstance(actual, list) and _by_move(expected) and _by_move(actual):
        return _move_differences(expected, actual, where)
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        return [difference for index, (old, new) in enumerate(zip(expected, actual))
                for difference in differences(old, new, f"{where}[{index}]")]
    if isinstance(expected, list) and isinstance(actual, list) and expected and actual:
        gone, added = [item for item in expected if item not in actual], [item for item in actual if item not in expected]
        return [f"{where}: {len(expected)} in the fixture, {len(actual)} now; only in the fixture: {gone!r}; "
                f"only now: {added!r}"]
    return [f"{where}: the fixture has {expected!r}, now {actual!r}"]


def _dual_differences(expected: list[dict[str, Any]], actual: list[dict[str, Any]], where: str) -> list[str]:
    """Duals compared turn by turn: at every turn both strategies reach (the same line
    ``after``, move number and moves left) the same winning moves (the one played and the
    duals ``also``) and the same main-line flag; none now where the fixture has some, or
    the reverse.  A turn only one strategy reaches follows a choice between winning moves
    (any is right: the search's move order decides), so it is not compared."""
    def turns(duals: list[dict[str, Any]]) -> dict[tuple, tuple]:
        return {(dual["after"], dual["move_number"], dual["moves_left"]):
                (sorted({dual["played"], *dual["also"]}), dual["main_line"]) for dual in duals}

    if bool(expected) != bool(actual):
        return [f"{where}: {len(expected)} in the fixture, {len(actual)} now"]
    old, new = turns(expected), turns(actual)
    return [f"{where}[{turn[0]}]: winning moves and main line {old[turn]} in the fixture, {new[turn]} now"
            for turn in old if turn in new and old[turn] != new[turn]]


def _by_move(items: list[Any]) -> bool:
    """Whether ``items`` are first moves (keys, tries), one each."""
    moves = [item.get("move") if isinstance(item, dict) else None for item in items]
    return bool(items) and None not in moves and len(set(moves)) == len(moves)


def _move_differences(expected: list[dict[str, Any]], actual: list[dict[str, Any]], where: str) -> list[str]:
    """Keys or tries compared move by move: those gone, those new, then each one's fields, then their order."""
    old, new = {item["move"]: item for item in expected}, {item["move"]: item for item in actual}
    found = [f"{where}: 1.{old[move].get('label', move)} in the fixture, not now" for move in old if move not in new]
    found += [f"{where}: 1.{new[move].get('label', move)} now, not in the fixture" for move in new if move not in old]
    for move in old:
        if move in new:
            found += differences(old[move], new[move], f"{where}[1.{old[move].get('label', move)}]")
    if not found:
        found.append(f"{where}: the order differs: the fixture {[item['move'] for item in expected]}, "
                     f"now {[item['move'] for item in actual]}")
    return found


def test_the_fixture_has_every_bundled_problem() -> None:
    """An entry for each bundled problem (and twin), none for a problem no longer bundled,
    each with the file's stipulation and rules."""
    bundled = {name: problem for name, _, problem in bundled_problems()}
    missing, stale = sorted(set(bundled) - set(EXPECTED)), sorted(set(EXPECTED) - set(bundled))
    assert not missing, f"no fixture entry for {missing}: python tests/make_verdict_fixtures.py --only {' '.join(missing)}"
    assert not stale, f"fixture entries of no bundled problem: {stale}"
    for name, problem in bundled.items():
        given = {"id": problem.id, "stipulation": problem.stipulation, "rules": problem.rules.name}
        recorded = {field: EXPECTED[name][field] for field in given}
        assert given == recorded, f"{name}: the problem file changed since the fixture was made: {recorded} -> {given}"


@pytest.mark.parametrize("name", _params("verify", "verdict", DEEP_VERIFY))
def test_verification_matches_the_fixture(name: str) -> None:
    expected = EXPECTED[name]["verify"]
    duals_known = expected["duals_checked"] != UNKNOWN  # else the fixture's run had no time left for them
    report, seconds = run_verify(_problem(name), TEST_LIMIT, duals=duals_known)
    actual = verification_content(report, TEST_LIMIT)
    assert actual["verdict"] != UNKNOWN, (f"{name}: verify: not decided in {seconds:.0f} s (the fixture: "
                                          f"{expected['verdict']}): {report.reason}")
    if not duals_known:  # not compared
        expected = {field: value for field, value in expected.items() if field not in ("duals_checked", "limit_seconds")}
        actual = {field: value for field, value in actual.items() if field not in ("duals", "duals_checked", "limit_seconds")}
    assert actual.get("duals_checked") != UNKNOWN, f"{name}: verify: duals not all checked in {seconds:.0f} s: {report.reason}"
    found = differences(expected, actual, "verify")
    assert not found, f"{name}: {len(found)} difference(s) from the fixture:\n  " + "\n  ".join(found)


@pytest.mark.parametrize("name", _params("solve", "status", DEEP_SOLVE))
def test_solution_matches_the_fixture(name: str) -> None:
    expected = EXPECTED[name]["solve"]
    solution, seconds = run_solve(_problem(name), TEST_LIMIT)
    actual = solution_content(solution, TEST_LIMIT)
    assert actual["status"] != UNKNOWN, (f"{name}: solve: not decided in {seconds:.0f} s (the fixture: "
                                         f"{expected['status']}): {solution.reason}")
    found = differences(expected, actual, "solve")
    if found and expected.get("key") != actual.get("key") and EXPECTED[name]["verify"].get("keys"):
        keys = [key["move"] for key in EXPECTED[name]["verify"]["keys"]]
        found.append(f"(the fixture's verification keys: {keys}; the key now is "
                     f"{'one of them' if actual.get('key') in keys else 'none of them'})")
    assert not found, f"{name}: {len(found)} difference(s) from the fixture:\n  " + "\n  ".join(found)
