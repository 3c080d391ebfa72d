"""Numba compilation, watched.  The first run of a kernel compiles it (some
30 s for all of ksolve's; numba caches them on disk after, next to the
source), so front ends say that it happens, and durations measured with
``work_clock`` leave it out: a search's seconds are the search's.  The cache
is dropped when a kernel's source changed (``refresh_kernel_cache``).

>>> from numba import njit
>>> heard = []
>>> announce_compilation(lambda: heard.append("compiling"))
>>> before, clock = compile_seconds(), work_clock()
>>> int(njit(lambda x: x + 1)(41)), heard  # compiled now (a lambda is never cached)
(42, ['compiling'])
>>> compile_seconds() > before, work_clock() - clock < compile_seconds() - before
(True, True)
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from pathlib import Path
from typing import Callable

from numba.core import config, event


class _CompileWatch(event.Listener):
    """Counts the seconds numba spends compiling (outermost compilations only:
    a kernel's callees compile inside it), and tells the first one."""

    def __init__(self) -> None:
        self.depth = 0
        self.started = 0.0
        self.seconds = 0.0
        self.announce: Callable[[], None] | None = None
        self.listener: Callable[[bool], None] | None = None
        """Told ``True`` when an outermost compilation begins, ``False`` when it ends."""

    def on_start(self, _event: event.Event) -> None:
        if self.depth == 0:
            self.started = time.perf_counter()
            announce, self.announce = self.announce, None
            if announce is not None:
                announce()
            if self.listener is not None:
                self.listener(True)
        self.depth += 1

    def on_end(self, _event: event.Event) -> None:
        self.depth -= 1
        if self.depth == 0:
            self.seconds += time.perf_counter() - self.started
            if self.listener is not None:
                self.listener(False)


_WATCH = _CompileWatch()
event.register("numba:compile", _WATCH)


def announce_compilation(announce: Callable[[], None]) -> None:
    """Call ``announce()`` once, when numba next begins to compile (loading a
    kernel from numba's disk cache is not compiling)."""
    _WATCH.announce = announce


def listen_to_compilation(listener: Callable[[bool], None] | None) -> None:
    """Tell ``listener(True)`` when numba begins to compile and ``listener(False)``
    when it is done (None: no more): a worker process tells its parent, whose
    clock of the time limit leaves the compilation out too."""
    _WATCH.listener = listener


def heard_compilation(compiling: bool) -> None:
    """A worker process began (``True``) or ended (``False``) compiling: counted
    as this process's own compilation (its announcement, its listener, and its
    seconds left out of ``work_clock``), so that a parent's time limit and
    reported seconds leave out its workers' compilation too."""
    if compiling:
        _WATCH.on_start(None)
    elif _WATCH.depth > 0:
        _WATCH.on_end(None)


def compile_seconds() -> float:
    """Seconds this process has spent compiling kernels."""
    return _WATCH.seconds + (time.perf_counter() - _WATCH.started if _WATCH.depth else 0.0)


def work_clock() -> float:
    """``time.perf_counter()`` without the seconds spent compiling: the clock of
    search times and time limits."""
    return time.perf_counter() - compile_seconds()


PACKAGE = Path(__file__).resolve().parent
"""The ksolve package, whose kernels numba caches."""
KERNEL_DIGEST = "kernel-sources.digest"
"""The file, beside the cached kernels, naming the sources they were compiled from."""


def refresh_kernel_cache(package: Path = PACKAGE) -> bool:
    """Drop numba's cached kernels of ``package`` if any of its kernel sources
    (``kernel_sources``: the modules that use numba and those they import)
    changed since they were cached; whether it did.

    Numba checks only a kernel's own file: a kernel calling another module's
    (the orthodox search calls ``legal_moves``) keeps the callee's old code
    when only the callee changed, as after a ``git pull`` that fixed the move
    generator.  Called before any kernel is loaded (``ksolve.board``); the
    cache is the ``__pycache__`` folders of the package and, with
    ``NUMBA_CACHE_DIR`` set, its mirror there.  A cache that cannot be written
    is left alone (numba then compiles in memory).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "kernels.py").write_text("from numba import njit\\n")
    >>> (folder / "__pycache__").mkdir(); _ = (folder / "__pycache__" / "kernels.f-1.py311.nbi").write_bytes(b"")
    >>> refresh_kernel_cache(folder), refresh_kernel_cache(folder), list((folder / "__pycache__").glob("*.nbi"))
    (True, False, [])
    """
    digest = _kernel_sources_digest(package)
    dropped = False
    for root, caches in _cache_roots(package):
        stamp = root / KERNEL_DIGEST
        try:
            if stamp.exists() and stamp.read_text() == digest:
                continue
            for cached in caches:
                cached.unlink()
                dropped = True
            root.mkdir(parents=True, exist_ok=True)
            written = root / f"{KERNEL_DIGEST}.{os.getpid()}"
            written.write_text(digest)
            os.replace(written, stamp)
        except OSError:
            continue
    return dropped


def _kernel_sources_digest(package: Path) -> str:
    """A digest of the package's kernel sources (their paths and text)."""
    digest = hashlib.blake2b(digest_size=16)
    for source, text in kernel_sources(package):
        digest.update(source.relative_to(package).as_posix().encode() + b"\0" + text)
    return digest.hexdigest()


_USES_NUMBA = re.compile(rb"^[ \t]*(?:from|import)[ \t]+numba\b", re.M)
_IMPORT = re.compile(rb"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import[ \t]+\(?([\w ,\t]*)|import[ \t]+([\w.]+))", re.M)


def kernel_sources(package: Path) -> list[tuple[Path, bytes]]:
    """The modules of ``package`` that use numba and every module of the
    package they import, transitively (what a cached kernel may have compiled
    in: a callee, a global table), each with its text, sorted by path.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "kernels.py").write_text("import numba\\nfrom .tables import MASKS\\n")
    >>> _ = (folder / "tables.py").write_text("MASKS = (1, 2)\\n")
    >>> _ = (folder / "cli.py").write_text("from .kernels import step  # numba compiles step\\n")
    >>> [path.name for path, _ in kernel_sources(folder)]
    ['kernels.py', 'tables.py']
    """
    texts = {path: path.read_bytes() for path in package.rglob("*.py")}
    pending = [path for path, text in texts.items() if _USES_NUMBA.search(text)]
    chosen: set[Path] = set()
    while pending:
        path = pending.pop()
        if path not in chosen:
            chosen.add(path)
            pending.extend(module for module in _imported(package, path, texts[path]) if module in texts)
    return [(path, texts[path]) for path in sorted(chosen)]


def _imported(package: Path, path: Path, text: bytes) -> list[Path]:
    """The files of ``package`` that the module at ``path`` may import (a
    module named in an import, or a submodule imported from a package)."""
    found = []
    for match in _IMPORT.finditer(text):
        name = (match[1] or match[3]).decode()
        if name.startswith("."):  # relative: one dot is the importing module's package, each more its parent
            here = path.parent.relative_to(package).parts
            up = len(name) - len(name.lstrip(".")) - 1
            parts = list(here[:len(here) - up]) + [part for part in name.lstrip(".").split(".") if part]
        elif name == package.name or name.startswith(package.name + "."):
            parts = name.split(".")[1:]
        else:
            continue
        members = [member.split()[0] for member in (match[2] or b"").decode().split(",") if member.strip()]
        for module in [parts] + [parts + [member] for member in members]:
            found += [package.joinpath(*module).with_suffix(".py"), package.joinpath(*module, "__init__.py")]
    return found


def _cache_roots(package: Path) -> list[tuple[Path, list[Path]]]:
    """Each place numba may cache the package's kernels: the folder holding the
    digest, and the cached files there."""
    roots = [(package / "__pycache__", list(package.rglob("__pycache__/*.nb[ic]")))]
    if config.CACHE_DIR:
        mirror = Path(config.CACHE_DIR) / package.relative_to(package.anchor)
        roots.append((mirror, list(mirror.rglob("*.nb[ic]"))))
    return roots
