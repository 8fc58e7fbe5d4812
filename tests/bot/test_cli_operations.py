"""Operations from the command line: Discord's own 5xx at login is exit 69 with a message (not a
traceback); shard settings are checked; ``python -m bot health`` reads the heartbeat without
Discord; the Docker image runs that health check and carries the package's version."""

from __future__ import annotations

import asyncio
import os
import re
import threading
import time
import tomllib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import discord
import pytest

from bot import cli
from bot.settings import ROOT, Settings, SettingsError, shard_of

TOKEN = "MTIzNDU2Nzg5.secret-token-value.abcdef"


@pytest.fixture
def discord_answers_502(monkeypatch: pytest.MonkeyPatch):
    """A local stand-in for Discord's API that answers every request 502 Bad Gateway."""
    hits: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            body = b"<html>502 Bad Gateway</html>"
            self.send_response(502, "Bad Gateway")
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{server.server_address[1]}/api/v10")
    real_sleep = asyncio.sleep
    monkeypatch.setattr(asyncio, "sleep", lambda delay, *a, **k: real_sleep(0, *a, **k))  # discord.py's retry waits
    yield hits
    server.shutdown()
    server.server_close()


def test_a_discord_5xx_at_login_is_exit_69_with_a_message(monkeypatch, capsys, no_env_file, discord_answers_502) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert cli.main(["run"]) == 69
    err = capsys.readouterr().err
    assert len(discord_answers_502) == 5  # discord.py retried the login, then gave up
    assert "answered HTTP 502" in err and "discordstatus.com" in err
    assert "Traceback" not in err and TOKEN not in err
    assert any("event=unreachable reason=server_error status=502" in line for line in err.splitlines())
    import logging

    logging.getLogger().handlers.clear()


@pytest.mark.parametrize(("env", "needle"), [
    ({"ADC_SHARD_IDS": "0"}, "ADC_SHARD_IDS needs ADC_SHARD_COUNT"),
    ({"ADC_SHARD_COUNT": "two"}, "ADC_SHARD_COUNT must be a whole number"),
    ({"ADC_SHARD_COUNT": "2", "ADC_SHARD_IDS": "1,2"}, "outside 0-1"),
    ({"ADC_SHARD_COUNT": "2", "ADC_SHARD_IDS": "x"}, "is not a shard id"),
])
def test_malformed_shard_settings_are_a_message_and_exit_78(monkeypatch, capsys, no_env_file, env, needle) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    assert cli.main(["run"]) == 78
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_shard_settings_say_which_guilds_and_backups_a_process_has(monkeypatch, no_env_file) -> None:
    monkeypatch.setenv("ADC_SHARD_COUNT", "4")
    monkeypatch.setenv("ADC_SHARD_IDS", "3, 0-1")
    s = Settings.from_env()
    assert s.sharded and s.shard_count == 4 and s.shard_ids == (0, 1, 3)
    guilds = [(n << 22) + 12345 for n in range(8)]  # a guild's shard is (id >> 22) % count
    assert [shard_of(g, 4) for g in guilds] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert [s.handles_guild(g) for g in guilds] == [True, True, False, True] * 2
    assert s.runs_backups
    other = Settings(shard_count=4, shard_ids=(2,))
    assert [other.handles_guild(g) for g in guilds] == [False, False, True, False] * 2 and not other.runs_backups
    everything = Settings(shard_count=4, shard_ids=(0, 1, 2, 3))
    assert everything.partial_shards is None and all(map(everything.handles_guild, guilds))
    assert Settings().partial_shards is None and Settings().runs_backups and not Settings().sharded
    with pytest.raises(SettingsError):
        Settings(shard_ids=(0,))


def test_health_reads_the_heartbeat_without_discord(tmp_path, capsys, monkeypatch, no_env_file) -> None:
    beat = tmp_path / "heartbeat"
    assert cli.main(["health"]) == 1  # no bot ran here
    assert "no heartbeat" in capsys.readouterr().err
    beat.write_text('{"pid": 1, "ready": true, "loops": {"deadlines": "running"}}')
    assert cli.main(["health"]) == 0  # ADC_DATA_DIR/heartbeat by default
    assert "healthy" in capsys.readouterr().out
    old = time.time() - 3600
    os.utime(beat, (old, old))
    assert cli.main(["health", "--max-age", "300"]) == 1
    assert "3600 s old" in capsys.readouterr().err
    elsewhere = tmp_path / "hb.json"
    elsewhere.write_text("{}")
    monkeypatch.setenv("ADC_HEARTBEAT", str(elsewhere))
    assert cli.main(["health"]) == 0


def test_the_image_checks_its_health_and_is_labelled_with_the_version() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert re.search(r"^HEALTHCHECK .*CMD \[\"python\", \"-m\", \"bot\", \"health\"\]", dockerfile, re.M)
    assert re.search(rf"^ARG VERSION={re.escape(version)}$", dockerfile, re.M)
    assert re.search(r"^LABEL [^\n]*(\\\n[^\n]*)*org\.opencontainers\.image\.version=\"\$\{VERSION\}\"", dockerfile, re.M)
    assert Path(ROOT / "bot" / "__init__.py").read_text().count(f'"{version}"') == 1
