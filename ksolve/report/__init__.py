"""Every rendering of a result: text in composers' conventions (``text``),
JSON (``json``), one HTML page with diagrams (``html``), graphs (``graph``:
DOT, GraphML), belief heat maps (``heatmap``) and Jupyter displays (``notebook``).

``render_report`` picks one of ``REPORT_FORMATS``; ``booklet`` puts the HTML of a
collection of problems on one page.  Renderers read results; they never search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from ksolve.problem import Problem
    from ksolve.solver import Solution
    from ksolve.verification import Verification

REPORT_FORMATS = ("text", "json", "html", "dot", "graphml")
VERIFIED_FORMATS = ("text", "json", "html")
"""The formats that show a verification (tries, cooks, duals) beside the solution."""


def render_report(output_format: str, problem: "Problem", solution: "Solution",
                  verification: "Verification | None" = None, key_solutions: Sequence["Solution"] = ()) -> str:
    """The report of ``solution`` (and ``verification``) in one of ``REPORT_FORMATS``;
    ``key_solutions``: the strategies of a cooked problem's other keys (``ksolve.key_solutions``
    searches them: a renderer never searches), shown in HTML.

    Raises ``ValueError`` for a graph format without a strategy tree.
    """
    verified = verification.as_dict() if verification is not None else None
    if output_format == "html":
        from ksolve.report.html import render_html

        return render_html(problem, solution, verified, key_solutions=key_solutions)
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
