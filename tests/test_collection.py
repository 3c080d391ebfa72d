"""The certified collection (``docs/collection``): its verdicts file holds every problem file,
agrees with the verdict fixture the engine is held to, marks C+ only where the checker
verified the whole verdict, and its pages, Olive file and booklet are written from it; a
sample of the C+ certificates, written again, comes out byte for byte the same and checks."""

from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs"))

import collection_pages  # noqa: E402
import make_collection  # noqa: E402

ROWS = collection_pages.load_rows()
FIXTURE = json.loads((ROOT / "tests" / "fixtures" / "verdicts.json").read_text(encoding="utf-8"))["problems"]


def test_the_collection_holds_every_problem_file_once() -> None:
    files = [str(path.relative_to(ROOT)) for path in make_collection.problem_files()]
    assert [row["file"] for row in ROWS] == files, "rerun python docs/make_collection.py --only NEW-STEMS"
    assert len({row["id"] for row in ROWS}) == len(ROWS)
    for row in ROWS:
        assert tomllib.loads((ROOT / row["file"]).read_text(encoding="utf-8")).get("id", Path(row["file"]).stem) == row["id"]


def test_the_collections_verdicts_are_the_engines() -> None:
    compared = 0
    for row in ROWS:
        reference = FIXTURE.get(row["id"], {}).get("verify")
        mine = row["verification"]
        if not reference or reference.get("verdict") == "unknown" or mine["verdict"] == "unknown":
            continue
        assert mine["verdict"] == reference["verdict"], row["id"]
        assert sorted(key["move"] for key in mine["keys"]) == sorted(key["move"] for key in reference["keys"]), row["id"]
        assert sorted(t["move"] for t in mine["tries"]) == sorted(t["move"] for t in reference["tries"]), row["id"]
        compared += 1
    assert compared >= 50


def test_c_plus_only_where_the_checker_verified_the_whole_verdict() -> None:
    marked = [row for row in ROWS if collection_pages.certified(row)]
    assert len(marked) >= 50
    for row in ROWS:
        certificate = row["certificate"]
        if collection_pages.certified(row):
            assert not certificate.get("left_out") and certificate["checker"].startswith("verified:")
        else:
            assert collection_pages.status(row).startswith("not certified")
    fake = {**ROWS[0], "certificate": {**ROWS[0]["certificate"], "result": "verified", "checker": "not verified: x"}}
    assert not collection_pages.certified(fake)


def test_the_pages_the_olive_file_and_the_booklet_are_written_from_the_verdicts(tmp_path: Path) -> None:
    from ksolve.cli import main

    written = collection_pages.write_pages(tmp_path / "generated", ROWS)
    assert len(written) == len(ROWS)
    rotenberg = (tmp_path / "generated" / "rotenberg-1976.md").read_text(encoding="utf-8")
    assert "sound: key 1.Rg2! (\\#8), the published key" in rotenberg and "<svg" in rotenberg
    assert "black bishop on a dark square" in rotenberg
    table = (tmp_path / "generated" / "table.md").read_text(encoding="utf-8")
    count = sum(collection_pages.certified(row) for row in ROWS)
    assert table.count("**C+**") == count and f"{count} of {len(ROWS)} problems are C+." in table
    booklet = (tmp_path / "generated" / collection_pages.BOOKLET).read_text(encoding="utf-8")
    assert booklet.count("\\Co+") == count and booklet.count("\\begin{diagram}") == len(ROWS)
    back = CliRunner().invoke(main, ["import", str(tmp_path / "generated" / collection_pages.OLIVE),
                                     "-o", str(tmp_path / "back")])
    assert back.exit_code == 0, back.output
    for row in ROWS:
        original = tomllib.loads((ROOT / row["file"]).read_text(encoding="utf-8"))
        assert tomllib.loads((tmp_path / "back" / f"{row['id']}.toml").read_text(encoding="utf-8")) == original


@pytest.mark.slow
def test_a_sample_of_c_plus_certificates_is_written_again_the_same_and_checks() -> None:
    marked = sorted((row for row in ROWS if collection_pages.certified(row)), key=lambda row: row["certificate"]["bytes"])
    for row in marked[:3] + marked[len(marked) // 2:len(marked) // 2 + 1]:
        again = make_collection.entry(ROOT / row["file"], 60)
        assert again["certificate"]["sha256"] == row["certificate"]["sha256"], row["id"]
        assert again["certificate"]["result"] == "verified", row["id"]
        assert again["verification"]["line"] == row["verification"]["line"], row["id"]
