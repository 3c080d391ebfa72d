"""``ksolve play``: a Kriegspiel or Fog-of-War game against the computer in
the terminal (``ksolve.play.terminal``); the PGN written at the end with ``-o``.

Example::

    ksolve play --rules wild16 --side black --level easy -o game.pgn
"""

from __future__ import annotations

import random
import sys

import click

from ksolve.cli_support import EXIT_INTERRUPTED, caused_by_ctrl_c, check_writable, fail, write_output

SIDES = ("white", "black", "random")
LEVELS = ("easy", "normal", "strong")
"""The computer's levels (``ksolve.play.computer.LEVELS``, ``normal`` its ``DEFAULT_LEVEL``),
repeated here so that ``ksolve --help`` imports nothing of the library."""
LEVEL_HELP = ("How hard the computer plays. easy: a small sample of the positions it believes possible, "
              "no prover, no endgame tables; normal: a wider sample, forced mates in 2 looked for, KQK and KRK "
              "from the tables; strong: a wider sample still, mates in 3, every two-piece ending from the "
              "tables (it thinks longer).")


@click.command()
@click.option("--rules", "rules_name", default="wild16", show_default=True,
              help="Rule set: berkeley, berkeley-any, english, cincinnati, rand, wild16 (ICC's words) or fog-of-war.")
@click.option("--side", type=click.Choice(SIDES), default="white", show_default=True, help="The side you play.")
@click.option("--level", type=click.Choice(LEVELS), default="normal", show_default=True, help=LEVEL_HELP)
@click.option("--seed", type=int, default=None, help="The computer's random seed (default: a fresh one).")
@click.option("--fen", help="Start position (Kriegspiel only; default: the standard one).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the full game's PGN here at the end.")
def play(rules_name: str, side: str, level: str, seed: int | None, fen: str | None, output: str | None) -> None:
    """Play Kriegspiel or Fog of War against the computer in the terminal:
    type attempts in SAN (Nf3, exd5, O-O) or UCI (e2e4), 'any', 'board',
    'rules', 'help' or 'resign'; Ctrl-C or end of input leaves the game.

    \b
    Example:
      ksolve play --rules wild16 --level easy
    """
    import chess

    from ksolve.play.records import game_pgn
    from ksolve.play.session import GameSession, PlayError
    from ksolve.play.terminal import play_in_terminal

    if output:
        check_writable(output, "-o")
    try:
        game = GameSession(rules_name, fen)  # bad rules or FEN: one line, before anything else
    except PlayError as error:
        fail(str(error).replace("rules:", "--rules:", 1).replace("fen:", "--fen:", 1))
    rng = random.Random(seed)
    human = {"white": chess.WHITE, "black": chess.BLACK}.get(side, rng.random() < 0.5)

    def read() -> str:
        click.echo("> ", nl=False)
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line

    def write(line: str) -> None:
        click.echo(line)

    interrupted = False
    try:
        play_in_terminal(game, human, rng.randrange(2**31), read, write, level)
    except EOFError:
        click.echo("\nGame left (end of input).")
    except KeyboardInterrupt:
        interrupted = True
    except SystemError as error:  # Ctrl-C inside a kernel's callback (the computer's move)
        if not caused_by_ctrl_c(error):
            raise
        interrupted = True
    if output:
        write_output(output, game_pgn(game))
        click.echo(f"PGN written to {output}")
    if interrupted:
        click.echo(f"ksolve: interrupted: game left after {len(game.turns)} moves", err=True)
        sys.exit(EXIT_INTERRUPTED)
