"""Join approval (issue 13 item 9, the contract's "the GM can require approval"): with the bot setting
``join_approval`` on, ``/campaign join`` records a request that the GM approves or refuses; off, a
member joins at once, as before."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from bot.campaign import codec, lifecycle
from bot.campaign.events import EventKind, Journal
from bot.campaign.new import from_scenario
from bot.campaign.state import CampaignState, JoinRequest
from bot.engine.errors import InvalidInput
from bot.scenario import load_bundled
from bot.services.errors import NotFound, PermissionDenied

GM_ROLE = 77


@dataclass(frozen=True)
class Member:
    member_id: int
    roles: frozenset[int] = field(default_factory=frozenset)


GM, CO_GM = Member(1), Member(5, frozenset({GM_ROLE}))
PIERRE, KARL, OLGA = Member(2001), Member(3001), Member(9001)


def campaign(*, approval: bool) -> CampaignState:
    state = from_scenario(load_bundled("tutorial"), campaign_id=1, name="Ulm", gm_id=GM.member_id, options={})
    return state.evolve(gm_role_id=GM_ROLE, options={**state.options, "_bot": {"join_approval": approval}})


def test_with_approval_off_a_member_joins_at_once_and_no_gm_is_needed() -> None:
    journal = Journal()
    state, joining = lifecycle.join(campaign(approval=False), PIERRE, "Pierre", "fr", journal)
    assert not joining.pending and joining.key == "fr"
    assert state.players == {PIERRE.member_id: "fr"} and state.requests == {}
    assert [str(e.text) for e in journal.events] == ["Pierre joined France."]


def test_with_approval_on_a_join_is_a_request_not_a_player() -> None:
    journal = Journal()
    state, joining = lifecycle.join(campaign(approval=True), PIERRE, "Pierre", "fr", journal)
    assert joining.pending and joining.name == "France"
    assert state.players == {} and state.requests == {PIERRE.member_id: JoinRequest(PIERRE.member_id, "fr", "Pierre")}
    assert [str(e.text) for e in journal.events] == ["Pierre asked to join France; the GM decides."]


def test_a_gm_joins_without_asking_even_with_approval_on() -> None:
    for gm in (GM, CO_GM):
        state, joining = lifecycle.join(campaign(approval=True), gm, "Gina", "fr", Journal())
        assert not joining.pending and state.players == {gm.member_id: "fr"}


def test_a_member_asks_once() -> None:
    state, _ = lifecycle.join(campaign(approval=True), PIERRE, "Pierre", "fr", Journal())
    for side in ("fr", "au"):
        with pytest.raises(InvalidInput, match="You already asked to join France; the GM has not answered yet"):
            lifecycle.join(state, PIERRE, "Pierre", side, Journal())


def test_a_player_cannot_ask_for_a_side() -> None:
    state = campaign(approval=True).evolve(players={PIERRE.member_id: "fr"})
    with pytest.raises(InvalidInput, match="You already play France"):
        lifecycle.join(state, PIERRE, "Pierre", "fr", Journal())
    with pytest.raises(PermissionDenied, match="You already play another side"):
        lifecycle.join(state, PIERRE, "Pierre", "au", Journal())


def test_the_gm_approves_and_the_member_plays_the_side_asked_for() -> None:
    state, _ = lifecycle.join(campaign(approval=True), PIERRE, "Pierre", "fr", Journal())
    journal = Journal()
    state, side = lifecycle.approve_request(state, CO_GM, PIERRE.member_id, journal)
    assert side.key == "fr" and state.players == {PIERRE.member_id: "fr"} and state.requests == {}
    assert [str(e.text) for e in journal.events] == ["Pierre joined France."]  # announced as a join is
    with pytest.raises(NotFound, match="no request to join waiting"):  # answered: gone
        lifecycle.approve_request(state, GM, PIERRE.member_id, Journal())


def test_only_a_gm_answers_a_request() -> None:
    state, _ = lifecycle.join(campaign(approval=True), PIERRE, "Pierre", "fr", Journal())
    for answer in (lifecycle.approve_request, lifecycle.refuse_request):
        with pytest.raises(PermissionDenied, match="Only the GM"):
            answer(state, KARL, PIERRE.member_id, Journal())
        with pytest.raises(PermissionDenied, match="Only the GM"):
            answer(state, PIERRE, PIERRE.member_id, Journal())  # not even one's own


def test_the_gm_refuses_and_the_member_may_ask_again() -> None:
    state, _ = lifecycle.join(campaign(approval=True), PIERRE, "Pierre", "fr", Journal())
    journal = Journal()
    state, side = lifecycle.refuse_request(state, GM, PIERRE.member_id, journal)
    assert side.name == "France" and state.players == {} and state.requests == {}
    assert [(str(e.text), e.kind) for e in journal.events] == [
        ("The GM refused the request of Pierre to join France.", EventKind.GM)]
    state, joining = lifecycle.join(state, PIERRE, "Pierre", "au", Journal())
    assert joining.pending and state.requests[PIERRE.member_id].side == "au"


def test_a_withdrawn_request_cannot_be_approved() -> None:
    state, _ = lifecycle.join(campaign(approval=True), PIERRE, "Pierre", "fr", Journal())
    state, side = lifecycle.withdraw_request(state, PIERRE, Journal())
    assert side.key == "fr" and state.requests == {}
    with pytest.raises(NotFound, match="it was withdrawn or already answered"):
        lifecycle.approve_request(state, GM, PIERRE.member_id, Journal())
    with pytest.raises(NotFound, match="You have no request to join waiting"):
        lifecycle.withdraw_request(state, PIERRE, Journal())


def test_several_members_may_play_one_side_and_one_approved_to_it_is_fine() -> None:
    state = campaign(approval=True).evolve(players={KARL.member_id: "fr"})
    state, _ = lifecycle.join(state, OLGA, "Olga", "fr", Journal())
    state, side = lifecycle.approve_request(state, GM, OLGA.member_id, Journal())
    assert side.key == "fr" and state.players == {KARL.member_id: "fr", OLGA.member_id: "fr"}


def test_a_gm_assignment_answers_a_waiting_request() -> None:
    state, _ = lifecycle.join(campaign(approval=True), PIERRE, "Pierre", "fr", Journal())
    state, _ = lifecycle.assign(state, GM, PIERRE.member_id, "au", Journal(), member_name="Pierre")
    assert state.players == {PIERRE.member_id: "au"} and state.requests == {}
    with pytest.raises(NotFound):
        lifecycle.approve_request(state, GM, PIERRE.member_id, Journal())


def test_an_ended_campaign_takes_no_request() -> None:
    from bot.campaign.state import CampaignStatus

    with pytest.raises(InvalidInput, match="has ended"):
        lifecycle.join(campaign(approval=True).evolve(status=CampaignStatus.ENDED), PIERRE, "Pierre", "fr", Journal())


def test_requests_round_trip_through_an_export_and_older_documents_have_none() -> None:
    state, _ = lifecycle.join(campaign(approval=True), PIERRE, "Pierre", "fr", Journal())
    doc = codec.encode(state)
    assert doc["requests"] == [{"member": PIERRE.member_id, "side": "fr", "name": "Pierre"}]
    assert codec.decode(doc).requests == state.requests and codec.encode(codec.decode(doc)) == doc
    older = {k: v for k, v in doc.items() if k != "requests"}  # version 2 before requests
    assert codec.decode(older).requests == {}
    bad = {**doc, "players": [{"member": PIERRE.member_id, "side": "au"}]}
    with pytest.raises(InvalidInput, match=r"requests\[0\]\.member: .*already plays a side"):
        codec.decode(bad)
