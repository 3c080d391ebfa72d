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
from collections.abc import Callable
from typing import Any

import chess

from ksolve.checker.referee import ANY_QUESTION, MAX_PROBES, PROBES, RULE_SETS, canonical

FORMAT, VERSION, DAG_VERSION = "ksolve-certificate", 1, 2
REFUTATION_FORMAT, REFUTATION_VERSION, REFUTATION_DAG_VERSION = "ksolve-refutation", 1, 2
VERDICT_FORMAT, VERDICT_VERSION = "ksolve-verdict", 1
LOST = "lost"
"""A refutation's leaf: White's moves are spent, or the game ended without his win."""
MAX_DEPTH = 20_000
"""The deepest nesting of a refutation's nodes (a guard, not a limit of the format)."""
VERSIONS = (VERSION, DAG_VERSION)
"""Version 1 nests every node in its parent (a tree); version 2 lists the nodes once
each in ``nodes`` and refers to them by index (a DAG: a turn met on many lines is
written, and checked, once per set of positions that reach it)."""


class CertificateError(ValueError):
    """A certificate that does not follow the format."""


def is_refutation(certificate: Any) -> bool:
    """Whether ``certificate`` says it is a refutation certificate."""
    return isinstance(certificate, dict) and certificate.get("format") == REFUTATION_FORMAT


def validate_refutation(certificate: Any) -> None:
    """Raise ``CertificateError`` unless ``certificate`` has the refutation format's shape."""
    if not is_refutation(certificate):
        raise CertificateError(f"format: expected {REFUTATION_FORMAT!r}")
    if certificate.get("version") not in (REFUTATION_VERSION, REFUTATION_DAG_VERSION) or isinstance(
            certificate.get("version"), bool):
        raise CertificateError(f"version: this checker reads refutation versions {REFUTATION_VERSION} and "
                               f"{REFUTATION_DAG_VERSION}, got {certificate.get('version')!r}")
    rules = certificate.get("rules")
    if rules not in RULE_SETS:
        raise CertificateError(f"rules: {rules!r} is not one of {', '.join(RULE_SETS)}")
    if rules in PROBES:
        raise CertificateError(f"rules: refutations under {rules} are not checked (a probe may name too many "
                               "sets of squares to enumerate)")
    goal = certificate.get("goal")
    if goal != ("king-capture" if rules == "fog-of-war" else "mate"):
        raise CertificateError(f"goal: {goal!r} is not the goal of the {rules} rule set")
    moves = certificate.get("moves")
    if not isinstance(moves, int) or isinstance(moves, bool) or moves < 1:
        raise CertificateError(f"moves: must be a whole number of at least 1, got {moves!r}")
    first = certificate.get("first")
    if first is not None:
        if first == "any":
            if rules not in ANY_QUESTION:
                raise CertificateError(f"first: \"Any?\" is not a question of the {rules} rule set")
        elif not _is_uci(first):
            raise CertificateError(f"first: {first!r} is not a UCI move nor \"any\"")
    initial = certificate.get("initial")
    if not isinstance(initial, list) or len(initial) != 2 or not isinstance(initial[0], dict):
        raise CertificateError("initial: must be [OBSERVATION, WHITE_NODE]")
    if certificate["version"] == REFUTATION_DAG_VERSION:
        _refutation_dag(certificate)
        return
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(limit, 3 * MAX_DEPTH))
        _refutation_tree(initial[1])
    except RecursionError:
        raise CertificateError("initial: nested too deeply") from None
    finally:
        sys.setrecursionlimit(limit)


