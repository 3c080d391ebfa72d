"""A game against the computer in the terminal (``ksolve play``).

The player sees his own board (under Fog of War also what his men see:
enemy men in sight, ``~`` for fogged squares, ``x`` for a square where he
lost a man out of sight) and the announcements he heard (moves in SAN),
and types an attempt in SAN of his own board (``Nf3``, ``exd5``, ``O-O``,
``e8=Q``) or UCI (``e2e4``, ``e7e8q``), ``any`` ("Any?" where the rules have
it), ``board``, ``rules`` (what the referee says, in the rule set's words),
``help`` or ``resign``.  Bad input gets a one-line answer and the game goes
on.  The computer plays at a level of ``ksolve.play.computer.LEVELS`` (``normal``
by default), said in the first line.

>>> lines = iter(["Nf3", "resign"])
>>> out = []
>>> game = GameSession("wild16")
>>> play_in_terminal(game, chess.WHITE, 1, lambda: next(lines), out.append)
>>> game.result, out[-1], game.sans()[0]
('0-1', 'White resigns. 0-1', 'Nf3')
"""

from __future__ import annotations

from typing import Callable

import chess

from ksolve.play.computer import DEFAULT_LEVEL, ComputerPlayer
from ksolve.play.rulebook import rulebook
from ksolve.play.session import GameSession, PlayError
from ksolve.play.views import SideView

HELP = ("Type a move in SAN (Nf3, exd5, O-O, e8=Q) or UCI (e2e4, e7e8q), 'any' to ask Any? where the rules "
        "have it, 'board' to see your board, 'rules' for the referee's words, 'resign' to give up.")


def render(view: SideView) -> str:
    """The side's board as text, his side at the bottom."""
    ranks = range(7, -1, -1) if view.side == chess.WHITE else range(8)
    files = range(8) if view.side == chess.WHITE else range(7, -1, -1)
    rows = []
    for rank in ranks:
        cells = []
        for file in files:
            square = chess.square(file, rank)
            piece = view.own.get(square) or view.enemy.get(square)
            if piece is not None:
                cells.append(piece.symbol())
            elif square in view.marks:
                cells.append("x")
            elif view.visible is not None and square not in view.visible:
                cells.append("~")
            else:
                cells.append(".")
        rows.append(f"{rank + 1} " + " ".join(cells))
    rows.append("  " + " ".join(chess.FILE_NAMES[f] for f in files))
    return "\n".join(rows)


def rules_text(name: str) -> str:
    """The rule set's words, one line each: what the referee says and when."""
    book = rulebook(name)
    return "\n".join([f"{book.title}: what the referee says"] +
                     [f"  {line.words!r}: {line.when}" for line in book.lines])


def play_in_terminal(game: GameSession, human: chess.Color, seed: int, read: Callable[[], str],
                     write: Callable[[str], None], level: str = DEFAULT_LEVEL) -> None:
    """Play ``game`` against the computer at ``level`` until it ends or the player resigns;
    ``read`` raises ``EOFError`` (or ``KeyboardInterrupt``) to leave the game."""
    computer = ComputerPlayer(game.rules_name, not human, game.fen, seed, level=level)
    write(f"{game.rules.title}: you play {'White' if human else 'Black'} against the computer ({level}). {HELP}")
    write(rules_text(game.rules_name))
    heard = 0
    while not game.over:
        if game.to_move != human:
            computer.play_turn(game)
            continue
        log = game.log_for(human)
        for entry in log[heard:]:
            write(f"{entry.number} {entry.text}")
        heard = len(log)
        write(render(game.view(human)))
        answer = _ask(game, human, read, write)
        if answer == "resign":
            game.result = "0-1" if human == chess.WHITE else "1-0"
            game.termination = f"{'White' if human else 'Black'} resigns"
            break
    for entry in game.log_for(human)[heard:]:
        write(f"{entry.number} {entry.text}")
    if game.termination:
        write(f"{game.termination}. {game.result}")


def _ask(game: GameSession, human: chess.Color, read: Callable[[], str], write: Callable[[str], None]) -> str:
    """Read attempts until one is executed (or the player resigns)."""
    while True:
        token = read().strip()
        command = token.lower()
        if command in ("help", "?"):
            write(HELP)
        elif command == "board":
            write(render(game.view(human)))
        elif command == "rules":
            write(rules_text(game.rules_name))
        elif command == "resign":
            return command
        elif token:
            try:
                answer = game.ask_any() if command in ("any", "any?") else game.attempt(token)
            except PlayError as error:
                write(f"? {error}")
                continue
            write(answer.words)
            if answer.moved or game.over:
                return "moved"
