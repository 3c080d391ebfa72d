"""YACPDB entries and Olive collections (``ksolve.yacpdb``, ``ksolve export``/``import``):
every bundled problem file goes out and comes back as the same problem; an entry edited in
YACPDB's own fields keeps the edit; a plain YACPDB entry reads as an orthodox mate; what
ksolve cannot read is one error line naming the entry and the field."""

from __future__ import annotations

import tomllib
from pathlib import Path

import chess
import pytest
import yaml
from click.testing import CliRunner

import ksolve
from ksolve.cli import main
from ksolve.yacpdb import EXTENSION, EntryError, problem_entry, problem_from_entry, read_entries

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = sorted((ROOT / "problems").rglob("*.toml"))


def test_every_bundled_problem_comes_back_from_an_olive_collection(tmp_path) -> None:
    runner = CliRunner()
    exported = runner.invoke(main, ["export", "problems", "--to", "olive", "-o", str(tmp_path / "all.olv")])
    assert exported.exit_code == 0, exported.output
    documents = list(yaml.safe_load_all((tmp_path / "all.olv").read_text(encoding="utf-8")))
    assert len(documents) == len(BUNDLED) and all(doc["algebraic"]["white"] for doc in documents)
    imported = runner.invoke(main, ["import", str(tmp_path / "all.olv"), "-o", str(tmp_path / "back")])
    assert imported.exit_code == 0, imported.output
    for original in BUNDLED:
        data = tomllib.loads(original.read_text(encoding="utf-8"))
        back = tmp_path / "back" / f"{data.get('id', original.stem)}.toml"
        assert tomllib.loads(back.read_text(encoding="utf-8")) == data, original.name
        problem, again = ksolve.load_problem(original), ksolve.load_problem(back)
        assert (again.fen, again.hidden, again.positions, again.stipulation, again.rules.name, again.conditions,
                again.published_key, [t.id for t in again.twins]) == (
            problem.fen, problem.hidden, problem.positions, problem.stipulation, problem.rules.name,
            problem.conditions, problem.published_key, [t.id for t in problem.twins]), original.name


def test_a_yacpdb_entry_carries_the_problem_in_its_own_fields() -> None:
    entry = problem_entry((ROOT / "problems" / "rotenberg-1976.toml").read_text(), "rotenberg-1976.toml")
    assert entry["authors"] == ["Rotenberg, J."] and entry["source"]["date"] == {"year": 1976}
    assert entry["algebraic"] == {"white": ["Kf1", "Ra2", "Bf6", "Sd3"], "black": ["Kh1", "Ph2"]}
    assert entry["stipulation"] == "#8" and entry["keywords"] == ["Kriegspiel"]
    assert any("rule set berkeley" in comment for comment in entry["comments"])
    assert 'Hidden black units: [{"piece": "b", "squares": "dark"}]' in entry["comments"]
    fog = problem_entry((ROOT / "problems" / "fog-01.toml").read_text(), "fog-01.toml")
    assert fog["stipulation"] == "see text" and fog["keywords"] == ["Fog of War"]


def test_what_is_edited_in_the_entrys_fields_wins() -> None:
    """Another diagram (the white king moved), stipulation and author, edited in YACPDB."""
    entry = problem_entry((ROOT / "problems" / "foster-1996.toml").read_text(), "foster-1996.toml")
    entry["algebraic"]["white"] = [man if not man.startswith("K") else "Kh7" for man in entry["algebraic"]["white"]]
    entry["stipulation"], entry["authors"] = "#3", ["Foster, Gerald R."]
    _, text = problem_from_entry(entry, "edited.yaml")
    data = tomllib.loads(text)
    board = chess.Board(data["position"]["fen"])
    assert board.king(chess.WHITE) == chess.H7 and board.fen().split()[1:] == ["w", "-", "-", "0", "1"]
    assert data["stipulation"] == "#3" and data["author"] == "Gerald R. Foster"
    assert ksolve.load_problem_text(text, "edited.toml").moves == 3


def test_a_plain_yacpdb_entry_is_an_orthodox_mate() -> None:
    """An entry of YACPDB's own (no ksolve comment): orthodox, White to move, solved by ksolve."""
    entry = {"authors": ["Loyd, Samuel"], "source": {"name": "Test source", "date": {"year": 1900}},
             "algebraic": {"white": ["Kb6", "Rh1"], "black": ["Ka8"]}, "stipulation": "#1",
             "solution": "1.Rh8#", "foreignids": [{"domain": "PDB", "problemid": "P0000001"}]}
    identifier, text = problem_from_entry(entry, "loyd.yaml")
    problem = ksolve.load_problem_text(text, "loyd.toml")
    assert identifier == "P0000001" and problem.rules.name == "orthodox" and problem.author == "Samuel Loyd"
    assert ksolve.solve(problem).key == "h1h8"