def _is_uci(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        move = chess.Move.from_uci(value)
    except ValueError:
        return False
    return bool(move) and not move.drop


def _keep_shape(node: dict, where: str) -> None:
    keep = node.get("keep")
    if keep is not None and (not isinstance(keep, list) or not keep or not all(isinstance(e, str) for e in keep)):
        raise CertificateError(f"{where}.keep: must be a non-empty list of EPD strings")


def _white_shape(node: Any, where: str, white: Callable[[Any, str], None], black: Callable[[Any, str], None]) -> None:
    """A refuting White node; ``white`` and ``black`` check its children (nested, or references)."""
    if not isinstance(node, dict):
        raise CertificateError(f"{where}: a White node must be a JSON object")
    _keep_shape(node, where)
    attempts = node.get("attempts", [])
    if not isinstance(attempts, list):
        raise CertificateError(f"{where}.attempts: must be a list of [ATTEMPT, ANSWER, NODE]")
    seen = set()
    for index, entry in enumerate(attempts):
        here = f"{where}.attempts[{index}]"
        if not isinstance(entry, list) or len(entry) != 3 or not _is_uci(entry[0]):
            raise CertificateError(f"{here}: must be [UCI move, ANSWER, NODE]")
        if entry[0] in seen:
            raise CertificateError(f"{here}: {entry[0]} is listed twice")
        seen.add(entry[0])
        answer, child = entry[1], entry[2]
        if answer == "No":
            if child == LOST:
                raise CertificateError(f'{here}[2]: after "No" White is still to move: a White node, not "lost"')
            white(child, f"{here}[2]")
        elif not isinstance(answer, dict):
            raise CertificateError(f"{here}[1]: must be \"No\" or an observation object")
        elif child != LOST:
            black(child, f"{here}[2]")
    if "any" in node:
        entry = node["any"]
        if not isinstance(entry, list) or len(entry) != 2 or entry[0] not in ("yes", "no") or entry[1] == LOST:
            raise CertificateError(f"{where}.any: must be [\"yes\" or \"no\", WHITE_NODE]")
        white(entry[1], f"{where}.any[1]")


def _black_shape(node: Any, where: str, white: Callable[[Any, str], None]) -> None:
    """A refuting Black node; ``white`` checks its child."""
    if not isinstance(node, dict):
        raise CertificateError(f"{where}: a Black node must be a JSON object or \"lost\"")
    _keep_shape(node, where)
    reply = node.get("reply")
    if not isinstance(reply, list) or len(reply) != 2 or not isinstance(reply[0], dict):
        raise CertificateError(f"{where}.reply: must be [OBSERVATION, WHITE_NODE or \"lost\"]")
    if reply[1] != LOST:
        white(reply[1], f"{where}.reply[1]")


def _refutation_tree(root: Any) -> None:
    """Version 1: every node nested in its parent."""
    def white(node: Any, where: str, depth: int = 0) -> None:
        if depth > MAX_DEPTH:
            raise CertificateError(f"{where}: nested deeper than {MAX_DEPTH:,} nodes")
        _white_shape(node, where, lambda child, at: white(child, at, depth + 1),
                     lambda child, at: _black_shape(child, at, lambda grand, at2: white(grand, at2, depth + 2)))

    white(root, "initial[1]")


def _refutation_dag(certificate: dict) -> None:
    """Version 2: ``nodes`` listed once each, referred to by index (each to a later node)."""
    nodes = certificate.get("nodes")
    if not isinstance(nodes, list) or not nodes:
        raise CertificateError("nodes: must be a non-empty list of nodes (version 2)")
    kinds = _Kinds(len(nodes))
    rules = certificate["rules"]
    white_ref, black_ref = kinds.refer("white"), kinds.refer("black")

    def white(value: Any, where: str) -> None:
        white_ref(value, where, rules)

    def black(value: Any, where: str) -> None:
        black_ref(value, where, rules)

    white(certificate["initial"][1], "initial[1]")
    for index, node in enumerate(nodes):
        kinds.at = index
        where = f"nodes[{index}]"
        kind, _ = kinds.expected.get(index, (None, ""))
        if kind is None:
            raise CertificateError(f"{where}: no node refers to it")
        if kind == "white":
            _white_shape(node, where, white, black)
        else:
            _black_shape(node, where, white)


def is_verdict(certificate: Any) -> bool:
    """Whether ``certificate`` says it is a verification's certificate."""
    return isinstance(certificate, dict) and certificate.get("format") == VERDICT_FORMAT


def validate_verdict(certificate: Any) -> None:
    """Raise ``CertificateError`` unless ``certificate`` has the verdict format's shape:
    its strategies and refutations each valid, all for its rule set and goal."""
    if certificate.get("version") != VERDICT_VERSION or isinstance(certificate.get("version"), bool):
        raise CertificateError(f"version: this checker reads verdict version {VERDICT_VERSION}, "
                               f"got {certificate.get('version')!r}")
    moves = certificate.get("moves")
    if not isinstance(moves, int) or isinstance(moves, bool) or moves < 1:
        raise CertificateError(f"moves: must be a whole number of at least 1, got {moves!r}")
    for part, check in (("strategies", _validate_strategy), ("refutations", validate_refutation)):
        entries = certificate.get(part)
        if not isinstance(entries, list):
            raise CertificateError(f"{part}: must be a list")
        for index, entry in enumerate(entries):
            try:
                check(entry)
            except CertificateError as error:
                raise CertificateError(f"{part}[{index}]: {error}") from None
            for name in ("rules", "goal"):
                if entry.get(name) != certificate.get(name):
                    raise CertificateError(f"{part}[{index}].{name}: {entry.get(name)!r}, but the certificate's "
                                           f"is {certificate.get(name)!r}")


def _validate_strategy(entry: Any) -> None:
    if not isinstance(entry, dict) or entry.get("format") != FORMAT:
        raise CertificateError(f"format: expected {FORMAT!r}")
    validate(entry)


def validate(certificate: Any) -> None:
    """Raise ``CertificateError`` unless ``certificate`` has the format's shape."""
    if not isinstance(certificate, dict):
        raise CertificateError("the certificate must be a JSON object")
    if is_refutation(certificate):
        validate_refutation(certificate)
        return
    if is_verdict(certificate):
        validate_verdict(certificate)
        return
    if certificate.get("format") != FORMAT:
        raise CertificateError(f"format: expected {FORMAT!r}, got {certificate.get('format')!r}")
    version = certificate.get("version")
    if version not in VERSIONS or isinstance(version, bool):
        raise CertificateError(f"version: this checker reads versions {VERSION} and {DAG_VERSION}, got {version!r}")
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
    if version == DAG_VERSION:
        _validate_dag(certificate, rules)
        return
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(limit, 20_000))
        _pairs(certificate.get("initial"), "initial", rules, _white)
    except RecursionError:
        raise CertificateError("the strategy tree is nested too deeply") from None
    finally:
        sys.setrecursionlimit(limit)


