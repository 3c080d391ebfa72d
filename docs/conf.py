"""Sphinx configuration of ksolve's documentation site.

Build it with ``sphinx-build -W -b html docs site`` (``pip install '.[docs]'``);
``tests/test_docs.py`` builds it the same way.  The pages are Markdown (MyST), the
CLI reference is generated from the click commands (sphinx-click), the Python API
from the docstrings (autodoc) and the prover's diagram by Graphviz's ``dot``, so
the site builds offline from the installed packages alone.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # collection_pages, the certified collection's pages

import ksolve  # noqa: E402  (the version of the package documented)

project = "ksolve"
author = "ksolve developers"
copyright = "ksolve developers, GPL-3.0-or-later"
release = version = ksolve.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.graphviz",
    "sphinx_click",
    "collection_pages",
]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "site", "**/.ipynb_checkpoints", "collection/generated/table.md"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": False}

graphviz_output_format = "svg"

html_theme = "furo"
html_title = f"ksolve {release}"
html_static_path: list[str] = []
html_show_sourcelink = False
