"""The command line's plumbing, shared by every command: the one
``ksolve: error:`` line for bad input and usage errors (exit 2, the
library's words for a setting given the option's name: ``cli_message``),
Ctrl-C as one ``ksolve: interrupted:`` line (exit 130), checking output paths
before the work, the ``--max-memory``, ``--timeout`` and ``--jobs`` options,
and progress lines on stderr.

>>> usage_line(click.BadParameter("-1.0 is not in the range x>=0.", param=click.Option(["--timeout"])))
'--timeout: -1.0 is not in the range x>=0'
"""

from __future__ import annotations

import math
import re
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Iterator, NoReturn

import click

from ksolve.execution.options import DEFAULT_SECONDS

if TYPE_CHECKING:
    from ksolve.errors import InputError

EXIT_SOLVED, EXIT_NO_SOLUTION, EXIT_BAD_INPUT, EXIT_UNKNOWN = 0, 1, 2, 3
EXIT_INTERRUPTED = 130
"""Ctrl-C (128 + SIGINT, as shells report it)."""
DEFAULT_TIMEOUT = DEFAULT_SECONDS
"""Seconds after which solve, verify and report give up (status unknown); ``--timeout 0``: no limit."""
_ESTABLISHED = "ksolve.established"
"""``ctx.meta`` key of a callable saying what a command has established so far."""
_EXIT_AT_ONCE = "ksolve.exit_at_once"
"""``ctx.meta`` key: Ctrl-C ends the process at once, after its line (a local Dask cluster runs)."""
OPTIONS = {"memory": "--max-memory", "jobs": "--jobs", "scheduler": "--scheduler", "timeout": "--timeout",
           "key": "--key", "moves": "--moves", "nodes": "--max-nodes", "tries": "--tries", "search": "--search",
           "rules": "--rules"}
"""The option that gives each run setting the library's errors speak of (``ksolve.errors.SETTINGS``)."""
MAX_LINE = 300
"""The longest error line: a longer reason is cut, saying how much was left out."""


