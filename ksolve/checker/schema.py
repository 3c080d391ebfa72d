"""The shape of a certificate (``docs/certificate.md``), checked before any replay.

A malformed certificate (wrong field types, an unknown rule set, "Any?" where
the rules have none, the same observation listed twice under one node) raises
``CertificateError`` naming where, as a path such as
``initial[0][1].answers[2][1]``.  Fields the format does not define are
ignored.

>>> mate = {"attempt": "h1h8", "answers": [[{"end": "checkmate"}, "win"]]}
>>> validate({"format": "ksolve-certificate", "version": 1, "rules": "berkeley", "goal": "mate",
...           "moves": 1, "positions": 1, "initial": [[{}, mate]]})
>>> validate({"format": "ksolve-certificate", "version": 1, "rules": "berkeley", "goal": "mate",
...           "moves": 1, "initial": [[{}, {"ask": "any", "yes": {}}]]})
Traceback (most recent call last):
...
ksolve.checker.schema.CertificateError: initial[0][1]: "Any?" is not a question of the berkeley rule set
"""

from __future__ import annotations

import sys
from typing import Any

import chess

from ksolve.checker.referee import ANY_QUESTION, MAX_PROBES, PROBES, RULE_SETS, canonical

FORMAT, VERSION = "ksolve-certificate", 1


class CertificateError(ValueError):
    """A certificate that does not follow the format."""


def validate(certificate: Any) -> None:
    """Raise ``CertificateError`` unless ``certificate`` has the format's shape."""
    if not isinstance(certificate, dict):
        raise CertificateError("the certificate must be a JSON object")
    if certificate.get("format") != FORMAT:
        raise CertificateError(f"format: expected {FORMAT!r}, got {certificate.get('format')!r}")
    if certificate.get("version") != VERSION:
        raise CertificateError(f"version: this checker reads version {VERSION}, got {certificate.get('version')!r}")
    rules = certificate.get("rules")
    if rules not in RULE_SETS:
        raise CertificateError(f"rules: {rules!r} is not one of {', '.join(RULE_SETS)}")
    goal = "king-capture" if rules == "fog-of-war" else "mate"
    if certificate.get("goal") != goal:
        raise CertificateError(f"goal: the {rules} rule set's goal is {goal!r}, got {certificate.get('goal')!r}")
    moves = certificate.get("moves")
    if not isinstance(moves, int) or isinstance(moves, bool) or moves < 1:
        raise CertificateError(f"moves: must be a positive whole number, got {moves!r}")
    positions = certificate.get("positions")
    if positions is not None and (not isinstance(positions, int) or isinstance(positions, bool)):
        raise CertificateError(f"positions: must be a whole number, got {positions!r}")
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(limit, 20_000))
        _pairs(certificate.get("initial"), "initial", rules, _white)
    except RecursionError:
        raise CertificateError("the strategy tree is nested too deeply") from None
    finally:
        sys.setrecursionlimit(limit)


def _pairs(value: Any, where: str, rules: str, check_value) -> None:
    """A list of [OBSERVATION, node] pairs with distinct observations."""
    if not isinstance(value, list):
        raise CertificateError(f"{where}: must be a list of [observation, node] pairs")
    seen = set()
    for index, pair in enumerate(value):
        here = f"{where}[{index}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise CertificateError(f"{here}: must be a pair [observation, node]")
        if not isinstance(pair[0], dict):
            raise CertificateError(f"{here}[0]: an observation must be a JSON object")
        try:
            key = canonical(pair[0])
        except (TypeError, ValueError) as error:
            raise CertificateError(f"{here}[0]: not a JSON object: {error}") from None
        if key in seen:
            raise CertificateError(f"{here}[0]: observation {key} listed twice")
        seen.add(key)
        check_value(pair[1], f"{here}[1]", rules)


def _white(node: Any, where: str, rules: str) -> None:
    if not isinstance(node, dict):
        raise CertificateError(f"{where}: a White node must be a JSON object")
    if sum(kind in node for kind in ("ask", "attempt", "probe")) != 1:
        raise CertificateError(f"{where}: a White node has one of 'attempt', 'ask' or 'probe'")
    if "probe" in node:
        _probe(node, where, rules)
        return
    if "ask" in node:
        if node["ask"] != "any":
            raise CertificateError(f"{where}.ask: the only question is 'any', got {node['ask']!r}")
        if rules not in ANY_QUESTION:
            raise CertificateError(f"{where}: \"Any?\" is not a question of the {rules} rule set")
        for branch in ("yes", "no"):
            if branch in node:
                _white(node[branch], f"{where}.{branch}", rules)
        return
    attempt = node["attempt"]
    try:
        move = chess.Move.from_uci(attempt) if isinstance(attempt, str) else None
    except ValueError:
        move = None
    if move is None or not move or move.drop:
        raise CertificateError(f"{where}.attempt: {attempt!r} is not a UCI move")
    if "no" in node:
        _white(node["no"], f"{where}.no", rules)
    if "answers" in node:
        _pairs(node["answers"], f"{where}.answers", rules, _black_or_win)


def _probe(node: dict, where: str, rules: str) -> None:
    """``{"probe": [SQUARE, ...], "answers": [[{SQUARE: SYMBOL or null}, WHITE_NODE], ...]}``."""
    if rules not in PROBES:
        raise CertificateError(f"{where}: the {rules} rule set has no probes")
    squares = node["probe"]
    if (not isinstance(squares, list) or not 1 <= len(squares) <= MAX_PROBES
            or not all(isinstance(s, str) and s in chess.SQUARE_NAMES for s in squares)
            or len(set(squares)) != len(squares)):
        raise CertificateError(f"{where}.probe: must be 1 to {MAX_PROBES} distinct square names, got {squares!r}")
    _pairs(node.get("answers"), f"{where}.answers", rules, _white)


def _black_or_win(node: Any, where: str, rules: str) -> None:
    if node == "win":
        return
    if not isinstance(node, dict) or not isinstance(node.get("replies"), list):
        raise CertificateError(f"{where}: expected \"win\" or a Black node {{\"replies\": [...]}}")
    _pairs(node["replies"], f"{where}.replies", rules, _white)
