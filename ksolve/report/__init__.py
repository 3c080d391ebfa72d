"""Every rendering of a result: text in composers' conventions (``text``),
JSON (``json``), one HTML page with diagrams (``html``), graphs (``graph``:
DOT, GraphML), belief heat maps (``heatmap``) and Jupyter displays (``notebook``).

``render_report`` picks one of ``REPORT_FORMATS``; ``booklet`` puts the HTML of a
collection of problems on one page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ksolve.problem import Problem
    from ksolve.solver import Solution
    from ksolve.verification import Verification

REPORT_FORMATS = ("text", "json", "html", "dot", "graphml")
VERIFIED_FORMATS = ("text", "json", "html")
"""The formats that show a verification (tries, cooks, duals) beside the solution."""


def render_report(output_format: str, problem: "Problem", solution: "Solution",
                  verification: "Verification | None" = None) -> str:
    """The report of ``solution`` (and ``verification``) in one of ``REPORT_FORMATS``.

    Raises ``ValueError`` for a graph format without a strategy tree.
    """
    verified = verification.as_dict() if verification is not None else None
    if output_format == "html":
        from ksolve.report.html import render_html

        return render_html(problem, solution, verified, key_solutions=key_solutions(problem, solution, verified))
    if output_format == "json":
        import json

        from ksolve.report.json import result_json

        return json.dumps({**result_json(solution, problem), "verification": verified}, indent=1)
    if output_format in ("dot", "graphml"):
        if solution.tree is None:
            raise ValueError(f"{problem.source}: no strategy tree to draw ({solution.status})")
        from ksolve.report.graph import to_dot, to_graphml

        return to_dot(solution.tree) if output_format == "dot" else to_graphml(solution.tree)
    if output_format != "text":
        raise ValueError(f"unknown report format {output_format!r}; valid: {', '.join(REPORT_FORMATS)}")
    from ksolve.report.text import render_solution_text, render_verification_text

    lines = [render_solution_text(problem, solution)]
    if verified is not None:
        lines += ["", render_verification_text(verified)]
    return "\n".join(lines) + "\n"


def key_solutions(problem: "Problem", solution: "Solution", verification: dict | None) -> list["Solution"]:
    """The strategies of a cooked problem's keys other than the solution's own (each with
    its tree, mating as fast as that key can): what a composer needs to mend the cook.
    Empty unless the verification found more than one key.

    >>> from ksolve.problem import load_problem_text
    >>> from ksolve.solver import solve
    >>> problem = load_problem_text('stipulation = "#1"\\nrules = "berkeley"\\n[position]\\n'
    ...                             'fen = "k7/8/1K6/8/8/8/8/6RR w - - 0 1"\\n')
    >>> keys = [{"move": "g1g8", "moves": 1}, {"move": "h1h8", "moves": 1}]
    >>> [other.key for other in key_solutions(problem, solve(problem), {"keys": keys})]
    ['h1h8']
    """
    keys = [key for key in (verification or {}).get("keys") or [] if isinstance(key, dict) and key.get("move")]
    if len(keys) < 2:
        return []
    from ksolve.analysis import Analysis
    from ksolve.solver import solve_with_key

    return [solve_with_key(Analysis(problem, solution.rules or None, key.get("moves") or solution.max_moves),
                           key["move"]) for key in keys if key["move"] != solution.key]