class _Kinds:
    """Version 2: the kind each referenced node must have (White or Black), gathered
    while the referring nodes are validated; every reference points to a later node
    (so that the graph has no cycle) of ``count`` nodes."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.expected: dict[int, tuple[str, str]] = {}
        self.at = -1
        """The index of the node being validated (-1: ``initial``)."""

    def refer(self, kind: str, leaf: str | None = None):
        """A value checker for a reference to a node of ``kind`` (``white``, ``black``), or
        the ``leaf`` written in its place (``"win"``, ``"lost"``)."""
        def check(value: Any, where: str, rules: str) -> None:
            if leaf is not None and value == leaf:
                return
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < self.count:
                raise CertificateError(f"{where}: must be the index of a node (0 to {self.count - 1})"
                                       + (f' or "{leaf}"' if leaf else "") + f", got {value!r}")
            if value <= self.at:
                raise CertificateError(f"{where}: refers to node {value}, not after node {self.at}: every "
                                       "reference points to a later node (the nodes form no cycle)")
            known = self.expected.setdefault(value, (kind, where))
            if known[0] != kind:
                raise CertificateError(f"{where}: node {value} is referred to as a {kind} node, and as a "
                                       f"{known[0]} node at {known[1]}")
        return check


def _validate_dag(certificate: dict, rules: str) -> None:
    """Version 2: ``initial`` and every node of ``nodes``, each once, references by index."""
    nodes = certificate.get("nodes")
    if not isinstance(nodes, list) or not nodes:
        raise CertificateError("nodes: must be a non-empty list of nodes (version 2)")
    kinds = _Kinds(len(nodes))
    _pairs(certificate.get("initial"), "initial", rules, kinds.refer("white"))
    for index, node in enumerate(nodes):
        kinds.at = index
        where = f"nodes[{index}]"
        kind, _ = kinds.expected.get(index, (None, ""))
        if kind is None:
            raise CertificateError(f"{where}: no node refers to it")
        if kind == "white":
            _white(node, where, rules, kinds.refer("white"), kinds.refer("black", "win"))
        else:
            _black_or_win(node, where, rules, kinds.refer("white"))
            if node == "win":
                raise CertificateError(f'{where}: "win" is written where it is reached, not as a node')


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


def _white(node: Any, where: str, rules: str, white=None, black=None) -> None:
    """A White node; its children checked by ``white`` and ``black`` (default: as
    nested nodes of version 1)."""
    white = white or _white
    black = black or _black_or_win
    if not isinstance(node, dict):
        raise CertificateError(f"{where}: a White node must be a JSON object")
    if sum(kind in node for kind in ("ask", "attempt", "probe")) != 1:
        raise CertificateError(f"{where}: a White node has one of 'attempt', 'ask' or 'probe'")
    if "probe" in node:
        _probe(node, where, rules, white)
        return
    if "ask" in node:
        if node["ask"] != "any":
            raise CertificateError(f"{where}.ask: the only question is 'any', got {node['ask']!r}")
        if rules not in ANY_QUESTION:
            raise CertificateError(f"{where}: \"Any?\" is not a question of the {rules} rule set")
        for branch in ("yes", "no"):
            if branch in node:
                white(node[branch], f"{where}.{branch}", rules)
        return
    attempt = node["attempt"]
    try:
        move = chess.Move.from_uci(attempt) if isinstance(attempt, str) else None
    except ValueError:
        move = None
    if move is None or not move or move.drop:
        raise CertificateError(f"{where}.attempt: {attempt!r} is not a UCI move")
    if "no" in node:
        white(node["no"], f"{where}.no", rules)
    if "answers" in node:
        _pairs(node["answers"], f"{where}.answers", rules, black)


def _probe(node: dict, where: str, rules: str, white) -> None:
    """``{"probe": [SQUARE, ...], "answers": [[{SQUARE: SYMBOL or null}, WHITE_NODE], ...]}``."""
    if rules not in PROBES:
        raise CertificateError(f"{where}: the {rules} rule set has no probes")
    squares = node["probe"]
    if (not isinstance(squares, list) or not 1 <= len(squares) <= MAX_PROBES
            or not all(isinstance(s, str) and s in chess.SQUARE_NAMES for s in squares)
            or len(set(squares)) != len(squares)):
        raise CertificateError(f"{where}.probe: must be 1 to {MAX_PROBES} distinct square names, got {squares!r}")
    _pairs(node.get("answers"), f"{where}.answers", rules, white)


def _black_or_win(node: Any, where: str, rules: str, white=None) -> None:
    if node == "win":
        return
    if not isinstance(node, dict) or not isinstance(node.get("replies"), list):
        raise CertificateError(f"{where}: expected \"win\" or a Black node {{\"replies\": [...]}}")
    _pairs(node["replies"], f"{where}.replies", rules, white or _white)
