"""The offline demo plays scripted turns through the services: reproducible, verifiable, pictured."""

from __future__ import annotations

import json
from pathlib import Path

from bot.demo import main, run_demo
from bot.engine.verify import verify_log


async def test_the_demo_writes_a_picture_per_phase_and_a_log_whose_every_roll_verifies(tmp_path: Path) -> None:
    files = await run_demo("tutorial", 2, 7, tmp_path / "a")
    pngs = sorted(p.name for p in files if p.suffix == ".png")
    assert pngs[0] == "turn1-phase0-after-weather.png" and "turn1-phase0-start.png" in pngs
    assert "turn2-phase2-after-movement.png" in pngs
    for name in pngs:
        assert (tmp_path / "a" / name).read_bytes().startswith(b"\x89PNG")
    log = (tmp_path / "a" / "log.md").read_text()
    assert "Force test (MC-4)" in log and "Movement roll (MC-5.1)" in log and "Weather (house rule)" in log
    report = verify_log(json.loads((tmp_path / "a" / "roll-log.json").read_text()))
    assert report.ok and report.verified > 10


async def test_the_same_seed_plays_the_same_campaign(tmp_path: Path) -> None:
    await run_demo("tutorial", 1, 7, tmp_path / "a")
    await run_demo("tutorial", 1, 7, tmp_path / "b")
    await run_demo("tutorial", 1, 8, tmp_path / "c")
    a, b, c = ((tmp_path / d / "log.md").read_text() for d in "abc")
    assert a == b and a != c


def test_the_demo_command_refuses_an_unknown_scenario(tmp_path: Path, capsys) -> None:
    assert main(["--scenario", "waterloo", "--out", str(tmp_path)]) == 2
    assert "Unknown scenario 'waterloo'" in capsys.readouterr().err


def test_python_m_bot_demo_runs_the_demo(tmp_path: Path) -> None:
    from bot.cli import main as cli_main

    assert cli_main(["demo", "--turns", "1", "--seed", "3", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "log.md").exists() and (tmp_path / "turn1-phase0-start.png").exists()


async def test_generals_on_every_side_play_the_tutorial_to_its_end_with_quick_battles(tmp_path: Path) -> None:
    """RU-26 and RU-27 offline: nobody plays, the GM only resolves phases; the campaign ends (RU-25) with a
    winner, every choice of the generals logged for its side, every roll verified."""
    await run_demo("tutorial", 60, 7, tmp_path / "g", pictures=False, generals=True)
    log = (tmp_path / "g" / "log.md").read_text()
    assert "bot generals on every side and quick battles" in log
    assert "The bot general's orders for IV Corps" in log and "*(private to fr)*" in log
    assert "Quick battle" in log or "RU-27" in log
    assert "The campaign is over" in log and "won (RU-25)" in log
    report = verify_log(json.loads((tmp_path / "g" / "roll-log.json").read_text()))
    assert report.ok and report.verified > 100
