"""Problems in and out of YACPDB entries and Olive collections (YAML).

A YACPDB entry (the YAML schema of yacpdb.org and of the Olive editor, whose
``.olv`` files are several entries, one YAML document each) holds an orthodox
or fairy problem: ``authors`` ("Family, Given"), ``source`` (``name``,
``date.year``), ``algebraic`` (the men as ``Kf1``, knights as ``S``),
``stipulation`` in Popeye's syntax (``#2``; ``see text`` for another),
``solution``, ``keywords`` and ``comments``.  What a Kriegspiel problem adds
(the rule set, the hidden units, the published key, twins, conditions) has no
field of its own, so, as YACPDB does for non-standard problems, it is said in
``comments``, and one comment, ``ksolve-problem: {...}``, holds the problem
file's data as JSON so that the entry reads back as the same problem.  Where
an entry's own fields were edited since (another diagram, stipulation or
authors), those win.  An entry without that comment (a problem from YACPDB)
reads as an orthodox problem, White to move.

>>> text = 'id = "m1"\\nstipulation = "#1"\\nrules = "berkeley"\\n[position]\\nfen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n'
>>> entry = problem_entry(text, "m1.toml")
>>> entry["algebraic"], entry["stipulation"]
({'white': ['Kb6', 'Rh1'], 'black': ['Ka8']}, '#1')
>>> problem_from_entry(entry, "m1.olv")[0]
'm1'
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

import chess
import tomlkit
import yaml

from ksolve.errors import InputError

EXTENSION = "ksolve-problem: "
"""The comment that holds the problem file's data (JSON), after this prefix."""
_ORDER = "KQRBSP"
_PARTICLES = {"ten", "van", "von", "de", "der", "den", "da", "di", "du", "le", "la"}
"""Lower-case words that begin a family name (``ten Cate``)."""
_LETTERS = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "S": chess.KNIGHT, "P": chess.PAWN}


class EntryError(InputError):
    """An entry that is no chess problem ksolve reads (its message names the file, entry and field)."""


def problem_entry(text: str, source: str) -> dict[str, Any]:
    """The YACPDB entry of a problem file's TOML ``text``."""
    data = tomllib.loads(text)
    position = data.get("position", {})
    fen = position.get("fen") or (position.get("positions") or [chess.STARTING_FEN])[0]
    entry: dict[str, Any] = {}
    authors = family_given(data.get("author", ""))
    if authors:
        entry["authors"] = authors
    if data.get("source") or data.get("year"):
        entry["source"] = {"name": data.get("source") or data.get("title", "")}
        if data.get("year"):
            entry["source"]["date"] = {"year": data["year"]}
    entry["algebraic"] = _algebraic(fen)
    stipulation = data.get("stipulation", "")
    entry["stipulation"] = stipulation if stipulation.startswith("#") else "see text"
    published = data.get("published", {})
    if published.get("solution"):
        entry["solution"] = published["solution"]
    rules = data.get("rules", "berkeley")
    entry["keywords"] = ["Fog of War" if rules == "fog-of-war" else "Kriegspiel"]
    comments = [f"{data['title']}" if data.get("title") else "",
                f"Kriegspiel problem, rule set {rules} (ksolve): White sees only his own men"
                + ("" if stipulation.startswith("#") else f"; stipulation {stipulation} (White captures the king)")]
    if position.get("hidden"):
        comments.append("Hidden black units: " + json.dumps(position["hidden"], ensure_ascii=False))
    if published.get("key"):
        comments.append(f"Published key: {published['key']}")
    if data.get("notes"):
        comments.append(data["notes"])
    comments.append(EXTENSION + json.dumps(data, ensure_ascii=False, sort_keys=True, default=str))
    entry["comments"] = [comment for comment in comments if comment]
    return entry


