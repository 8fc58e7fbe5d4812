"""Solo play in Discord (issue 25 items 1 and 4; RU-26, RU-27): one member creates a campaign, joins France
and leaves Austria to the bot general (``unmanned_sides: ai``) with quick battles, and plays the first turn
alone. What the member sees comes in order (the phase cards, then the turn's gazette), Austria is never
awaited, and of the general's own choices the member reads nothing fog of war hides (its orders and moves
are Austria's business: RU-26)."""

from __future__ import annotations

from .conftest import advance, shown, texts


async def test_ru_26_a_member_plays_the_first_turn_alone_against_the_bot_general(table) -> None:
    me, ch = table.gm, table.channel
    made = await me.slash(ch, "campaign create", name="Solo", scenario="tutorial")
    assert "Campaign Solo begins" in shown(made)
    await me.slash(ch, "campaign settings", name="unmanned_sides", value="ai")
    await me.slash(ch, "campaign settings", name="battles", value="quick")
    await me.slash(ch, "campaign join", side="fr")
    await advance(table)  # Start: turn 1's weather, Phase 1 opens and the general gives Austria's orders
    await me.slash(ch, "order done")  # Phase 1: France keeps its orders; the general gave Austria's
    await me.slash(ch, "order done")  # Phase 2: France stays; the general moved Austria: nothing else awaited
    status = await me.slash(ch, "campaign status")
    assert "turn 2" in shown(status) and "Waiting for **France**" in shown(status)

    seen = [texts([m]) for m in ch.history(viewer=me)]
    order = [next(i for i, t in enumerate(seen) if what in t) for what in (
        "Campaign Solo begins", "joins France", "**Phase 1: Orders and Force tests (MC-4)**",
        "**Phase 2: Movement (MC-5)**", "Turn 1 gazette")]
    assert order == sorted(order), order  # the phase cards, then the gazette carrying turn 2's card
    cards = [t for t in seen if "your move in this phase" in t]  # the phase cards (the gazette carries one)
    assert len(cards) == 3 and all("Waiting for **France**" in t and "Done with this phase ✅ Austria" in t for t in cards)
    # the general's choices are Austria's business (RU-26): nobody outside Austria reads them in the channel
    outside = texts(ch.history(viewer=table.outsider))
    assert "Turn 1 gazette" in outside and "RU-26" not in outside and "marches on" not in outside
    log = await me.slash(ch, "campaign log")  # the GM reads every side's log: the general did play
    assert "The bot general's orders for" in shown(log)


async def test_ru_26_the_gm_seats_the_general_then_takes_the_side_back_mid_phase_and_it_is_awaited_again(table) -> None:
    """``/gm assign side:… general:bot`` then ``general:off`` in the middle of Phase 1, with ``unmanned_sides:
    wait``: the general gives Austria's orders at once and the phase waits for France alone; taken back, Austria
    is awaited again (issue 25: a campaign whose general is switched off mid-phase simply awaits that side
    again), its orders as the general left them."""
    me, ch = table.gm, table.channel
    await me.slash(ch, "campaign create", name="Seat", scenario="tutorial")
    await me.slash(ch, "campaign settings", name="unmanned_sides", value="wait")
    await me.slash(ch, "campaign join", side="fr")
    await advance(table)  # Start: Phase 1 opens, waiting for France and Austria
    assert "Waiting for **France** and **Austria**" in shown(await me.slash(ch, "campaign status"))
    on = await me.slash(ch, "gm assign", side="au", general="bot")
    assert "The bot general now plays Austria (RU-26)" in shown(on) and not on.ephemeral
    status = shown(await me.slash(ch, "campaign status"))
    assert "Waiting for **France**" in status and "Austria**" not in status.split("Waiting for")[1].split("\n")[0]
    off = await me.slash(ch, "gm assign", side="au", general="off")
    assert "The bot general no longer plays Austria (RU-26)" in shown(off)
    assert "Waiting for **France** and **Austria**" in shown(await me.slash(ch, "campaign status"))
