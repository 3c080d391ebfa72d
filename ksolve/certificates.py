"""Certificates: a proven strategy written for an independent checker.

The format is ``docs/certificate.md``: the strategy tree with every
observation spelled out as a small JSON object, so that ``ksolve.checker``
(python-chess only) can replay it without sharing the solver's code.

>>> from ksolve.problem import load_problem_text
>>> from ksolve.solver import solve
>>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> certificate(problem, solve(problem))["initial"]
[[{}, {'attempt': 'h1h8', 'answers': [[{'end': 'checkmate'}, 'win']]}]]
"""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

import networkx as nx
import numpy as np

from ksolve import __version__
from ksolve.checker.problem import problem_digest
from ksolve.rules import get_rules
from ksolve.rules.base import Outcome, RuleSet

FORMAT, VERSION = "ksolve-certificate", 1


def observation(rules: RuleSet, key: np.ndarray) -> dict[str, Any]:
    """One observation key row of ``rules`` as the certificate's JSON object
    (``RuleSet.observation_json``).

    >>> from ksolve.rules import codes
    >>> key = np.array([codes.capture_code(36) | codes.CAPTURED_PAWN | codes.CHECK_FILE, 0], dtype=np.uint64)
    >>> observation(get_rules("wild16"), key)
    {'capture': 'e5', 'captured': 'pawn', 'checks': ['file']}
    """
    return rules.observation_json(key)


def certificate(problem, result) -> dict[str, Any]:
    """The certificate of a solved problem (``result``: a ``Solution`` with its tree)."""
    from ksolve.analysis import Analysis

    if result.status != "solved" or result.tree is None:
        raise ValueError(f"only a solved problem has a certificate (status: {result.status})")
    tree = result.tree
    rules = get_rules(tree.graph["rules"])
    if tree.nodes[0]["kind"] == "start":
        initial = [[observation(rules, np.asarray(data["key"], dtype=np.uint64)), _white(tree, rules, child)]
                   for _, child, data in tree.out_edges(0, data=True)]
    else:
        (first,) = Analysis(problem, rules).classes
        initial = [[observation(rules, first.key), _white(tree, rules, 0)]]
    return {"format": FORMAT, "version": VERSION, "producer": f"ksolve {__version__}", **problem_identity(problem),
            "rules": rules.name,
            "goal": rules.goal, "moves": tree.graph["moves"], "positions": result.belief_size,
            "initial": initial}


def problem_identity(problem) -> dict[str, str]:
    """What a certificate records of its problem: the file's name (not its
    path, so that the certificate moves with it), the problem's id and the
    digest of its text, by which the checker tells another problem.

    >>> from ksolve.problem import load_problem
    >>> identity = problem_identity(load_problem("problems/foster-1996.toml"))
    >>> identity["problem"], identity["problem_id"], len(identity["problem_sha256"])
    ('foster-1996.toml', 'foster-1996', 64)
    """
    identity = {"problem": PurePath(problem.source).name, "problem_id": problem.id}
    if getattr(problem, "twin", ""):
        identity["twin"] = problem.twin
    if problem.text:
        identity["problem_sha256"] = problem_digest(problem.text)
    return identity


def _white(tree: nx.DiGraph, rules: RuleSet, node: int) -> dict[str, Any]:
    (_, child, edge), = tree.out_edges(node, data=True)
    if edge["kind"] == "ask":
        branches = {}
        for _, answer, data in tree.out_edges(child, data=True):
            branches["no" if data["label"] == "No" else "yes"] = _white(tree, rules, answer)
        return {"ask": "any", **branches}
    if edge["kind"] == "probe":
        return {"probe": list(edge["squares"]),
                "answers": [[data["contents"], _white(tree, rules, answer)]
                            for _, answer, data in tree.out_edges(child, data=True)]}
    result: dict[str, Any] = {"attempt": edge["move"]}
    answers = []
    for _, answer, data in tree.out_edges(child, data=True):
        key = np.asarray(data["key"], dtype=np.uint64)
        kind = tree.nodes[answer]["kind"]
        if rules.outcome(key) is Outcome.REFUSED:
            result["no"] = _white(tree, rules, answer)
        elif kind == "win":
            answers.append([observation(rules, key), "win"])
        else:
            answers.append([observation(rules, key), _black(tree, rules, answer)])
    if answers:
        result["answers"] = answers
    return result


def _black(tree: nx.DiGraph, rules: RuleSet, node: int) -> dict[str, Any]:
    return {"replies": [[observation(rules, np.asarray(data["key"], dtype=np.uint64)), _white(tree, rules, child)]
                        for _, child, data in tree.out_edges(node, data=True)]}
