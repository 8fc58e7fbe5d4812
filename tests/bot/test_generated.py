"""Generated scenarios (MC-0) at the edges: ``python -m bot scenario generate`` and /campaign create's
``generated`` scenario."""

from __future__ import annotations

from bot import cli
from bot.scenario import parse_scenario_text

from .conftest import domain_errors_only, refused, shown


def test_the_cli_writes_a_valid_scenario_and_a_one_line_summary(tmp_path, capsys) -> None:
    out = tmp_path / "g.yaml"
    args = ["scenario", "generate", "--climate", "temperate", "--season", "spring", "--size", "36x26", "--sides", "3",
            "--alliance", "au,ru", "--seed", "42", "-o", str(out)]
    assert cli.main(args) == 0
    summary = capsys.readouterr().out.strip().splitlines()
    assert len(summary) == 1 and "seed 42" in summary[0] and "3 sides (fr, au, ru)" in summary[0]
    spec = parse_scenario_text(out.read_text(encoding="utf-8"))
    assert spec.alliances == (("au", "ru"),)
    first = out.read_bytes()
    assert cli.main(args) == 0 and out.read_bytes() == first  # the same seed, the same bytes


def test_a_bad_climate_is_a_clear_error_naming_the_argument(capsys) -> None:
    import pytest

    with pytest.raises(SystemExit) as exit_:
        cli.main(["scenario", "generate", "--climate", "polar", "--seed", "1"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument --climate" in err and "Unknown climate 'polar'" in err and "Traceback" not in err


def test_bad_sides_and_alliances_exit_2_naming_the_argument(capsys) -> None:
    assert cli.main(["scenario", "generate", "--sides", "9"]) == 2
    assert "argument --sides: A generated scenario has 2 to 8 sides, got 9." in capsys.readouterr().err
    assert cli.main(["scenario", "generate", "--alliance", "fr,au"]) == 2
    assert "argument --alliance" in capsys.readouterr().err


async def test_campaign_create_with_the_generated_scenario_starts_a_campaign(table) -> None:
    r = await table.gm.slash(table.channel, "campaign create", name="Drawn", scenario="generated",
                             climate="mediterranean", season="summer", size="24x18", sides=2, seed=42)
    text = shown(r)
    assert "Campaign Drawn begins" in text, text
    assert "seed 42" in text
    await table.fr.slash(table.channel, "campaign join", side="fr")
    status = await table.fr.slash(table.channel, "campaign status")
    assert "Drawn" in shown(status)


async def test_generation_options_without_the_generated_scenario_are_refused(table) -> None:
    r = await table.gm.slash(table.channel, "campaign create", name="Ulm", scenario="tutorial", seed=3)
    assert refused(r, "generated")
    assert domain_errors_only(table.env) == 1
