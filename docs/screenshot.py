"""Render a problem's HTML report and photograph it in headless Chromium.

    python docs/screenshot.py problems/rotenberg-1976.toml -o docs/rotenberg-1976-report.png \\
        --html docs/rotenberg-1976-report.html
    ksolve report problems/rotenberg-1976.toml --format html -o docs/rotenberg-1976-report.html
    python docs/screenshot.py docs/rotenberg-1976-report.html -o docs/rotenberg-1976-report-400.png \\
        --window 400x1400

Chromium (Debian: ``apt-get install chromium``) runs with a fresh profile in
a temporary directory, no network services, no GPU; the page itself needs
no scripts and no network.  The argument is a problem file (solved here) or
an HTML page already written (``ksolve report --format html``).
``--verification FILE.json`` adds a verdict block from a JSON dict (as
``ksolve.report.html.render_verification`` reads).  Headless Chromium lays a
window out at least ``MIN_WIDTH`` wide (and crops the picture): a narrower
window photographs the page in a frame of that width (``framed``).

>>> parse_window("1200x1600"), parse_window("800,600")
((1200, 1600), (800, 600))
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--force-device-scale-factor=1")


MIN_WIDTH = 500
"""Headless Chromium's narrowest layout viewport, whatever ``--window-size`` says."""


def framed(page: str, width: int, height: int) -> str:
    """A page showing ``page`` in a borderless frame of ``width`` x ``height``
    pixels at its top left corner: a true ``width`` px layout (the frame's
    document has the page's origin, so a script in it may reach ``parent``).

    >>> wrapper = framed("<p>a & b</p>", 400, 900)
    >>> 'width="400" height="900" srcdoc="&lt;p&gt;a &amp; b&lt;/p&gt;"' in wrapper
    True
    """
    import html

    return ('<!DOCTYPE html><html><head><meta charset="utf-8"><style>html,body{margin:0}'
            'iframe{border:0;display:block}</style></head><body>'
            f'<iframe width="{width}" height="{height}" srcdoc="{html.escape(page)}"></iframe></body></html>')


def find_chromium() -> str | None:
    """The path of a Chromium (or Chrome) executable, or None."""
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def parse_window(text: str) -> tuple[int, int]:
    """``1200x1600`` or ``1200,1600`` as (width, height)."""
    width, height = text.lower().replace(",", "x").split("x")
    return int(width), int(height)


def screenshot(html_path: str | Path, png_path: str | Path, window: tuple[int, int] = (1200, 1600),
               chromium: str | None = None, timeout: float = 120.0) -> Path:
    """Open ``html_path`` in headless Chromium and write the window to ``png_path``
    (a window narrower than ``MIN_WIDTH`` shows the page ``framed``)."""
    chromium = chromium or find_chromium()
    if chromium is None:
        raise FileNotFoundError("no chromium executable found (apt-get install chromium)")
    html_path, png_path = Path(html_path).resolve(), Path(png_path).resolve()
    png_path.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix="ksolve-chromium-") as profile:
        if window[0] < MIN_WIDTH:
            frame = Path(profile) / "framed.html"
            frame.write_text(framed(html_path.read_text(encoding="utf-8"), *window), encoding="utf-8")
            html_path = frame
        command = [chromium, *FLAGS, f"--user-data-dir={profile}", f"--screenshot={png_path}",
                   f"--window-size={window[0]},{window[1]}", html_path.as_uri()]
        completed = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    if not png_path.exists():
        raise RuntimeError(f"chromium wrote no screenshot (exit {completed.returncode}): "
                           f"{completed.stderr.strip()[-2000:]}")
    return png_path


def report_page(problem_path: str | Path, open_depth: int = 0, verification: dict | None = None) -> str:
    """Solve the problem and render its HTML report."""
    from ksolve.problem import load_problem
    from ksolve.report.html import render_html
    from ksolve.solver import solve

    problem = load_problem(problem_path)
    return render_html(problem, solve(problem), verification, open_depth=open_depth)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("problem", help="a problem file (TOML), or an HTML report already written")
    parser.add_argument("-o", "--output", required=True, help="the PNG to write")
    parser.add_argument("--html", help="also keep the HTML page here (default: a temporary file)")
    parser.add_argument("--open-depth", type=int, default=0,
                        help="side branches this deep start open (default 0: the main line and the mates)")
    parser.add_argument("--window", type=parse_window, default=(1200, 1600), help="WIDTHxHEIGHT (default 1200x1600)")
    parser.add_argument("--verification", help="a JSON file with the verification dict")
    parser.add_argument("--chromium", help="the browser executable (default: found on PATH)")
    args = parser.parse_args(argv)
    verification = json.loads(Path(args.verification).read_text()) if args.verification else None
    if args.problem.endswith(".html"):
        page = Path(args.problem).read_text(encoding="utf-8")
    else:
        page = report_page(args.problem, args.open_depth, verification)
    with tempfile.TemporaryDirectory(prefix="ksolve-report-") as scratch:
        html_path = Path(args.html) if args.html else Path(scratch) / "report.html"
        html_path.write_text(page, encoding="utf-8")
        png = screenshot(html_path, args.output, args.window, args.chromium)
    print(f"{png} ({png.stat().st_size:,} bytes); HTML {len(page.encode()):,} bytes"
          + (f" in {args.html}" if args.html else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
