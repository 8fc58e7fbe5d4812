"""``python -m bot``: a missing or refused token gives a clear message and exit code 78; the logs
are key=value lines and never show the token; ``verify`` still works."""

from __future__ import annotations

import json
import logging

import discord

from bot import cli

TOKEN = "MTIzNDU2Nzg5.secret-token-value.abcdef"


def test_without_a_token_the_bot_explains_and_exits_78(monkeypatch, capsys, no_env_file) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert cli.main([]) == 78
    assert "needs a Discord bot token" in capsys.readouterr().err


def test_a_refused_token_is_a_clear_message_and_exit_78_and_the_token_is_never_printed(
        monkeypatch, capsys, no_env_file) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)

    async def refuse(self, token):
        logging.getLogger("discord.http").error("login with %s refused", token)  # a library that logs too much
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.http.HTTPClient, "static_login", refuse)
    assert cli.main(["run"]) == 78
    err = capsys.readouterr().err
    assert "Discord refused the bot token" in err
    assert TOKEN not in err
    logs = [line for line in err.splitlines() if line.startswith("ts=")]
    assert logs and all(" level=" in line and " logger=" in line for line in logs)
    assert any("event=login_failed reason=bad_token" in line for line in logs)
    logging.getLogger().handlers.clear()


def test_the_formatter_writes_key_value_lines_and_hides_secrets() -> None:
    fmt = cli.KeyValueFormatter([TOKEN])
    rec = logging.LogRecord("adc", logging.INFO, __file__, 1, "event=x token=%s", (TOKEN,), None)
    line = fmt.format(rec)
    assert "event=x" in line and TOKEN not in line and "[token]" in line
    rec = logging.LogRecord("discord", logging.WARNING, __file__, 1, "plain words", (), None)
    assert 'msg="plain words"' in fmt.format(rec)


def test_verify_still_reads_a_roll_log(tmp_path, capsys) -> None:
    path = tmp_path / "log.json"
    path.write_text(json.dumps({"format": "nope"}))
    assert cli.main(["verify", str(path)]) in (1, 2)
    assert cli.main(["verify", str(tmp_path / "missing.json")]) == 2


def test_verify_says_its_report_in_the_language_asked(tmp_path, capsys) -> None:
    """Issue 23: ``--lang`` says every line, a problem's too, in that language; English by default."""
    from tests.engine.conftest import build_force
    from tests.engine.forgeries import forged, honest_log

    path = tmp_path / "log.json"
    path.write_text(json.dumps(forged(honest_log(build_force(cv=2)), "seed")))
    assert cli.main(["verify", str(path)]) == 1
    english = capsys.readouterr().out
    assert "PROBLEM: turn 1 has ended, but its seed is missing" in english
    assert cli.main(["verify", str(path), "--lang", "fr"]) == 1
    french = capsys.readouterr().out
    assert "PROBLÈME : le tour 1 est terminé, mais sa graine manque" in french and "PROBLEM" not in french
    assert len(french.splitlines()) == len(english.splitlines())