def problem_from_entry(entry: Any, where: str) -> tuple[str, str]:
    """``(id, TOML text)`` of the problem a YACPDB entry holds (``EntryError`` naming
    ``where`` and the field when it holds none ksolve reads)."""
    if not isinstance(entry, dict):
        raise EntryError(f"{where}: an entry must be a YAML mapping")
    data = _extension(entry, where)
    algebraic = entry.get("algebraic")
    if not isinstance(algebraic, dict):
        raise EntryError(f"{where}: algebraic: missing (the position: white: [Kf1, ...], black: [...])")
    placement = _placement(algebraic, where)
    stipulation = entry.get("stipulation")
    if not isinstance(stipulation, str) or not stipulation:
        raise EntryError(f"{where}: stipulation: missing")
    if data is None:
        data = _orthodox_data(entry, placement, stipulation, where)
    else:
        position = data.setdefault("position", {})
        fen = position.get("fen")
        if fen is not None and fen.split()[0] != placement:
            position["fen"] = " ".join([placement, *fen.split()[1:]])
        if stipulation != "see text" and stipulation != data.get("stipulation"):
            data["stipulation"] = stipulation
        author = _author_line(entry.get("authors"))
        if author and family_given(data.get("author", "")) != entry.get("authors"):
            data["author"] = author
    identifier = data.get("id")
    if not isinstance(identifier, str) or not re.fullmatch(r"[A-Za-z0-9_.-]{1,80}", identifier):
        raise EntryError(f"{where}: id: {identifier!r} is no file name")
    return identifier, tomlkit.dumps(data)


def popeye_input(text: str, source: str) -> str:
    """Popeye's input for an orthodox problem file (``EntryError`` for a Kriegspiel one:
    Popeye sees every man and hears no referee, so its solution would be another problem's).

    >>> print(popeye_input('id = "m1"\\nstipulation = "#1"\\nrules = "orthodox"\\n[position]\\n'
    ...                    'fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1"\\n', "m1.toml"))
    BeginProblem
    Title m1
    Pieces
      White Kb6 Rh1
      Black Ka8
    Stipulation #1
    EndProblem
    """
    data = tomllib.loads(text)
    rules = data.get("rules", "berkeley")
    position = data.get("position", {})
    if rules != "orthodox":
        raise EntryError(f"{source}: rules: Popeye solves orthodox problems, and this one is Kriegspiel ({rules}): "
                         "it sees every man and hears no referee")
    if position.get("hidden") or position.get("positions"):
        raise EntryError(f"{source}: position: Popeye cannot hide units nor take a list of positions")
    fen = position["fen"].split()
    if fen[1] != "w":
        raise EntryError(f"{source}: position.fen: Black to move: Popeye's direct mates begin with White")
    if fen[2] != "-" or fen[3] != "-":
        raise EntryError(f"{source}: position.fen: castling rights and en passant are not written for Popeye "
                         "(its options for them are not mapped)")
    men = _algebraic(position["fen"])
    lines = ["BeginProblem"]
    if data.get("author"):
        lines.append(f"Author {data['author']}")
    if data.get("source"):
        lines.append(f"Origin {data['source']}")
    lines += [f"Title {data.get('title') or data.get('id', '')}".rstrip(), "Pieces",
              f"  White {' '.join(men['white'])}", f"  Black {' '.join(men['black'])}",
              f"Stipulation {data.get('stipulation', '')}"]
    lines.append("EndProblem")
    return "\n".join(lines)


def popeye_collection(inputs: list[str]) -> str:
    """Several problems' Popeye inputs as one (``NextProblem`` between them)."""
    bodies = [text.removeprefix("BeginProblem\n").removesuffix("\nEndProblem") for text in inputs]
    return "BeginProblem\n" + "\nNextProblem\n".join(bodies) + "\nEndProblem\n"


def read_entries(text: str, source: str) -> list[dict[str, Any]]:
    """The entries of a YAML text (one document: YACPDB; several: Olive's ``.olv``)."""
    try:
        documents = [document for document in yaml.safe_load_all(text) if document is not None]
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        at = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        raise EntryError(f"{source}: not YAML: {at}{getattr(error, 'problem', None) or error}") from None
    entries: list[dict[str, Any]] = []
    for document in documents:
        entries.extend(document if isinstance(document, list) else [document])
    if not entries:
        raise EntryError(f"{source}: no entry")
    return entries


def entries_text(entries: list[dict[str, Any]]) -> str:
    """Entries as YAML, one document each (a single one is a YACPDB entry)."""
    return yaml.safe_dump_all(entries, explicit_start=True, allow_unicode=True, sort_keys=False, width=100)


