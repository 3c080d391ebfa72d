"""Helpers shared by the benchmark scripts: timing and the machine's description."""

from __future__ import annotations

import os
import platform
import time
from typing import Any, Callable


def best_of(repeats: int, function: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of ``repeats`` runs of ``function``: ``(seconds, result)``."""
    best: tuple[float, Any] | None = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        elapsed = time.perf_counter() - start
        if best is None or elapsed < best[0]:
            best = (elapsed, result)
    assert best is not None
    return best


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    import chess
    import numba
    import numpy

    return {"python": platform.python_version(), "processor": platform.machine(), "cores": os.cpu_count(),
            "chess": chess.__version__, "numba": numba.__version__, "numpy": numpy.__version__}