@pytest.mark.parametrize("entry, message", [
    ({"algebraic": {"white": ["Ka1", "Gb2"], "black": ["Kh8"]}, "stipulation": "#2"},
     "x.yaml: algebraic.white: 'Gb2' is not a chess man on a square"),
    ({"algebraic": {"white": ["Ka1"], "black": ["Kh8"]}, "stipulation": "h#4"},
     "x.yaml: stipulation: 'h#4': ksolve reads mates (#N), not other stipulations"),
    ({"stipulation": "#2"}, "x.yaml: algebraic: missing"),
    ({"algebraic": {"white": ["Ka1"], "black": ["Kh8"]}, "stipulation": "#2", "comments": [EXTENSION + "{"]},
     "x.yaml: comments: the ksolve-problem: comment is not JSON"),
])
def test_an_entry_ksolve_cannot_read_is_named(entry: dict, message: str) -> None:
    with pytest.raises(EntryError, match="^" + message.replace("(", r"\(").replace(")", r"\)").replace("#", r"\#")):
        problem_from_entry(entry, "x.yaml")


def test_the_commands_say_one_line_for_bad_input(tmp_path) -> None:
    runner = CliRunner()
    (tmp_path / "bad.yaml").write_text("authors: [a\n")
    out = runner.invoke(main, ["import", str(tmp_path / "bad.yaml")])
    assert out.exit_code == 2 and out.output.startswith(f"ksolve: error: {tmp_path / 'bad.yaml'}: not YAML: line ")
    out = runner.invoke(main, ["export", "problems", "--to", "yacpdb"])
    assert out.exit_code == 2 and "a folder makes an Olive collection (--to olive)" in out.output
    both = tmp_path / "two.olv"
    runner.invoke(main, ["export", "problems/foster-1996.toml", "--to", "olive", "-o", str(tmp_path / "a.olv")])
    both.write_text((tmp_path / "a.olv").read_text() * 2)
    out = runner.invoke(main, ["import", str(both)])
    assert out.exit_code == 2 and "2 entries: give -o FOLDER" in out.output
    out = runner.invoke(main, ["import", str(both), "-o", str(tmp_path / "x")])
    assert out.exit_code == 2 and "two entries have the id 'foster-1996'" in out.output
    assert read_entries((tmp_path / "a.olv").read_text(), "a.olv")[0]["stipulation"] == "#2"


def test_orthodox_problems_go_to_popeye_and_kriegspiel_ones_do_not(tmp_path) -> None:
    """Each of the 30 orthodox benchmarks as Popeye's input: its men and stipulation; a
    Kriegspiel problem is refused (Popeye sees every man)."""
    runner = CliRunner()
    out = runner.invoke(main, ["export", "benchmarks/orthodox", "--to", "popeye", "-o", str(tmp_path / "o.inp")])
    assert out.exit_code == 0, out.output
    text = (tmp_path / "o.inp").read_text()
    assert text.startswith("BeginProblem\n") and text.endswith("EndProblem\n")
    blocks = text.removeprefix("BeginProblem\n").removesuffix("EndProblem\n").split("NextProblem\n")
    files = sorted((ROOT / "benchmarks" / "orthodox").glob("*.toml"))
    assert len(blocks) == len(files) == 30
    letters = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "S": chess.KNIGHT,
               "P": chess.PAWN}
    for block, file in zip(blocks, files):
        problem = ksolve.load_problem(file)
        board = chess.Board(None)
        for line in block.splitlines():
            side, *men = line.split()
            if side in ("White", "Black"):
                for man in men:
                    board.set_piece_at(chess.parse_square(man[1:]),
                                       chess.Piece(letters[man[0]], chess.WHITE if side == "White" else chess.BLACK))
        assert board.board_fen() == problem.fen.split()[0], file.name
        assert f"Stipulation {problem.stipulation}" in block and f"Title {problem.id}" in block
    refused = runner.invoke(main, ["export", "problems/foster-1996.toml", "--to", "popeye"])
    assert refused.exit_code == 2 and "Popeye solves orthodox problems, and this one is Kriegspiel (berkeley)" in (
        refused.output)
