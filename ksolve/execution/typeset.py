"""Typesetting a LaTeX document with pdflatex (an external program: a process, so it lives
in the execution layer).  ``ksolve.latex`` writes the documents.

>>> isinstance(tex_available(), bool)
True
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from ksolve.errors import InputError


class LatexError(InputError):
    """The booklet could not be typeset (no TeX, or TeX's own error)."""


def tex_available() -> bool:
    """Whether ``pdflatex`` and ``diagram.sty`` are installed."""
    if shutil.which("pdflatex") is None or shutil.which("kpsewhich") is None:
        return False
    found = subprocess.run(["kpsewhich", "diagram.sty"], capture_output=True, text=True, check=False)
    return bool(found.stdout.strip())


def compile_pdf(tex: str, output: Path, timeout: float = 300.0) -> None:
    """Typeset ``tex`` with pdflatex into ``output`` (``LatexError`` with TeX's first error line)."""
    if not tex_available():
        raise LatexError("a PDF needs pdflatex and diagram.sty (Debian: apt-get install texlive-latex-base "
                         "texlive-games texlive-pstricks texlive-fonts-recommended); write the .tex instead")
    with tempfile.TemporaryDirectory(prefix="ksolve-latex-") as folder:
        source = Path(folder) / "booklet.tex"
        source.write_text(tex, encoding="utf-8")
        try:
            run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", source.name],
                                 cwd=folder, capture_output=True, text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise LatexError(f"pdflatex did not finish within {timeout:g} s") from None
        pdf = Path(folder) / "booklet.pdf"
        if run.returncode != 0 or not pdf.exists():
            errors = [line for line in run.stdout.splitlines() if line.startswith("!")]
            raise LatexError(f"pdflatex failed: {errors[0] if errors else 'exit ' + str(run.returncode)}")
        shutil.copyfile(pdf, output)
