"""The verifier for players who do not run Python (bot/engine/verify.html): one self-contained HTML
page that checks a roll log in a browser, offline, with the same report as ``python -m bot verify``.

Run in a real headless Chromium (``--dump-dom``, no network): the honest log and each forgery of
the issue, line for line against the Python report; then the page's own SHA-256, SHAKE-256 and
dice against hashlib and bot.engine.dice, and a few hundred mangled logs against the Python
verifier. Skipped only when no Chromium is installed (CI installs it: .ci/run).
"""

from __future__ import annotations

import copy
import hashlib
import html
import json
import random
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bot.engine.dice import derive_faces
from bot.engine.errors import VerificationError
from bot.engine.verify import verifier_html, verifier_template, verify_log

from .forgeries import FORGERIES, forged, honest_log, legacy, rechain, record_sha, reseeded_log
from .test_verify import forge_trophy_taken, trophy_log, unchain
from .test_verify_anchored import CONSISTENT

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
TEMPLATE = verifier_template()  # the page as served: with the rulebook's tables


@pytest.fixture(scope="module")
def browser() -> str:
    for name in BROWSERS:
        if path := shutil.which(name):
            return path
    pytest.skip("no Chromium binary installed (apt-get install chromium): the browser verifier is not run")


def dump_dom(browser: str, page: Path, tmp_path: Path) -> str:
    """The page's DOM once its scripts have run, from a headless Chromium that resolves no host."""
    done = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--disable-background-networking", "--disable-component-update", "--no-first-run",
         "--host-resolver-rules=MAP * ~NOTFOUND", f"--user-data-dir={tmp_path / 'profile'}",
         "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


