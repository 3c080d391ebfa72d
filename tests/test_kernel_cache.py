"""numba's cache checks only a kernel's own file, so a cached kernel keeps the
code of a callee in another module after that module changed (a ``git pull``
fixing the move generator would leave the searches that call it unfixed);
``compilation.refresh_kernel_cache`` drops the package's cache when any kernel
source changed."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from ksolve.compilation import refresh_kernel_cache

CALLER = "from numba import njit\nfrom kernels.callee import step\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * step(x)\n"
CALLEE = "from numba import njit\n\n@njit(cache=True)\ndef step(x):\n    return x + {}\n"


def _run(folder: Path) -> int:
    """A fresh process: refresh the cache of ``folder/kernels``, then call the cached caller."""
    code = textwrap.dedent(f"""
        from pathlib import Path
        from ksolve.compilation import refresh_kernel_cache
        refresh_kernel_cache(Path({str(folder / "kernels")!r}))
        from kernels.caller import twice
        print(twice(1))
    """)
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([str(folder), str(Path.cwd())]))
    environment.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environment,
                          check=True)
    return int(done.stdout)


def test_a_changed_callee_reaches_its_cached_caller(tmp_path: Path) -> None:
    package = tmp_path / "kernels"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "caller.py").write_text(CALLER)
    (package / "callee.py").write_text(CALLEE.format(1))
    assert _run(tmp_path) == 4
    assert list((package / "__pycache__").glob("caller.twice-*.nbi"))  # cached
    (package / "callee.py").write_text(CALLEE.format(2))  # the caller's file is untouched
    assert _run(tmp_path) == 6


def test_the_cache_stays_while_no_kernel_source_changes(tmp_path: Path) -> None:
    (tmp_path / "kernels.py").write_text("from numba import njit\n")
    (tmp_path / "cli.py").write_text("print('no kernels here')\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    cached = cache / "kernels.f-3.py311.1.nbc"
    cached.write_bytes(b"")
    assert refresh_kernel_cache(tmp_path)  # no digest yet: what the cache was compiled from is unknown
    cached.write_bytes(b"")
    assert not refresh_kernel_cache(tmp_path)
    (tmp_path / "cli.py").write_text("print('still no kernels')\n")
    assert not refresh_kernel_cache(tmp_path) and cached.exists()
    (tmp_path / "kernels.py").write_text("from numba import njit  # changed\n")
    assert refresh_kernel_cache(tmp_path) and not cached.exists()


def test_a_table_the_kernels_import_counts_and_a_module_naming_numba_does_not(tmp_path: Path) -> None:
    """numba compiles a global table into the kernels that read it, so a
    changed table module drops the cache although it never imports numba; a
    module that only mentions numba (a front end's message) does not."""
    (tmp_path / "kernels.py").write_text("from numba import njit\nfrom .tables import MASKS\n")
    (tmp_path / "tables.py").write_text("MASKS = (1, 2)\n")
    (tmp_path / "cli.py").write_text("print('numba is compiling the kernels')\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    cached = cache / "kernels.f-3.py311.1.nbc"
    refresh_kernel_cache(tmp_path)
    cached.write_bytes(b"")
    (tmp_path / "cli.py").write_text("print('numba is still compiling the kernels')\n")
    assert not refresh_kernel_cache(tmp_path) and cached.exists()
    (tmp_path / "tables.py").write_text("MASKS = (1, 4)\n")
    assert refresh_kernel_cache(tmp_path) and not cached.exists()
