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

import json
import sys
from pathlib import PurePath
from collections.abc import Callable
from typing import Any

import networkx as nx
import numpy as np

from ksolve import __version__
from ksolve.checker.problem import problem_digest
from ksolve.rules import get_rules
from ksolve.rules.base import Outcome, RuleSet

FORMAT, VERSION, DAG_VERSION = "ksolve-certificate", 1, 2


def observation(rules: RuleSet, key: np.ndarray) -> dict[str, Any]:
    """One observation key row of ``rules`` as the certificate's JSON object
    (``RuleSet.observation_json``).

    >>> from ksolve.rules import codes
    >>> key = np.array([codes.capture_code(36) | codes.CAPTURED_PAWN | codes.CHECK_FILE, 0], dtype=np.uint64)
    >>> observation(get_rules("wild16"), key)
    {'capture': 'e5', 'captured': 'pawn', 'checks': ['file']}
    """
    return rules.observation_json(key)


def certificate(problem, result, dag: bool = False) -> dict[str, Any]:
    """The certificate of a solved problem (``result``: a ``Solution`` with its tree).

    ``dag``: version 2, every distinct node written once in ``nodes`` and referred to
    by index (a strategy meets the same turn on many lines: K+R against a king hidden
    in a corner, 173,000 tree nodes, about 6,000 distinct ones); else version 1, the
    tree with every node nested in its parent."""
    from ksolve.analysis import Analysis

    if result.status != "solved" or result.tree is None:
        raise ValueError(f"only a solved problem has a certificate (status: {result.status})")
    tree = result.tree
    rules = get_rules(tree.graph["rules"])
    if tree.nodes[0]["kind"] == "start":
        firsts = [(observation(rules, np.asarray(data["key"], dtype=np.uint64)), child)
                  for _, child, data in tree.out_edges(0, data=True)]
    else:
        (first,) = Analysis(problem, rules).classes
        firsts = [(observation(rules, first.key), 0)]
    header = {"format": FORMAT, "version": DAG_VERSION if dag else VERSION, "producer": f"ksolve {__version__}",
              **problem_identity(problem), "rules": rules.name, "goal": rules.goal, "moves": tree.graph["moves"],
              "positions": result.belief_size}
    if not dag:
        return {**header, "initial": [[seen, _white(tree, rules, node)] for seen, node in firsts]}
    writer = DagWriter()
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(limit, 20_000))
        initial = [[seen, _white(tree, rules, node, writer)] for seen, node in firsts]
    finally:
        sys.setrecursionlimit(limit)
    return {**header, **writer.ordered(initial)}


class DagWriter:
    """Version 2's nodes, each distinct one kept once (hash-consing: a node is known by
    its JSON text, its children written as the numbers given to them); ``references``
    maps a node's references with a function (default: a strategy's nodes)."""

    def __init__(self, references: Callable[[dict[str, Any], Callable[[Any], Any]], dict[str, Any]] | None = None
                 ) -> None:
        self.nodes: list[dict[str, Any]] = []
        self.numbers: dict[str, int] = {}
        self.references = references or _with_references

    def intern(self, node: dict[str, Any]) -> int:
        """The number of ``node`` (whose children are numbers already)."""
        text = json.dumps(node, sort_keys=True, separators=(",", ":"))
        number = self.numbers.get(text)
        if number is None:
            number = self.numbers[text] = len(self.nodes)
            self.nodes.append(node)
        return number

    def ordered(self, initial: list) -> dict[str, Any]:
        """``initial`` and ``nodes`` with every node after those that refer to it: a node
        is numbered after its children, so the order reversed puts parents first."""
        last = len(self.nodes) - 1

        def index(number: Any) -> Any:
            return last - number if isinstance(number, int) else number  # "win", "lost": leaves

        nodes = [self.references(node, index) for node in reversed(self.nodes)]
        return {"initial": [[seen, index(number)] for seen, number in initial], "nodes": nodes}


def _with_references(node: dict[str, Any], index) -> dict[str, Any]:
    """``node`` with each reference to another node mapped by ``index``."""
    out = dict(node)
    for branch in ("no", "yes"):
        if branch in out and not isinstance(out[branch], str):
            out[branch] = index(out[branch])
    for field in ("answers", "replies"):
        if field in out:
            out[field] = [[seen, index(child)] for seen, child in out[field]]
    return out


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


def _white(tree: nx.DiGraph, rules: RuleSet, node: int, dag: DagWriter | None = None) -> Any:
    """White's turn at tree node ``node``: the node (version 1) or its number (``dag``)."""
    (_, child, edge), = tree.out_edges(node, data=True)
    if edge["kind"] == "ask":
        branches = {}
        for _, answer, data in tree.out_edges(child, data=True):
            branches["no" if data["label"] == "No" else "yes"] = _white(tree, rules, answer, dag)
        return _written({"ask": "any", **branches}, dag)
    if edge["kind"] == "probe":
        return _written({"probe": list(edge["squares"]),
                         "answers": [[data["contents"], _white(tree, rules, answer, dag)]
                                     for _, answer, data in tree.out_edges(child, data=True)]}, dag)
    result: dict[str, Any] = {"attempt": edge["move"]}
    answers = []
    for _, answer, data in tree.out_edges(child, data=True):
        key = np.asarray(data["key"], dtype=np.uint64)
        kind = tree.nodes[answer]["kind"]
        if rules.outcome(key) is Outcome.REFUSED:
            result["no"] = _white(tree, rules, answer, dag)
        elif kind == "win":
            answers.append([observation(rules, key), "win"])
        else:
            answers.append([observation(rules, key), _black(tree, rules, answer, dag)])
    if answers:
        result["answers"] = answers
    return _written(result, dag)


def _black(tree: nx.DiGraph, rules: RuleSet, node: int, dag: DagWriter | None = None) -> Any:
    return _written({"replies": [[observation(rules, np.asarray(data["key"], dtype=np.uint64)),
                                  _white(tree, rules, child, dag)]
                                 for _, child, data in tree.out_edges(node, data=True)]}, dag)


def _written(node: dict[str, Any], dag: DagWriter | None) -> Any:
    """The node itself (version 1), or its number among the DAG's nodes."""
    return node if dag is None else dag.intern(node)