class _Find(HTMLParser):
    """The text and attributes of the elements with the ids asked for."""

    def __init__(self, ids: set[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.ids, self.found, self.attrs_of, self._open = ids, {}, {}, None

    def handle_starttag(self, tag, attrs):
        ident = dict(attrs).get("id")
        if ident in self.ids:
            self._open = ident
            self.attrs_of[ident] = dict(attrs)
            self.found[ident] = ""

    def handle_endtag(self, tag):
        self._open = None

    def handle_data(self, data):
        if self._open:
            self.found[self._open] += data


def page_result(browser: str, log: dict, tmp_path: Path) -> dict:
    path = tmp_path / "verify.html"
    path.write_text(verifier_html(log, title="Ulm"), encoding="utf-8")
    finder = _Find({"verdict", "report"})
    finder.feed(dump_dom(browser, path, tmp_path))
    return {"ok": finder.attrs_of["verdict"]["data-ok"], "lines": finder.found["report"].split("\n")}


def python_result(log: dict) -> dict:
    report = verify_log(json.loads(json.dumps(log)))
    ok = ("true" if report.matches_announced else "unmatched") if report.ok else "false"  # no heads given: unmatched
    return {"ok": ok, "lines": report.lines()}


@pytest.fixture
def log(make_force) -> dict:
    return honest_log(make_force(cv=2))


def test_the_page_checks_an_honest_log_as_python_does(browser, log, tmp_path):
    got = page_result(browser, log, tmp_path)
    assert got == python_result(log)
    assert got["ok"] == "unmatched" and got["lines"][-1] == CONSISTENT  # until compared with the announced heads


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_the_page_catches_each_forgery_as_python_does(browser, log, tmp_path, name):
    bad = forged(log, name)
    got = page_result(browser, bad, tmp_path)
    assert got["ok"] == "false"
    assert got["lines"][-1] == "The log does NOT check out."
    assert got == python_result(bad)


def test_the_page_reads_an_old_log_anyones_view_with_hidden_rolls_and_a_reseeded_turn(browser, log, make_force,
                                                                                       tmp_path):
    view = copy.deepcopy(log)
    hidden = view["rolls"][8:]  # turn 3 still in play: one hidden stretch
    view["rolls"][8:] = [{"kind": "hidden", "prev": hidden[0]["prev"], "sha256": record_sha(hidden[-1])}]
    combined = {"old": legacy(log), "view": view, "reseeded": reseeded_log(make_force(cv=2))}
    for name, one in combined.items():
        got = page_result(browser, one, tmp_path)
        assert got == python_result(one), name
        assert got["ok"] == "unmatched", name


def forged_trophies(log: dict) -> dict[str, dict]:
    """CC-3 forgeries (test_verify.py): "trophy taken!" for dice that take nothing, with the chain kept or
    without one; and with the table forged to fit and the chain recomputed."""
    fitted = forge_trophy_taken(copy.deepcopy(log))
    entry = fitted["rolls"][4]
    symbols = [entry["table"]["faces"][f - 1] for f in entry["dice"]]
    entry["table"]["combinations"].insert(0, {"symbols": symbols, "result": "taken", "label": entry["label"]})
    entry["total"] = symbols.count("flag")
    return {"taken": forge_trophy_taken(copy.deepcopy(log)), "taken-unchained": forge_trophy_taken(unchain(copy.deepcopy(log))),
            "table-rechained": rechain(fitted)}


def test_the_page_recomputes_trophy_rolls_as_python_does(browser, make_force, tmp_path):
    log = trophy_log(make_force(cv=2))
    got = page_result(browser, log, tmp_path)
    assert got == python_result(log)
    assert got["ok"] == "unmatched" and "14 totals and results recomputed from the dice, modifiers and tables." in got["lines"]


@pytest.mark.parametrize("name", ["taken", "taken-unchained", "table-rechained"])
def test_the_page_catches_a_forged_trophy_as_python_does(browser, make_force, tmp_path, name):
    bad = forged_trophies(trophy_log(make_force(cv=2)))[name]
    got = page_result(browser, bad, tmp_path)
    assert got["ok"] == "false" and got["lines"][-1] == "The log does NOT check out."
    assert got == python_result(bad)
    if name == "taken-unchained":
        assert got["lines"][-2].startswith(f"PROBLEM: rolls[4] ({bad['rolls'][4]['key']}): recorded total ")


def test_the_page_recomputes_a_scenarios_own_weather_and_events_as_python_does(browser, tmp_path):
    """Issue 21, item 6 (RU-10): a roll off a scenario's own table carries that table, and verifies."""
    from tests.campaign.test_scenario_tables import winter_log

    log = winter_log()
    got = page_result(browser, log, tmp_path)
    assert got == python_result(log)
    assert got["ok"] == "unmatched" and f"{len(log['rolls'])} totals and results recomputed from the dice, modifiers " \
        "and tables." in got["lines"]


def test_a_page_that_is_not_a_roll_log_says_why(browser, tmp_path):
    got = page_result(browser, {"format": "something else"}, tmp_path)
    assert got == {"ok": "error", "lines": ['Not a roll log: expected "format": "aide-de-camp/roll-log".']}


def test_the_page_is_self_contained_and_offline(log):
    page = verifier_html(log, title="</title><script>alert(1)</script>")
    assert "default-src 'none'" in page  # the CSP: nothing fetched, no connection made
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<script>alert" not in page and "&lt;script&gt;alert" in page
    embedded = page.split('<script type="application/json" id="roll-log">', 1)[1].split("</script>", 1)[0]
    assert "<" not in embedded and json.loads(embedded) == json.loads(json.dumps(log))


def checked_in_browser(browser: str, tmp_path: Path, cases: list, call: str) -> list:
    """What the verifier's script (the template's, as served) says of each of ``cases`` in a headless
    Chromium: ``call`` is the JavaScript run for each, given as ``c`` (``check(c, "")``, say)."""
    script = re.search(r'<script id="verifier">(.*?)</script>', TEMPLATE, re.S).group(1)
    data = json.dumps(cases, ensure_ascii=True).replace("<", "\\u003c")
    page = tmp_path / "checked.html"
    page.write_text(f"""<!doctype html><html><body><pre id="out"></pre>
<script type="application/json" id="cases">{data}</script>
<script>{script}</script>
<script>
"use strict";
const cases = JSON.parse(document.getElementById("cases").textContent);
document.getElementById("out").textContent = JSON.stringify(cases.map((c) => {call}));
</script></body></html>""", encoding="utf-8")
    return json.loads(html.unescape(re.search(r'<pre id="out">(.*?)</pre>', dump_dom(browser, page, tmp_path),
                                              re.S).group(1)))


# --- the page's primitives and its verdicts, against Python's, in one browser run ------------------


def harness(cases: dict) -> str:
    """A page running the verifier's script (the template's, as served) over ``cases``."""
    script = re.search(r'<script id="verifier">(.*?)</script>', TEMPLATE, re.S).group(1)
    data = json.dumps(cases, ensure_ascii=True).replace("<", "\\u003c")
    return f"""<!doctype html><html><body><pre id="out"></pre>
<script type="application/json" id="cases">{data}</script>
<script>{script}</script>
<script>
"use strict";
const cases = JSON.parse(document.getElementById("cases").textContent);
const bytes = (h) => fromHex(h);
const out = {{
  sha256: cases.messages.map((m) => toHex(sha256(bytes(m)))),
  shake: cases.messages.map((m) => {{ const s = shake256(bytes(m)); return toHex(Array.from({{length: 300}}, () => s.next())); }}),
  dice: cases.dice.map(([seed, key, count, sides]) => deriveFaces(bytes(seed), key, count, sides)),
  logs: cases.logs.map((log) => check(log)),
}};
document.getElementById("out").textContent = JSON.stringify(out);
</script></body></html>"""


POOL = [None, True, False, 0, 1, -1, 3, 7, 2.5, 4.0, 2**53, 10**20, "", "x", "t1/p1/a", "t2/x", "t09/p1/x",
        "ü→€", "\ud83c\udfb2", "\ud800", "\u2028", 'a"b\\c\n', "roll", "batch", "hidden", "0" * 64, "ab" * 32, [], {},
        [1], [1, 2], {"a": 1}, {"value": 1, "rule": "R", "reason": "r"}]


def mangle(log: dict, rng: random.Random) -> dict:
    """One random edit somewhere in the log: a value replaced, a field dropped, an entry moved."""
    log = copy.deepcopy(log)
    node, path = log, []
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        k = rng.choice(keys)
        path.append((node, k))
        child = node[k]
        if not isinstance(child, dict | list) or not child or rng.random() < 0.3:
            break
        node = child
    if not path:
        return log
    parent, k = path[-1]
    action = rng.random()
    if action < 0.55:
        parent[k] = copy.deepcopy(rng.choice(POOL))
    elif action < 0.7 and isinstance(parent[k], int | float) and not isinstance(parent[k], bool):
        parent[k] += rng.choice((-1, 1))
    elif action < 0.85:
        del parent[k]
    elif isinstance(parent, list) and len(parent) > 1:
        j = rng.randrange(len(parent))
        parent[k], parent[j] = parent[j], parent[k]
    else:
        parent[k] = copy.deepcopy(rng.choice(POOL))
    return log


def python_check(log: object) -> dict:
    try:
        report = verify_log(log)  # type: ignore[arg-type]
    except VerificationError as exc:
        return {"ok": None, "error": str(exc)}
    return {"ok": report.ok, "matched": report.ok and report.matches_announced, "lines": report.lines()}


def test_the_pages_hashes_dice_and_verdicts_are_pythons(browser, log, make_force, tmp_path):
    rng = random.Random(20261122)
    messages = [bytes(rng.randrange(256) for _ in range(n)) for n in
                (0, 1, 3, 55, 56, 63, 64, 65, 119, 120, 135, 136, 137, 200, 271, 272, 273, 1000)]
    dice = [(bytes(rng.randrange(256) for _ in range(32)), key, count, sides)
            for key, count, sides in [("t1/p2/force:7/movement", 1, 6), ("t3/p4/unit:a/wounded", 400, 6),
                                      ("k", 50, 2), ("k", 50, 3), ("ü/clé", 30, 20), ("k", 20, 100), ("k", 20, 255),
                                      ("k", 40, 256), ("k", 40, 1000), ("k", 40, 65536), ("k", 0, 6)]]
    logs = [log, legacy(log), reseeded_log(make_force(cv=2)), *(forged(log, name) for name in sorted(FORGERIES))]
    logs += [mangle(logs[i % 3], rng) for i in range(450)]
    logs = [json.loads(json.dumps(one)) for one in logs]  # what the browser reads: JSON
    page = tmp_path / "harness.html"
    page.write_text(harness({"messages": [m.hex() for m in messages],
                             "dice": [[s.hex(), k, c, n] for s, k, c, n in dice], "logs": logs}), encoding="utf-8")
    dom = dump_dom(browser, page, tmp_path)
    got = json.loads(html.unescape(re.search(r'<pre id="out">(.*?)</pre>', dom, re.S).group(1)))
    assert got["sha256"] == [hashlib.sha256(m).hexdigest() for m in messages]
    assert got["shake"] == [hashlib.shake_256(m).hexdigest(300) for m in messages]
    assert got["dice"] == [list(derive_faces(s, k, c, n)) for s, k, c, n in dice]
    expected = [python_check(one) for one in logs]
    assert [g["ok"] for g in got["logs"]].count(False) > 50  # the mangling breaks most logs...
    for i, (g, e) in enumerate(zip(got["logs"], expected, strict=True)):
        assert g == e, (i, logs[i])


def test_the_pages_verdicts_on_trophy_rolls_and_their_tables_are_pythons(browser, make_force, tmp_path):
    """CC-3 rolls read by symbols: the honest log, its forgeries, and a few hundred edits of its trophy
    records and tables, through the page's verifier and Python's."""
    rng = random.Random(20261123)
    log = trophy_log(make_force(cv=2))
    bare = unchain(copy.deepcopy(log))  # without the chain, only the recomputation speaks
    logs = [log, bare, *forged_trophies(log).values()]
    for n in range(400):
        one = copy.deepcopy(bare if n % 2 else log)
        entry = one["rolls"][4 + n % 4]
        if n % 3:
            entry["table"] = mangle(entry["table"], rng)
        else:
            one["rolls"][4 + n % 4] = mangle(entry, rng)
        logs.append(one)
    logs = [json.loads(json.dumps(one)) for one in logs]
    page = tmp_path / "harness.html"
    page.write_text(harness({"messages": [], "dice": [], "logs": logs}), encoding="utf-8")
    dom = dump_dom(browser, page, tmp_path)
    got = json.loads(html.unescape(re.search(r'<pre id="out">(.*?)</pre>', dom, re.S).group(1)))
    expected = [python_check(one) for one in logs]
    assert [e["ok"] for e in expected[:2]] == [True, True]
    assert sum(1 for e in expected if e["ok"] is False and any(": its table is malformed (" in line
                                                               for line in e["lines"])) > 30
    for i, (g, e) in enumerate(zip(got["logs"], expected, strict=True)):
        assert g == e, (i, logs[i])


PROBE = """<style>html { width: 412px; }</style><script>
// test only: the page laid out 412 px wide, as a phone shows it (headless Chromium's window is at least
// 500 px): how far right any element reaches, and the smallest text
let widest = 0;
let smallest = 99;
for (const el of document.body.querySelectorAll("*")) {
  if (el.offsetParent === null || !el.textContent.trim() || el.tagName === "SCRIPT") continue;
  widest = Math.max(widest, el.getBoundingClientRect().right);
  smallest = Math.min(smallest, parseFloat(getComputedStyle(el).fontSize));
}
document.body.insertAdjacentHTML("beforeend", `<div id="probe" data-width="${widest}" data-smallest="${smallest}"></div>`);
</script>"""


def dump_at_412(browser: str, page: Path, tmp_path: Path) -> str:
    done = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--disable-background-networking", "--disable-component-update", "--no-first-run",
         "--host-resolver-rules=MAP * ~NOTFOUND", f"--user-data-dir={tmp_path / 'profile412'}",
         "--window-size=500,915", "--force-device-scale-factor=1", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_page_speaks_the_readers_language_lists_each_public_roll_and_fits_a_phone(browser, log, tmp_path):
    """Issue 23, item 6: in French, the page's words, each public roll as the channel showed it marked
    against its turn's seed, each turn's fingerprint highlighted; nothing wider than 412 px, no text
    under 12 px. A forged roll is marked ✗."""
    from bot.services.logbook import page_words, shown_rolls

    shown = shown_rolls(log, "fr")
    assert shown["rolls"] and shown["fingerprints"]
    assert all(line["line"].startswith("Tour ") for line in shown["rolls"])
    page = verifier_html(log, title="Ulm", words=page_words("fr", "Ulm"), shown=shown)
    path = tmp_path / "verify.html"
    path.write_text(page.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    dom = dump_at_412(browser, path, tmp_path)
    finder = _Find({"verdict", "probe", "roll-list", "fingerprint-list"})
    finder.feed(dom)
    assert finder.found["verdict"].startswith("Le journal est cohérent avec lui-même.") and '<html lang="fr"' in dom
    assert "Registre des jets d'Ulm" in dom and "What is checked" not in dom.split("<script")[0]
    # Each roll checks out; the log as a whole is consistent with itself (no fingerprints given to compare).
    assert dom.count('data-ok="true"') >= len(shown["rolls"]) and "✗" not in finder.found["roll-list"]
    assert 'id="verdict" data-ok="unmatched"' in dom
    fingerprint = shown["fingerprints"][0]["fingerprint"]
    assert len(fingerprint) == 16 and f'<mark class="fingerprint">{fingerprint}</mark>' in dom
    probe = finder.attrs_of["probe"]
    assert 300 < float(probe["data-width"]) <= 412 and float(probe["data-smallest"]) >= 12

    bad = copy.deepcopy(log)
    target = next(r for r in bad["rolls"] if r.get("kind") == "roll" and r.get("key") == shown["rolls"][0]["key"])
    target["dice"] = [(target["dice"][0] % 6) + 1, *target["dice"][1:]]
    path.write_text(verifier_html(bad, title="Ulm", words=page_words("fr", "Ulm"), shown=shown), encoding="utf-8")
    finder = _Find({"verdict", "roll-list"})
    finder.feed(dump_dom(browser, path, tmp_path))
    assert finder.found["verdict"] == "Le registre n'est PAS conforme." and "✗" in finder.found["roll-list"]


def test_the_english_page_keeps_its_own_words(log):
    from bot.services.logbook import page_words

    assert page_words("en", "Ulm") == {}
    page = verifier_html(log, title="Ulm")
    assert "/*WORDS*/" not in page and "/*SHOWN*/" not in page and "Roll log of Ulm" in page


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_pages_report_lines_are_the_bots_in_the_readers_language(browser, log, tmp_path, lang):
    """Issue 23: each line of the report (the verifier's problems and mismatches too) is said on the page
    as the bot and ``python -m bot verify --lang`` say it, in the reader's language."""
    from bot.i18n.text import tr
    from bot.services.logbook import page_words

    for name in ("total", "delete", "seed"):
        bad = forged(log, name)
        python = [tr(lang, line) for line in verify_log(json.loads(json.dumps(bad))).lines()]
        assert all(said != str(line) for said, line in zip(python, verify_log(bad).lines(), strict=True))
        path = tmp_path / "verify.html"
        path.write_text(verifier_html(bad, title="Ulm", words=page_words(lang, "Ulm")), encoding="utf-8")
        finder = _Find({"report"})
        finder.feed(dump_dom(browser, path, tmp_path))
        assert finder.found["report"].split("\n") == python, name