def fail(message: str) -> NoReturn:
    """Print one clear error line (at most ``MAX_LINE`` characters) and exit with the bad-input code."""
    click.echo(f"ksolve: error: {shortened(' '.join(message.split()))}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def warn(message: str) -> None:
    """Print one warning line on stderr (the command goes on)."""
    click.echo(f"ksolve: warning: {message}", err=True)


def shortened(line: str, limit: int = MAX_LINE) -> str:
    """``line``, or its beginning and end with what was left out said between them.

    >>> shortened("x" * 20, 12)
    'xxxxxxxx…(11 characters left out)…x'
    >>> shortened("short", 12)
    'short'
    """
    if len(line) <= limit:
        return line
    head = max(1, limit * 2 // 3)
    tail = max(1, limit - head - 40)
    left_out = len(line) - head - tail
    return f"{line[:head]}…({left_out:,} characters left out)…{line[-tail:]}"


def cli_message(error: "InputError") -> str:
    """The library's error in the command line's words: a setting it speaks of
    named by its option (``OPTIONS``), said to be the default when not given.

    >>> from ksolve.errors import InputError, SettingError
    >>> cli_message(SettingError("jobs", "-1 is not a number"))
    '--jobs: -1 is not a number'
    >>> cli_message(InputError("f.toml: position.hidden: over the memory budget of 1.0 GB", "memory"))
    'f.toml: position.hidden: over the memory budget of 1.0 GB (by default half of the memory; --max-memory sets another)'
    """
    from ksolve.errors import SettingError

    setting = getattr(error, "setting", None)
    if setting is None:
        return str(error)
    option = OPTIONS[setting]
    default = setting == "memory" and not _memory_given()
    if isinstance(error, SettingError):
        return f"{option}{' (not given: by default half of the memory)' if default else ''}: {error.reason}"
    return f"{error} ({'by default half of the memory; ' + option + ' sets another' if default else option})"


def _memory_given() -> bool:
    context = click.get_current_context(silent=True)
    return context is not None and _MAX_MEMORY in context.meta


def check_writable(path: str, option: str, folder: bool = False) -> None:
    """Fail at once, before any long work, unless ``path`` can be written: a
    file, or with ``folder`` a folder (made with its parents when the work
    writes it).  Tried, not guessed: a file is opened for appending (or made
    and removed), a folder gets a file (or, missing, a subfolder in its
    nearest existing parent) made and removed, so that ``/proc/x`` or a
    read-only file system fails here as it would after the work."""
    from pathlib import Path

    target = Path(path)
    if target.exists() and target.is_dir() != folder:
        fail(f"{option}: {path} is a {'file' if folder else 'folder'}, not a {'folder' if folder else 'file'}")
    existing = target if target.exists() else target.parent
    while folder and not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.exists():
        fail(f"{option}: cannot write {path}: no such folder {existing}")
    if not existing.is_dir() and existing != target:
        fail(f"{option}: cannot write {path}: {existing} is a file, not a folder")
    reason = _write_refused(target, existing, folder)
    if reason:
        fail(f"{option}: cannot write {path}: {reason}")


def _write_refused(target, existing, folder: bool) -> str | None:
    """Why writing ``target`` (a file, or a folder under its nearest existing
    ``existing``) fails, found by trying it and undoing the try; None if it works."""
    import os
    import shutil
    import tempfile

    try:
        if folder:
            if target.exists():
                with tempfile.TemporaryFile(dir=target):
                    pass
            else:
                shutil.rmtree(tempfile.mkdtemp(dir=existing, prefix=".ksolve-"))
        elif target.exists():
            with open(target, "a", encoding="utf-8"):
                pass
        else:
            with open(target, "x", encoding="utf-8"):
                pass
            os.unlink(target)
    except OSError as error:
        where = target if target.exists() else existing
        reason = str(error.strerror or error)
        return f"{reason[:1].lower() + reason[1:]} ({'in ' if where.is_dir() and where != target else ''}{where})"
    return None


def write_output(path: str, text: str, option: str = "-o") -> None:
    """Write ``text`` to ``path``, or fail with one line naming the option."""
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as error:
        fail(f"{option}: cannot write {path}: {error.strerror}")


@contextmanager
def input_errors() -> Iterator[None]:
    """Turn the library's ``InputError`` (one line naming the input) into the error line."""
    from ksolve.errors import InputError

    try:
        yield
    except InputError as error:
        fail(cli_message(error))


class Group(click.Group):
    """The command group: Ctrl-C in any command ends with one ``ksolve:
    interrupted:`` line saying what was established (exit 130), not click's
    ``Aborted!`` (exit 1, which means "no solution")."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            _say_interrupted(ctx)
        except SystemError as error:
            if not caused_by_ctrl_c(error):
                raise
            _say_interrupted(ctx)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as error:  # a subcommand's options and arguments
            fail(usage_line(error))

    def make_context(self, info_name, args, parent=None, **extra) -> click.Context:
        try:
            _refuse_negative_jobs(args)
            return super().make_context(info_name, args, parent, **extra)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as error:  # the group's own options
            fail(usage_line(error))


def _say_interrupted(ctx: click.Context) -> NoReturn:
    established = ctx.meta.get(_ESTABLISHED)
    click.echo(f"ksolve: interrupted{': ' + established() if established else ''}", err=True)
    if ctx.meta.get(_EXIT_AT_ONCE):
        import os

        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(EXIT_INTERRUPTED)
    sys.exit(EXIT_INTERRUPTED)


def exit_at_once_on_ctrl_c() -> None:
    """Let Ctrl-C end the process right after its line, without Python's
    exit handlers: a local Dask cluster's workers are killed on Ctrl-C
    (``runs.runner.cluster_client``), and distributed's own exit handler would
    then spend seconds closing the cluster and print its errors about them."""
    click.get_current_context().meta[_EXIT_AT_ONCE] = True


def _refuse_negative_jobs(args: list[str]) -> None:
    """Fail on ``--jobs -N`` (or ``--jobs=-N``) with the line ``Jobs`` gives:
    where the value of ``--jobs`` may be left out (``verify``, ``compose``...),
    click would take ``-1`` for an unknown option.

    >>> _refuse_negative_jobs(["verify", "dir", "--jobs", "2", "--tries", "-1"])
    """
    for arg, after in zip(args, [*args[1:], ""]):
        value = after if arg == "--jobs" else arg[len("--jobs="):] if arg.startswith("--jobs=") else None
        if value is not None and re.fullmatch(r"-\d+", value.strip()):
            fail(f"--jobs: {value.strip()} {JOBS_REASON}")


def caused_by_ctrl_c(error: BaseException) -> bool:
    """Whether Ctrl-C is behind ``error``: numba's dispatcher turns a
    ``KeyboardInterrupt`` raised in a Python callback of a kernel (loading a
    global, a cache lookup) into ``SystemError: ... returned a result with an
    exception set``, chained from it.

    >>> try:
    ...     try:
    ...         raise KeyboardInterrupt
    ...     except KeyboardInterrupt as interrupt:
    ...         raise SystemError("returned a result with an exception set") from interrupt
    ... except SystemError as error:
    ...     caused_by_ctrl_c(error)
    True
    >>> caused_by_ctrl_c(SystemError("a bug"))
    False
    """
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


def usage_line(error: click.UsageError) -> str:
    """click's usage error as the one line ``<option>: <reason>``, not its four
    lines of usage and hint.

    >>> usage_line(click.BadParameter("-1.0 is not in the range x>=0.", param=click.Option(["--timeout"])))
    '--timeout: -1.0 is not in the range x>=0'
    """
    def reason(message: str) -> str:
        return (message[:1].lower() + message[1:]).rstrip(".")

    if isinstance(error, click.NoSuchOption):
        hint = f" (did you mean {', '.join(sorted(error.possibilities))}?)" if error.possibilities else ""
        return f"{error.option_name}: no such option{hint}"
    param = getattr(error, "param", None)
    if param is not None:
        name = param.opts[0] if isinstance(param, click.Option) else param.human_readable_name
        return f"{name}: {'missing' if isinstance(error, click.MissingParameter) else reason(error.message)}"
    return f"{error.ctx.command_path if error.ctx else 'ksolve'}: {reason(error.message)}"


def say_when_interrupted(established: Callable[[], str]) -> None:
    """Let Ctrl-C say ``established()`` (a callable: what is known so far)."""
    click.get_current_context().meta[_ESTABLISHED] = established


_MAX_MEMORY = "ksolve.max_memory"
"""``ctx.meta`` key of the ``--max-memory`` budget in bytes."""


def _read_max_memory(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    """Keep ``--max-memory`` in bytes for ``_resources``, or fail with one line:
    not a size, no more than this process holds already, or more than the
    machine's memory."""
    if value is not None:
        from ksolve.resources import check_budget, parse_memory

        try:
            ctx.meta[_MAX_MEMORY] = check_budget(parse_memory(value), value)
        except ValueError as error:
            fail(f"--max-memory: {error}")


class Seconds(click.FloatRange):
    """A number of seconds, 0 or more and finite (``--timeout nan`` is no limit
    anyone means: said as an error, as a negative number is)."""

    name = "seconds"

    def __init__(self, least: float = 0) -> None:
        super().__init__(min=least)

    def convert(self, value, param, ctx) -> float:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value} is not a number of seconds", param, ctx)
        return number


JOBS_REASON = "is not a number of worker processes (1 or more; 0: one per core)"


class Jobs(click.ParamType):
    """A number of worker processes, 1 or more (0: one per core); ``capped``
    keeps it to the machine's cores."""

    name = "integer"

    def convert(self, value, param, ctx) -> int:
        if isinstance(value, int):
            number = value
        else:
            try:
                number = int(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} {JOBS_REASON}", param, ctx)
        if number < 0:
            self.fail(f"{number} {JOBS_REASON}", param, ctx)
        return number


JOBS = Jobs()


def capped(jobs: int | None) -> int | None:
    """``--jobs`` kept to the machine's cores: more is one warning line and the
    cores (the work is the same, and each process more than the cores only
    costs memory, a copy of the belief, and switching; a warning rather than an
    error, so that a script written for a larger machine still runs).

    >>> capped(None), capped(0), capped(1)
    (None, 0, 1)
    """
    cores = machine_cores()
    if jobs is not None and jobs > cores:
        warn(f"--jobs {jobs}: this machine has {cores} core{'s' if cores > 1 else ''}; "
             f"{cores} worker process{'es' if cores > 1 else ''}")
        return cores
    return jobs


max_memory_option = click.option(
    "--max-memory", metavar="SIZE", expose_value=False, callback=_read_max_memory,
    help="Memory budget of the belief and the search, e.g. 4G (default: half of this machine's memory).")
"""The ``--max-memory`` option of the commands that build a belief (read by ``_resources``)."""


def search_limits(timeout: float | None, max_nodes: int | None = None):
    """The search's limits, read as ``RunOptions`` (``ksolve.execution.options``): ``--timeout`` (0: none), ``--max-nodes`` and the
    ``--max-memory`` budget (default: half of this machine's memory), which
    sizes the search's tables and stops it as "unknown" rather than let it
    run out of memory."""
    from dataclasses import replace

    import ksolve
    from ksolve.execution.options import RunOptions

    with input_errors():
        limits = RunOptions(seconds=timeout or None, nodes=max_nodes).limits()
    return replace(limits, memory=ksolve.Resources(click.get_current_context().meta.get(_MAX_MEMORY)).budget)


def memory_budget() -> int | None:
    """The ``--max-memory`` budget in bytes, None when not given."""
    return click.get_current_context().meta.get(_MAX_MEMORY)


def machine_cores() -> int:
    """This machine's cores (at least one): the default number of worker processes."""
    import os

    return os.cpu_count() or 1


def solve_jobs(jobs: int | None, at_most: bool, search: str) -> int:
    """The worker processes of ``ksolve solve``: ``--jobs`` (0: one per core);
    by default one per core for a shortest mate by proof numbers, one process
    for ``--at-most`` (the workers would race, each holding a whole search,
    for little gain: ``README.md``) and for ``--search dfs`` (the workers
    search by proof numbers, so asking for both is an error).

    >>> solve_jobs(None, True, "pn"), solve_jobs(1, False, "pn"), solve_jobs(None, False, "dfs")
    (1, 1, 1)
    """
    if search == "dfs":
        if jobs not in (None, 1):
            fail("--jobs: worker processes search by proof numbers; --search dfs runs in one process")
        return 1
    if jobs is None:
        return 1 if at_most else machine_cores()
    return capped(jobs) or machine_cores()


def progress_printer(deepening_goal: str | None = None, subject: str = ""):
    """A progress callback that writes to stderr at most once a second, after the first second,
    and tells Ctrl-C what was established (after ``subject``): with ``deepening_goal`` (the
    problem's goal, when the search deepens from one move) no win at the depths below the one
    in progress."""
    last = [0.0]
    seen = []  # the depth in progress and the run's (live) counters

    def report(stats, depth: int) -> None:
        seen[:] = depth, stats
        if stats.seconds >= 1.0 and stats.seconds - last[0] >= 1.0:
            last[0] = stats.seconds
            click.echo(f"ksolve: depth {depth}, {stats.nodes:,} nodes, {stats.seconds:.1f} s", err=True)

    def established() -> str:
        if not seen:
            return f"{subject}before the search's first nodes"
        depth, stats = seen
        refuted = (f"no {deepening_goal.replace('-', ' ')} in {depth - 1} or fewer; "
                   if deepening_goal and depth > 1 else "")
        return f"{subject}{refuted}depth {depth} interrupted ({stats.nodes:,} nodes, {stats.seconds:.1f} s)"

    say_when_interrupted(established)
    return report


COMPILE_NOTE_EVERY = 5.0
"""Seconds of compilation between two lines saying it goes on."""


def say_when_compiling() -> None:
    """Say on stderr when numba begins to compile kernels (a first run, some
    30-90 s: not counted in the time limit or the seconds reported), and every
    ``COMPILE_NOTE_EVERY`` seconds of it how long it has taken (the
    compilation of worker processes included, ``compilation.heard_compilation``)."""
    from ksolve.compilation import announce_compilation, compile_seconds, listen_to_compilation

    announce_compilation(lambda: click.echo("ksolve: compiling kernels (first run only)...", err=True))
    said = [0.0]

    def note(compiling: bool) -> None:
        seconds = compile_seconds()
        if compiling and seconds - said[0] >= COMPILE_NOTE_EVERY:
            said[0] = seconds
            click.echo(f"ksolve: still compiling kernels (first run only): {seconds:.0f} s so far, not counted in "
                       "the time limit", err=True)

    listen_to_compilation(note)


def resources():
    """The ``--max-memory`` budget, and a progress line on stderr while the belief is
    enumerated (at most once a second, after the first second, and when kernels compile)."""
    import ksolve
    from ksolve.compilation import work_clock

    say_when_compiling()
    started = work_clock()
    last = [0.0]
    seen = [0, 0, 0]  # placements tried, in all, positions kept

    def progress(tried: int, total: int, kept: int) -> None:
        seen[:] = tried, total, kept
        seconds = work_clock() - started
        if seconds >= 1.0 and seconds - last[0] >= 1.0 and tried < total:  # nothing to say once done
            last[0] = seconds
            click.echo(f"ksolve: belief: {tried:,} of {total:,} placements tried ({tried / total:.0%}), "
                       f"{kept:,} positions, {tried / seconds:,.0f} placements/s", err=True)

    say_when_interrupted(lambda: f"building the belief: {seen[0]:,} of {seen[1]:,} placements tried, "
                                 f"{seen[2]:,} positions so far")
    return ksolve.Resources(click.get_current_context().meta.get(_MAX_MEMORY), progress)
