"""Fixtures shared by test modules."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def workbench():
    """``docs/workbench_screenshots.py`` as a module: it starts a workbench
    server on a problems folder (``serve``, ``problems_folder``), for the
    browser tests and the screenshots alike."""
    spec = importlib.util.spec_from_file_location("workbench_screenshots", ROOT / "docs" / "workbench_screenshots.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--deep", action="store_true",
                     help="also run the checks marked deep: benchmark-scale proofs of minutes each "
                          "(the 13-move family member's strategies, about 6 minutes)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the ``deep`` checks unless ``--deep`` is given (``benchmarks/bench_family.py``
    proves and certifies the same problems)."""
    if config.getoption("--deep"):
        return
    skip = pytest.mark.skip(reason="benchmark-scale (minutes): run with pytest --deep")
    for item in items:
        if "deep" in item.keywords:
            item.add_marker(skip)
