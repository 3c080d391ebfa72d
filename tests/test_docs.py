"""The documentation cannot drift from the program: the README stays short and its
commands run as written, the site builds with Sphinx with warnings as errors, the
Python examples of the pages run as doctests, the commands whose output a page shows
print that output, and the HTTP reference lists exactly the workbench's routes.

The site's tools are the ``docs`` extra (``pip install '.[docs]'``, which ``.ci/run``
installs); without them the build is skipped, except in CI (``CI`` set), where it fails.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
MAX_README_LINES = 300

NOT_RUN = {
    "ksolve verify problems/ --timeout 600": "the whole folder, anderson-37 alone takes its 600 s",
    "ksolve mend problems/anderson-27.toml --jobs 2 -o mended": "about 100 s on two cores",
    "ksolve verify problems/ --jobs 2 --results verify.jsonl": "the whole folder on Dask",
}
"""Commands whose output a page shows but which take minutes; each must still be in the docs."""


# --- reading Markdown ------------------------------------------------------------------
@dataclass(frozen=True)
class Block:
    """A fenced code block of a Markdown page."""

    language: str
    text: str


def code_blocks(markdown: str) -> list[Block]:
    """The fenced code blocks of a page, in order.

    >>> [(b.language, b.text) for b in code_blocks("x\\n```sh\\nls\\n```\\n```\\ny\\n```\\n")]
    [('sh', 'ls\\n'), ('', 'y\\n')]
    """
    return [Block(language, text) for language, text in re.findall(r"^```(\w*)\n(.*?)^```", markdown, re.M | re.S)]


def pages() -> list[Path]:
    """The pages written by hand (not those a site build writes into collection/generated)."""
    return sorted(page for page in DOCS.rglob("*.md") if "generated" not in page.relative_to(DOCS).parts)


@dataclass(frozen=True)
class Example:
    """A command a page runs, with the output lines it shows ("..." left out)."""

    page: str
    command: str
    shown: tuple[str, ...]


def shown_examples(path: Path) -> list[Example]:
    """The commands of a page whose output it shows: ``$ command`` lines of a block, each
    followed by its output, and a ``sh`` block of one command followed by a ``text`` block."""
    examples: list[Example] = []
    blocks = code_blocks(path.read_text(encoding="utf-8"))
    for index, block in enumerate(blocks):
        lines = block.text.splitlines()
        if any(line.startswith("$ ") for line in lines):
            for line in lines:
                if line.startswith("$ "):
                    examples.append(Example(path.name, line[2:], ()))
                elif examples and examples[-1].page == path.name and line.strip() not in ("", "..."):
                    examples[-1] = Example(path.name, examples[-1].command, examples[-1].shown + (line.rstrip(),))
        elif block.language == "sh" and index + 1 < len(blocks) and blocks[index + 1].language == "text":
            commands = [line for line in lines if line.strip() and not line.startswith("#")]
            following = blocks[index + 1].text.splitlines()
            if len(commands) == 1 and not any(line.startswith("$ ") for line in following):
                shown = tuple(line.rstrip() for line in following if line.strip() not in ("", "..."))
                examples.append(Example(path.name, commands[0], shown))
    return examples


def saved_files(markdown: str) -> dict[str, str]:
    """The files a page asks the reader to save: "Save this as `NAME`:" and a block."""
    return dict(re.findall(r"Save\s+this\s+as\s+`([^`]+)`:\s*\n\n```\w*\n(.*?)```", markdown, re.S))


# --- running commands ------------------------------------------------------------------
@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the repository's problems/ and examples/, as a reader's clone would."""
    folder = tmp_path_factory.mktemp("reader")
    for name in ("problems", "examples"):
        (folder / name).symlink_to(ROOT / name)
    return folder


def ksolve_words(command: str) -> list[str]:
    """A ``ksolve`` command as the words to run: one process (``--jobs 1``) for a solve that
    names no jobs, since a strategy read back by several workers may differ from run to run
    (its length does not)."""
    words = shlex.split(command, comments=True)
    if words[:2] == ["ksolve", "solve"] and not any(word.startswith("--jobs") for word in words):
        words.append("--jobs=1")
    return [sys.executable, "-m", "ksolve.cli", *words[1:]]


