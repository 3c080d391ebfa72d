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