def _extension(entry: dict, where: str) -> dict | None:
    comments = entry.get("comments") or []
    found = [c for c in comments if isinstance(c, str) and c.startswith(EXTENSION)]
    if not found:
        return None
    try:
        data = json.loads(found[-1][len(EXTENSION):])
    except json.JSONDecodeError as error:
        raise EntryError(f"{where}: comments: the {EXTENSION.strip()} comment is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise EntryError(f"{where}: comments: the {EXTENSION.strip()} comment must be a JSON object")
    return data


def _orthodox_data(entry: dict, placement: str, stipulation: str, where: str) -> dict[str, Any]:
    """A problem file's data from a plain YACPDB entry: orthodox, White to move."""
    match = re.fullmatch(r"#\s*(\d{1,2})", stipulation.strip())
    if match is None:
        raise EntryError(f"{where}: stipulation: {stipulation!r}: ksolve reads mates (#N), not other stipulations")
    source = entry.get("source") if isinstance(entry.get("source"), dict) else {}
    foreign = entry.get("foreignids") or []
    identifier = next((str(f.get("problemid")) for f in foreign if isinstance(f, dict) and f.get("problemid")), None)
    data: dict[str, Any] = {"id": identifier or "entry", "stipulation": f"#{match[1]}", "rules": "orthodox"}
    author = _author_line(entry.get("authors"))
    if author:
        data["author"] = author
    if source.get("name"):
        data["source"] = str(source["name"])
    year = (source.get("date") or {}).get("year") if isinstance(source.get("date"), dict) else None
    if isinstance(year, int):
        data["year"] = year
    data["position"] = {"fen": f"{placement} w - - 0 1"}
    if isinstance(entry.get("solution"), str):
        data["published"] = {"solution": entry["solution"]}
    return data


def _algebraic(fen: str) -> dict[str, list[str]]:
    board = chess.Board(fen)
    sides: dict[str, list[str]] = {"white": [], "black": []}
    for colour, name in ((chess.WHITE, "white"), (chess.BLACK, "black")):
        for letter in _ORDER:
            for square in sorted(board.pieces(_LETTERS[letter], colour)):
                sides[name].append(letter + chess.square_name(square))
    return sides


def _placement(algebraic: dict, where: str) -> str:
    board = chess.Board(None)
    for name, colour in (("white", chess.WHITE), ("black", chess.BLACK)):
        men = algebraic.get(name) or []
        if not isinstance(men, list):
            raise EntryError(f"{where}: algebraic.{name}: must be a list of men such as Kf1")
        for man in men:
            match = re.fullmatch(r"([KQRBSP])([a-h][1-8])", str(man).strip())
            if match is None:
                raise EntryError(f"{where}: algebraic.{name}: {man!r} is not a chess man on a square (K, Q, R, B, "
                                 "S, P and a square such as Kf1; fairy pieces are not read)")
            square = chess.parse_square(match[2])
            if board.piece_at(square) is not None:
                raise EntryError(f"{where}: algebraic.{name}: two men on {match[2]}")
            board.set_piece_at(square, chess.Piece(_LETTERS[match[1]], colour))
    if algebraic.get("neutral"):
        raise EntryError(f"{where}: algebraic.neutral: neutral men are not read")
    return board.board_fen()


def family_given(author: str) -> list[str]:
    """Authors as "Family, Given" (several joined by " and "), nicknames in parentheses
    dropped; ``[]`` for what is no person's name.

    >>> family_given("G. F. Anderson and Pien (Pieter) ten Cate")
    ['Anderson, G. F.', 'ten Cate, Pien']
    >>> family_given("composed with ksolve")
    []
    """
    names = [re.sub(r"\s*\([^)]*\)", "", name).strip() for name in re.split(r"\s+and\s+", author)]
    written = []
    for name in names:
        words = name.split()
        if len(words) < 2 or not words[0][:1].isupper():
            return []
        family = next((index for index in range(1, len(words)) if words[index] in _PARTICLES), len(words) - 1)
        written.append(f"{' '.join(words[family:])}, {' '.join(words[:family])}")
    return written


def _author_line(authors: Any) -> str:
    """``["Anderson, G. F."]`` -> ``"G. F. Anderson"``."""
    if not isinstance(authors, list):
        return ""
    names = []
    for author in authors:
        family, _, given = str(author).partition(",")
        names.append(f"{given.strip()} {family.strip()}".strip())
    return " and ".join(names)
