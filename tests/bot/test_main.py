"""The command line: ``python -m bot`` and ``python -m bot demo``."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.config import Settings
from cogs import demo


def test_without_a_token_the_bot_explains_what_to_set(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)  # no .env file here
    assert main([]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and "python -m bot demo" in err


def test_demo_plays_a_whole_game_and_writes_the_pictures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--seed", "3", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("**Dogfight #1**")
    assert out[-1].startswith("RESULT: ") and "Winner:" in out[-1] and "VP " in out[-1]
    pictures = sorted(tmp_path.iterdir())
    assert pictures and all(p.read_bytes().startswith(b"\x89PNG") for p in pictures)


def test_demo_transcript_names_players_and_shows_the_lobby_when_it_changes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Mentions read as Discord shows them (``@alice``, not ``<@123>``), and the lobby
    message is written when it is posted and again, marked, at every edit."""
    assert main(["demo", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "<@" not in out and "@alice" in out and "@bob" in out
    lobby = [i for i, line in enumerate(lines) if "**Dogfight #1**:" in line]
    assert lobby[0] == 0 and lines[1] == "● **Allied**: nobody yet"
    assert all(lines[i].startswith("(edited) **Dogfight #1**:") for i in lobby[1:])
    joined = lines.index(next(line for line in lines if line.startswith("@alice flies for")))
    assert lobby[0] < joined < lobby[1], "alice's seat shows in the lobby once she joined"
    assert lines[lobby[1] + 2] == "• A1 @alice: Buffalo I with wingman: 4 pts"
    begins = next(i for i, line in enumerate(lines) if line.startswith("The dogfight begins!"))
    assert any(i > begins for i in lobby), "the lobby is shown again when the game starts"
    last = lines[lobby[-1] :]
    assert next(line for line in last if line.startswith("Finished: "))


@pytest.mark.slow
def test_demo_plays_rise_of_the_luftwaffe_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "5", "--ruleset", "rotl"]) == 0
    out = capsys.readouterr().out
    assert "Spitfire I (A1)" in out and "Bf-109E (X1)" in out
    assert out.splitlines()[-1].startswith("RESULT: ")
    # RotL's sides are "Allies" and "Axis": in a sentence, "the Allied side".
    assert "@alice flies for the Allied side in seat A1" in out
    assert "Coin flip: the Allied side goes first (4.7)." in out
    assert "The Allied side has Spitfire I (A1) to play first (4.7)." in out
    assert "Allies side" not in out
    assert main(["demo", "--seed", "5", "--ruleset", "rotl", "--language", "fr"]) == 0
    out = capsys.readouterr().out
    assert "@alice vole pour le camp allié à la place A1" in out
    assert "Le camp allié : Spitfire I (A1) joue en premier (4.7)." in out
    assert "@bob vole pour le camp de l'Axe" in out and "camp Alliés" not in out


def test_demo_plays_a_2v2_with_four_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "3", "--format", "2v2"]) == 0
    out = capsys.readouterr().out
    assert "2 v 2" in out.splitlines()[0]
    assert "names which of its elements plays next (4.7)" in out
    assert "P-40B (A2)" in out and "A6M2 Zero (X2)" in out
    assert out.splitlines()[-1].startswith("RESULT: ")


def test_demo_plays_lockedon_the_same_way_for_a_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--system", "lockedon", "--seed", "4", "--out", str(tmp_path)]) == 0
    first = capsys.readouterr().out
    assert "F-15A Eagle (A1)" in first and "MiG-29 (B1)" in first
    assert first.splitlines()[-1].startswith("RESULT: ")
    assert "@alice flies for side A in seat A1" in first and "Side A side" not in first
    assert any(tmp_path.iterdir()), "the pictures of the range chart"
    assert main(["demo", "--system", "lockedon", "--seed", "4"]) == 0
    assert capsys.readouterr().out == first, "deterministic per seed"
    with pytest.raises(SystemExit):
        main(["demo", "--system", "lockedon", "--ruleset", "zero"])


def _options(parser: argparse.ArgumentParser) -> list[str]:
    return [o for a in parser._actions for o in a.option_strings if o.startswith("--")]


def test_help_lists_every_way_to_run_it_and_every_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "python -m bot demo" in out and "python -m bot verify LOGFILE" in out
    for name, setting in Settings.model_fields.items():
        assert setting.alias and setting.alias in out, name
        assert setting.description and setting.description in out, name
    options = _options(demo.parser())
    assert {"--seed", "--out", "--system", "--ruleset", "--format", "--language"} <= set(options)
    for option in options:
        assert option in out, option


def test_demo_help_lists_every_option_with_what_it_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as done:
        main(["demo", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for action in demo.parser()._actions:
        for option in action.option_strings:
            assert option in out, option
        assert action.help and action.help.split(" (")[0] in " ".join(out.split()), action.dest


@pytest.mark.slow
def test_demo_plays_a_whole_campaign_in_french(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--campaign``: one line per mission (its game and each side's VP), then the
    campaign's result in the server's language; the sheets are saved with ``--out``.
    (A one-day Eagles in the Sky campaign: an Encounter and a game, in about 15 s; the
    CI runs the other systems' demo campaigns in English.)"""
    args = ["demo", "--campaign", "eagles-quiet-sector", "--options", "days=1", "--seed", "1"]
    assert main([*args, "--language", "fr", "--out", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" ")[1] for line in lines[:-1]] == ["#1", "#2"]
    assert all(line.startswith("MISSION #") and "Jour 1" in line for line in lines[:-1])
    assert "(game " in lines[1]  # the afternoon's mission is flown as a game
    assert lines[-1].startswith("CAMPAIGN: Alliés ") and "gagnent la campagne" in lines[-1]
    sheets = sorted(tmp_path.iterdir())
    assert len(sheets) >= 3 and all(p.read_bytes().startswith(b"\x89PNG") for p in sheets)
