"""The machine-readable result of a solve.

>>> from ksolve.solver import Solution
>>> result_json(Solution("no solution", None, 2, None, 30, 12, 0.5))["status"]
'no solution'
"""

from __future__ import annotations

from typing import Any

import networkx as nx


def result_json(result, problem=None) -> dict[str, Any]:
    """A JSON-ready dict: status, moves, key, belief size, nodes, seconds, the
    solution as problemists print it (``solution``) and the whole tree."""
    data: dict[str, Any] = {
        "status": result.status,
        "moves": result.moves,
        "max_moves": result.max_moves,
        "shortest": result.shortest,
        "key": result.key,
        "belief_size": result.belief_size,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 3),
    }
    if result.reason:
        data["reason"] = result.reason
    if problem is not None:
        data["problem"] = {"id": problem.id, "file": problem.source, "stipulation": problem.stipulation,
                           "rules": problem.rules.name, "published_key": problem.published_key,
                           "positions": "reachable" if problem.reachable else "all",
                           "left_out": problem.left_out.as_dict()}
    if len(result.classes) > 1:
        data["first_announcements"] = [{"announcement": label, "size": size} for label, size in result.classes]
    if result.tree is not None:
        from ksolve.report.lines import main_line

        data["solution"] = main_line(result.tree).text()
        data["tree"] = nx.node_link_data(result.tree, edges="edges")
    return data