def run(command: str, cwd: Path, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    words = shlex.split(command, comments=True)
    if words[0] == "cat":
        return subprocess.run(words, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert words[0] == "ksolve", command
    return subprocess.run(ksolve_words(command), cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def without_seconds(line: str) -> str:
    """A line with its measured seconds masked (they differ from run to run).

    >>> without_seconds("2 fixes, 5.2 s")
    '2 fixes, <t> s'
    """
    return re.sub(r"\d+(\.\d+)? s\b", "<t> s", line)


def shows(line: str, printed: list[str]) -> bool:
    """Whether a shown line was printed; one ending in " ..." shows the start of a line.

    >>> shows("26 tries end the game at once: 1.Bxa1 ...", ["26 tries end the game at once: 1.Bxa1 1.Bxb2"])
    True
    """
    line = without_seconds(line)
    if line.endswith(" ..."):
        return any(printed_line.startswith(line[:-4]) for printed_line in printed)
    return line in printed


def assert_shows(example: Example, output: str) -> None:
    printed = [without_seconds(line.rstrip()) for line in output.splitlines()]
    for line in example.shown:
        assert shows(line, printed), (example.page, example.command, line, output)


# --- the README ------------------------------------------------------------------------
def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_README_LINES, f"README.md has {lines} lines; the long texts belong in docs/"


def test_the_changelog_starts_with_this_version_and_the_cli_says_it() -> None:
    """The newest entry of CHANGELOG.md is the version that ``ksolve --version`` prints and
    certificates and reports carry."""
    import re

    from click.testing import CliRunner

    import ksolve
    from ksolve.cli import main

    newest = re.search(r"^## (\S+) ", (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"), re.MULTILINE)
    assert newest and newest.group(1) == ksolve.__version__
    assert CliRunner().invoke(main, ["--version"]).output.strip().endswith(ksolve.__version__)


def test_the_readmes_links_reach_files() -> None:
    text = README.read_text(encoding="utf-8")
    targets = [target for target in re.findall(r"\]\(([^)#\s]+)\)", text) if "://" not in target]
    assert targets
    missing = [target for target in targets
               if not (ROOT / target).exists()]
    assert missing == []


def test_the_readmes_problem_file_loads() -> None:
    import ksolve

    files = [block.text for block in code_blocks(README.read_text(encoding="utf-8")) if block.language == "toml"]
    assert files
    for text in files:
        problem = ksolve.load_problem_text(text)
        assert (problem.stipulation, len(problem.belief()), problem.published_key) == ("#8", 30, "a2g2")


def readme_commands() -> list[str]:
    """Every command line of the README's ``sh`` blocks, prompts and comments removed."""
    commands: list[str] = []
    for block in code_blocks(README.read_text(encoding="utf-8")):
        if block.language != "sh":
            continue
        lines = block.text.splitlines()
        if any(line.startswith("$ ") for line in lines):  # the other lines are output
            lines = [line[2:] for line in lines if line.startswith("$ ")]
        for line in lines:
            line = line.split("  #")[0].strip()
            if line and not line.startswith("#"):
                commands.append(line)
    return commands


def test_the_readmes_install_and_test_commands_are_what_ci_runs() -> None:
    commands = readme_commands()
    assert "pip install . && ksolve solve problems/rotenberg-1976.toml" in commands
    assert "pip install '.[test]' && pytest -n auto" in commands
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install '.[test]' && pytest -n auto" in ci
    assert "'.[docs]'" in ci
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r"^docs = \[", pyproject, re.M) and re.search(r"^test = \[", pyproject, re.M)
    assert '"slow:' in pyproject  # the quick subset's marker, -m "not slow"
    readme = README.read_text(encoding="utf-8")
    assert 'pytest -n auto -m "not slow"' in readme


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve_answers(command: str, cwd: Path) -> None:
    """``ksolve serve`` as written but on a free port and without opening a browser: it
    answers ``/api/info``, then stops on SIGTERM."""
    port = free_port()
    words = [word for word in ksolve_words(command) if word != "--open"] + ["--port", str(port)]
    server = subprocess.Popen(words, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/info", timeout=5) as answer:
                    assert answer.status == 200
                    return
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, command
                time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=30)


# --- the pages ------------------------------------------------------------------------
@pytest.mark.parametrize("page", [page for page in pages() if ">>> " in page.read_text(encoding="utf-8")],
                         ids=lambda page: str(page.relative_to(DOCS)))
def test_the_python_examples_of_a_page_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    failures, tried = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


def all_examples() -> list[Example]:
    return [example for page in pages() for example in shown_examples(page)]


def test_the_commands_left_unrun_are_still_in_the_docs() -> None:
    commands = {example.command.split("  #")[0].strip() for example in all_examples()}
    assert set(NOT_RUN) <= commands


@pytest.mark.slow
def test_every_command_of_the_readme_runs_and_every_shown_output_is_printed(workdir: Path) -> None:
    """One test, so that each command runs once (Rotenberg's solve and verification are shown
    on several pages): the README's commands run as written and succeed, and every command
    whose output the README or a page shows prints what it shows."""
    outputs: dict[str, subprocess.CompletedProcess[str]] = {}

    def output_of(command: str) -> subprocess.CompletedProcess[str]:
        if command not in outputs:
            outputs[command] = run(command, workdir)
        return outputs[command]

    ran = 0
    for line in readme_commands():
        for command in line.split(" && "):
            words = shlex.split(command)
            if words[0] in ("pip", "pytest", "sphinx-build"):
                continue  # the install and test commands are CI's own; the build has its own test
            if words[:2] == ["ksolve", "serve"]:
                serve_answers(command, workdir)
            else:
                result = output_of(command)
                assert result.returncode == 0, (command, result.stdout, result.stderr)
            ran += 1
    assert ran >= 10
    for page in [README, *pages()]:
        for name, text in saved_files(page.read_text(encoding="utf-8")).items():
            (workdir / name).write_text(text, encoding="utf-8")
        for example in shown_examples(page):
            command = example.command.split("  #")[0].strip()
            if command.startswith("ksolve serve"):  # a server runs until stopped: it must answer
                serve_answers(command, workdir)
            elif command.startswith("curl "):  # requests to a running server: tests/test_web_security.py
                continue
            elif command not in NOT_RUN:
                result = output_of(command)
                assert result.returncode in (0, 1, 2), (command, result.stderr)
                assert_shows(example, result.stdout + result.stderr)


# --- the HTTP reference ---------------------------------------------------------------
def documented_endpoints() -> set[str]:
    text = (DOCS / "web-api.md").read_text(encoding="utf-8")
    return set(re.findall(r"^### `([A-Z]+ /[^`]*)`$", text, re.M))


def app_endpoints() -> set[str]:
    from starlette.routing import Mount, Route

    from ksolve.web.app import create_app

    endpoints: set[str] = set()
    for route in create_app(None).routes:
        if isinstance(route, Mount):
            endpoints.add(f"GET {route.path}")
        elif isinstance(route, Route):
            endpoints.update(f"{method} {route.path}" for method in route.methods or {"GET"} if method != "HEAD")
    return endpoints


def test_the_http_reference_lists_exactly_the_apps_routes() -> None:
    assert documented_endpoints() == app_endpoints()


def test_every_endpoint_of_the_http_reference_has_its_table() -> None:
    text = (DOCS / "web-api.md").read_text(encoding="utf-8")
    sections = re.split(r"^### ", text, flags=re.M)[1:]
    for section in sections:
        assert "| answer |" in section, section.splitlines()[0]


# --- the site -------------------------------------------------------------------------
def sphinx_build() -> list[str]:
    try:
        import myst_parser  # noqa: F401
        import sphinx  # noqa: F401
        import sphinx_click  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("the docs tools are not installed: pip install '.[docs]'")
    return [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html"]


@pytest.mark.slow
def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    build = sphinx_build()
    source = tmp_path / "docs"
    shutil.copytree(DOCS, source, ignore=shutil.ignore_patterns("_build", "__pycache__", "generated"))
    (tmp_path / "problems").symlink_to(ROOT / "problems")  # the collection's pages read the problem files
    site = tmp_path / "site"
    result = subprocess.run([*build, str(source), str(site)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    cli = (site / "reference" / "cli.html").read_text(encoding="utf-8")
    from ksolve.cli import main

    assert all(f"ksolve {name}" in cli for name in main.commands), "a command missing from the CLI reference"
    collection = json.loads((DOCS / "collection" / "verdicts.json").read_text(encoding="utf-8"))["problems"]
    index = (site / "collection" / "index.html").read_text(encoding="utf-8")
    assert all((site / "collection" / "generated" / f"{row['id']}.html").exists() for row in collection)
    assert index.count("<td><p><strong>C+</strong></p></td>") == sum(row["certificate"]["result"] == "verified" for row in collection)
    assert len(list((site / "_downloads").rglob("ksolve-collection.*"))) == 2, "the Olive file and the booklet"
    api = (site / "reference" / "api.html").read_text(encoding="utf-8")
    assert "ksolve.solve" in api and "Keys, cooks, short solutions" in api
    assert (site / "explanation" / "prover.html").read_text(encoding="utf-8").count("<svg") >= 1 or \
        any(site.rglob("graphviz-*.svg"))
