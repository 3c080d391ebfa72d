"""Certificates: a proven strategy written for an independent checker.

The format is ``docs/certificate.md``: the strategy tree with every
observation spelled out as a small JSON object, so that ``ksolve.check``
(python-chess only) can replay it without sharing the solver's code.

>>> from ksolve.problem import load_problem_text
>>> from ksolve.solver import solve
>>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n')
>>> certificate(problem, solve(problem))["initial"]
[[{}, {'attempt': 'h1h8', 'answers': [[{'end': 'checkmate'}, 'win']]}]]
"""

from __future__ import annotations

from typing import Any

import chess
import networkx as nx
import numpy as np

from ksolve.board import position_to_board
from ksolve.board.layout import COLUMN_EP, POSITION_WIDTH
from ksolve.rules import codes
from ksolve.rules.base import RuleSet
from ksolve.rules.kernels import PAWN_INFO_COUNT, PAWN_INFO_EXISTS, PAWN_INFO_SQUARES

FORMAT, VERSION = "ksolve-certificate", 1
_CHECKS = [(codes.CHECK_RANK, "rank"), (codes.CHECK_FILE, "file"), (codes.CHECK_LONG, "long"),
           (codes.CHECK_SHORT, "short"), (codes.CHECK_KNIGHT, "knight")]
_ENDS = {codes.END_CHECKMATE: "checkmate", codes.END_STALEMATE: "stalemate",
         codes.END_INSUFFICIENT: "insufficient", codes.END_MOVE_LIMIT: "move-limit",
         codes.END_KING_CAPTURED: "king-captured"}


def observation(rules: RuleSet, key: np.ndarray) -> dict[str, Any]:
    """One observation key row of ``rules`` as the certificate's JSON object.

    >>> from ksolve.rules import get_rules
    >>> key = np.array([codes.capture_code(36) | codes.CAPTURED_PAWN | codes.CHECK_FILE, 0], dtype=np.uint64)
    >>> observation(get_rules("wild16"), key)
    {'capture': 'e5', 'captured': 'pawn', 'checks': ['file']}
    """
    code = int(key[0])
    if code == codes.ILLEGAL:
        raise ValueError("a refusal is not an observation (it is the 'no' branch)")
    result: dict[str, Any] = {}
    square = codes.capture_square(code)
    if square is not None:
        result["capture"] = chess.square_name(square)
        if getattr(rules, "capture_kind", False):
            result["captured"] = "pawn" if code & codes.CAPTURED_PAWN else "piece"
        if code & codes.EN_PASSANT:
            result["en_passant"] = True
    if code & codes.PROMOTION:
        result["promotion"] = True
    checks = [word for bit, word in _CHECKS if code & bit]
    if checks:
        result["checks"] = checks
    end = codes.end_of(code)
    if end:
        result["end"] = _ENDS[end]
    if code & codes.PAWN_INFO:
        result["pawn_tries"] = _pawn_tries(rules, code, int(key[1]))
    if rules.name == "orthodox":
        result = {"end": result["end"]} if "end" in result else {}
        result["position"] = _orthodox_position(key)
    elif rules.fog:
        result.update(_fog_view(key))
    return result


def _pawn_tries(rules: RuleSet, code: int, extra: int) -> Any:
    kind = getattr(rules, "pawn_info", None)
    count = codes.pawn_try_count(code)
    if kind == PAWN_INFO_COUNT:
        return count
    if kind == PAWN_INFO_EXISTS:
        return bool(count)
    if kind == PAWN_INFO_SQUARES:
        return [chess.square_name(s) for s in chess.scan_forward(extra)]
    raise ValueError(f"the {rules.name} rule set announces no pawn tries")


def _orthodox_position(key: np.ndarray) -> str:
    row = np.zeros(POSITION_WIDTH, dtype=np.uint64)
    row[: COLUMN_EP + 1] = key[2:]
    return position_to_board(row).epd()


def _fog_view(key: np.ndarray) -> dict[str, Any]:
    visible = int(key[1])
    black, white = {}, {}
    for piece in range(6):
        for square in chess.scan_forward(int(key[2 + piece])):
            black[chess.square_name(square)] = chess.piece_symbol(piece + 1)
        for square in chess.scan_forward(int(key[8 + piece])):
            white[chess.square_name(square)] = chess.piece_symbol(piece + 1).upper()
    rights = int(key[14])
    return {"visible": [chess.square_name(s) for s in chess.scan_forward(visible)], "black": black,
            "white": white, "castling": ("K" if rights & 1 else "") + ("Q" if rights & 2 else "")}


def certificate(problem, result) -> dict[str, Any]:
    """The certificate of a solved problem (``result`` from ``ksolve.solver.solve``
    with its tree)."""
    if result.status != "solved" or result.tree is None:
        raise ValueError(f"only a solved problem has a certificate (status: {result.status})")
    tree = result.tree
    rules_name = tree.graph["rules"]
    from ksolve.rules import get_rules

    rules = get_rules(rules_name)
    if tree.nodes[0]["kind"] == "start":
        initial = [[observation(rules, np.asarray(data["key"], dtype=np.uint64)), _white(tree, rules, child)]
                   for _, child, data in tree.out_edges(0, data=True)]
    else:
        keys = np.unique(rules.turn_info(problem.belief().positions), axis=0)
        initial = [[observation(rules, keys[0]), _white(tree, rules, 0)]]
    return {"format": FORMAT, "version": VERSION, "problem": problem.source, "rules": rules_name,
            "goal": "king-capture" if rules.fog else "mate", "moves": tree.graph["moves"],
            "positions": result.belief_size, "initial": initial}


def _white(tree: nx.DiGraph, rules: RuleSet, node: int) -> dict[str, Any]:
    (_, child, edge), = tree.out_edges(node, data=True)
    if edge["kind"] == "ask":
        branches = {}
        for _, answer, data in tree.out_edges(child, data=True):
            branches["no" if data["label"] == "No" else "yes"] = _white(tree, rules, answer)
        return {"ask": "any", **branches}
    result: dict[str, Any] = {"attempt": edge["move"]}
    answers = []
    for _, answer, data in tree.out_edges(child, data=True):
        key = np.asarray(data["key"], dtype=np.uint64)
        kind = tree.nodes[answer]["kind"]
        if int(key[0]) == codes.ILLEGAL:
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
