"""Issue 13 item 9: the GM can require approval to join. With ``join_approval`` on, a member's
``/campaign join`` is a request: the member is told privately, the GM is mentioned in the channel with
Approve / Refuse buttons that survive a restart; approving makes the member a player (announced as a
join), refusing tells the member privately. Pending requests are listed in /campaign settings."""

from __future__ import annotations

from .conftest import domain_errors_only, make_bot, refused, shown, texts


def dms(member) -> str:
    channel = member.user.dm_channel
    return texts(channel.history()) if channel is not None else ""


async def test_a_request_waits_for_the_gm_who_approves_after_a_restart_or_refuses(table, tmp_path) -> None:
    ch = table.channel
    await table.gm.slash(ch, "campaign create", name="Ulm", scenario="tutorial")
    r = await table.gm.slash(ch, "campaign settings", name="join_approval", value="on")
    assert "Joining approved by the GM to **on**" in shown(r)

    # Pierre asks: he is told privately; the GM is mentioned on the campaign's card of requests.
    asked = await table.fr.slash(ch, "campaign join", side="fr")
    assert asked.ephemeral and "You asked to join France" in asked.response.content
    public = ch.history()[-1]
    assert public.content == f"<@{table.gm.id}>: requests to join wait for you:\n<@{table.fr.id}> → France"
    assert table.gm.id in {u.id for u in ch.history()[-1].mentions}  # the GM is pinged
    assert f"<@{table.fr.id}> joins France" not in texts(ch.history())  # not a player yet
    again = await table.fr.slash(ch, "campaign join", side="au")
    assert refused(again, "You already asked to join France")
    listed = await table.gm.slash(ch, "campaign settings", name="join_approval")
    assert f"Requests to join waiting for the GM: <@{table.fr.id}> → France" in shown(listed)

    await table.env.restart_bot(make_bot(tmp_path))  # the buttons outlive the bot that posted them

    not_gm = await table.au.click(public, label="Approve pierre")
    assert refused(not_gm, "Only the GM")
    await table.gm.click(public, label="Approve pierre")
    assert "approved by the GM" in texts(ch.history())
    assert f"<@{table.fr.id}> joins France." in texts(ch.history()[-1:])  # announced as any join
    assert all(m.id != public.id for m in ch.history())  # every request answered: the card is gone
    status = await table.fr.slash(ch, "campaign status")
    assert "France" in shown(status)

    # Karl asks and is refused: he is told privately, and plays no side.
    await table.au.slash(ch, "campaign join", side="au")
    question = ch.history()[-1]
    await table.gm.click(question, label="Refuse karl")
    assert "The GM of Ulm did not approve your request to join Austria" in dms(table.au)
    assert "refused by the GM" in texts(ch.history()) and f"<@{table.au.id}> joins Austria" not in texts(ch.history())

    # Olga asks, then withdraws: the GM's Approve finds nothing to approve.
    mine = await table.outsider.slash(ch, "campaign join", side="au")
    question = ch.history()[-1]
    withdrawn = await table.outsider.click(mine.response, label="Withdraw my request")
    assert "Your request to join is withdrawn" in shown(withdrawn)
    assert all(m.id != question.id for m in ch.history())  # nothing waits: the card went with it
    assert f"<@{table.outsider.id}> joins Austria" not in texts(ch.history())
    domain_errors_only(table.env)  # refusals only, never a crash


async def test_with_approval_off_joining_is_immediate_and_the_gm_is_not_asked(table) -> None:
    ch = table.channel
    await table.gm.slash(ch, "campaign create", name="Ulm", scenario="tutorial")
    settings = await table.gm.slash(ch, "campaign settings")
    assert "Joining approved by the GM = **off**" in shown(settings)
    r = await table.fr.slash(ch, "campaign join", side="fr")
    assert not r.ephemeral and f"<@{table.fr.id}> joins France." in shown(r)
    assert "asks to join" not in texts(ch.history())


async def test_requests_share_one_card_edited_in_place_and_a_member_asks_once_in_a_while(table, simcord_bot) -> None:
    """Issue 24, item 3: asking and withdrawing 50 times made 50 public posts, each pinging the GM. Now
    one card per campaign lists what waits, edited in place; a member asks again only after a cooldown."""
    from bot.services.budget import Budget, Heavy

    now = [1000.0]
    simcord_bot.budgets[Heavy.JOIN_REQUEST] = Budget(Heavy.JOIN_REQUEST, clock=lambda: now[0])
    ch = table.channel
    await table.gm.slash(ch, "campaign create", name="Ulm", scenario="tutorial")
    await table.gm.slash(ch, "campaign settings", name="join_approval", value="on")
    posts = len(ch.history())
    await table.fr.slash(ch, "campaign join", side="fr")
    await table.au.slash(ch, "campaign join", side="au")
    assert len(ch.history()) == posts + 1  # one card for both
    card = ch.history()[-1]
    assert f"<@{table.fr.id}> → France" in card.content and f"<@{table.au.id}> → Austria" in card.content
    mine = await table.outsider.slash(ch, "campaign join", side="au")
    await table.outsider.click(mine.response, label="Withdraw my request")
    again = await table.outsider.slash(ch, "campaign join", side="au")
    assert refused(again, "You asked to join 0 s ago", "Try again in 300 s"), shown(again)
    now[0] += 301
    again = await table.outsider.slash(ch, "campaign join", side="au")
    assert "You asked to join Austria" in shown(again)
    assert len(ch.history()) == posts + 1 and f"<@{table.outsider.id}> → Austria" in ch.history()[-1].content
    assert domain_errors_only(table.env) == 1


async def test_approving_a_member_who_left_the_server_makes_no_player(table) -> None:
    """Issue 24, item 3: Approve after the member left still made them a player."""
    ch = table.channel
    await table.gm.slash(ch, "campaign create", name="Ulm", scenario="tutorial")
    await table.gm.slash(ch, "campaign settings", name="join_approval", value="on")
    await table.fr.slash(ch, "campaign join", side="fr")
    card = ch.history()[-1]
    table.guild.remove_member(table.fr)
    await table.gm.click(card, label="Approve pierre")
    assert f"<@{table.fr.id}> has left the server: their request to join France is dropped." in texts(ch.history())
    assert f"<@{table.fr.id}> joins France" not in texts(ch.history())
    status = await table.gm.slash(ch, "campaign status")
    assert "pierre" not in shown(status).lower()
