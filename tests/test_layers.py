"""The architecture's "never" rules (docs/architecture.md) as an import contract.

A small AST reading of ``ksolve/`` rather than the ``import-linter`` package: the
graph it needs is twenty lines over ``ast`` and ``networkx`` (already a
dependency), it counts the imports inside functions (ksolve imports heavy
modules lazily, and a lazy import is a dependency too) and leaves out those
under ``TYPE_CHECKING`` (annotations only), and a failure names the importing
module and line; import-linter would add a dependency and a configuration
format for the same five rules.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent / "ksolve"


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str) -> list[tuple[str, int]]:
    """The ksolve modules ``name`` imports (outside ``if TYPE_CHECKING:``), each with its line."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(node) for block in ast.walk(tree)
                   if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
                   for node in ast.walk(block)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.append((target, node.lineno))
    return found


GRAPH = nx.DiGraph([(name, target) for name in MODULES for target, _ in _imports(name)])


def _breaking(importers: str | tuple[str, ...], forbidden: tuple[str, ...]) -> list[str]:
    """``module:line imports target`` for each import of a ``forbidden`` package by an importer."""
    importers = (importers,) if isinstance(importers, str) else importers
    return [f"{name}:{line} imports {target}" for name in MODULES if name.startswith(importers)
            for target, line in _imports(name) if target.startswith(forbidden)]


def test_ksolve_has_no_import_circles() -> None:
    circles = [sorted(group) for group in nx.strongly_connected_components(GRAPH) if len(group) > 1]
    assert circles == []


def test_the_algorithms_import_no_executor() -> None:
    """Executors are chosen by the API (``ksolve.execution.executors``), never by an algorithm."""
    algorithms = ("ksolve.solver", "ksolve.verification", "ksolve.solution", "ksolve.analysis", "ksolve.search",
                  "ksolve.belief", "ksolve.rules", "ksolve.board", "ksolve.trial")
    assert _breaking(algorithms, ("ksolve.execution", "ksolve.runs", "ksolve.web", "ksolve.cli")) == []


def test_only_the_execution_package_starts_processes() -> None:
    """No module outside ``ksolve/execution/`` names multiprocessing, a process pool or a start method."""
    words = ("multiprocessing", "ProcessPool", "Process(", "get_context", "subprocess", "os.fork")
    found = [f"{name}: {word}" for name, path in MODULES.items() if not name.startswith("ksolve.execution")
             for word in words if word in path.read_text(encoding="utf-8")]
    assert found == []


@pytest.mark.parametrize("importers, forbidden", [
    # the front ends stand on the public API: nothing of the engine, the kernels, the search or the beliefs
    (("ksolve.cli", "ksolve.web"), ("ksolve.board", "ksolve.rules.kernels", "ksolve.search", "ksolve.belief")),
    # the checker is independent by design
    ("ksolve.checker", ("ksolve.board", "ksolve.rules", "ksolve.search", "ksolve.belief", "ksolve.compilation",
                        "ksolve.retro", "ksolve.hidden", "ksolve.legality", "numba")),
    # renderers never search
    ("ksolve.report", ("ksolve.search", "ksolve.solver", "ksolve.verification", "ksolve.execution", "ksolve.analysis")),
    # the engine knows nothing above it
    ("ksolve.board", ("ksolve.rules", "ksolve.search", "ksolve.belief", "ksolve.analysis", "ksolve.report",
                      "ksolve.execution")),
    # the search knows nothing of files, printing or processes
    ("ksolve.search", ("ksolve.report", "ksolve.problem", "ksolve.analysis", "ksolve.execution", "ksolve.web",
                       "ksolve.cli")),
])
def test_a_layer_imports_nothing_it_must_not(importers, forbidden) -> None:
    assert _breaking(importers, forbidden) == []
