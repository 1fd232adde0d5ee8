"""protocol_adapter.OneVariantAdapter, the protocol side every adapter of an engine written
elsewhere shares, on a stand-in engine part: the refusals and their order are those of
spec/protocol.md (errors table; "For act, the checks are made in this order"; `state` and
`legal`), whatever the engine."""

import pytest

from adapter_test_support import ADAPTERS  # noqa: F401  (puts tools/adapters on sys.path)

from jsonl_server import Refused
from protocol_adapter import MakeHeldForAlone, OneVariantAdapter, check_deal_awaited, check_turn

RULES = {"type": "rules", "variant": "euchre", "options": {}, "table": {"options": {}, "game": {"target": 10}}}


class StandIn(OneVariantAdapter):
    """An engine part that deals once, then lets seat 1 pass or order; no rule of its own."""

    NAME, LANGUAGE, URL = "stand-in", "Python", "https://example.invalid/stand-in"
    VARIANT, DECLARED, WHO = "euchre", {"game-target": [10]}, "stand-in"
    NO_FIRST_DEALER = "the stand-in cannot cut for the deal"

    def __init__(self) -> None:
        self.started = False
        self.dealt = False
        self.acted: list[tuple[int, str]] = []

    def new_game(self, message, dealer, scores):
        self.started, self.dealt = True, False
        return self.observation()

    def in_game(self) -> bool:
        return self.started

    def deal(self, message) -> None:
        check_deal_awaited(False, not self.dealt)
        self.dealt = True

    def act(self, seat: int, action: str) -> None:
        check_turn(seat, 1 if self.dealt else None, False)
        if action not in ("pass", "order"):
            raise Refused("illegal_action", f"not {action!r}")
        self.acted.append((seat, action))

    def observation(self):
        return {"phase": "bid-round-1" if self.dealt else "deal", "to_act": 1 if self.dealt else None,
                "legal": ["pass", "order"] if self.dealt else []}


def category(adapter: OneVariantAdapter, message: dict) -> str:
    with pytest.raises(Refused) as refused:
        adapter.handle(message)
    return refused.value.category


def started() -> StandIn:
    adapter = StandIn()
    adapter.handle(RULES)
    adapter.handle({"type": "new_game", "dealer": 0})
    return adapter


def test_hello_declares_the_one_variant_with_its_options():
    hello = StandIn().handle({"type": "hello", "protocol": 1})
    assert hello["protocol"] == 1 and hello["variants"] == {"euchre": {"options": {"game-target": [10]}}}
    assert hello["engine"]["name"] == "stand-in" and hello["commands"] == []
    # it cannot choose a first dealer from cards, and says so once, in hello, with why
    assert hello["declines"] == {"first-dealer": "the stand-in cannot cut for the deal"}


def test_out_of_place_requests_are_wrong_phase_and_unknown_types_bad_message():
    adapter = StandIn()
    assert category(adapter, {"type": "new_game", "dealer": 0}) == "wrong_phase"          # before rules
    adapter.handle(RULES)
    for kind in ("deal", "act", "state", "legal"):                                         # before new_game
        assert category(adapter, {"type": kind, "seat": 1, "action": "pass"}) == "wrong_phase", kind
    assert category(adapter, {"type": "shuffle"}) == "bad_message"


def test_rules_outside_the_declaration_are_unsupported_and_no_game_follows():
    adapter = StandIn()
    assert category(adapter, dict(RULES, variant="five-hundred-four")) == "unsupported"
    assert category(adapter, dict(RULES, options={"game-target": 11})) == "unsupported"
    assert category(adapter, {"type": "new_game", "dealer": 0}) == "wrong_phase"


def test_new_game_needs_exactly_one_of_dealer_and_first_dealer():
    adapter = StandIn()
    adapter.handle(RULES)
    assert category(adapter, {"type": "new_game"}) == "bad_message"
    assert category(adapter, {"type": "new_game", "dealer": 0, "first_dealer": {}}) == "bad_message"
    assert category(adapter, {"type": "new_game", "dealer": 4}) == "bad_message"
    assert category(adapter, {"type": "new_game", "first_dealer": {"method": "first-black-jack"}}) == "unsupported"
    assert adapter.handle({"type": "new_game", "dealer": 3})["state"]["phase"] == "deal"


def test_act_checks_come_in_the_protocols_order():
    adapter = started()
    assert category(adapter, {"type": "act", "seat": "2", "action": 7}) == "bad_message"   # types first
    assert category(adapter, {"type": "act", "seat": 2, "action": "pass"}) == "wrong_phase"  # no one to act yet
    adapter.handle({"type": "deal", "hands": []})
    assert category(adapter, {"type": "act", "seat": 2, "action": "call:H"}) == "out_of_turn"  # before illegal
    assert category(adapter, {"type": "act", "seat": 9, "action": "pass"}) == "out_of_turn"    # a seat not in the game
    assert category(adapter, {"type": "act", "seat": 1, "action": "call:H"}) == "illegal_action"
    assert adapter.acted == []
    assert adapter.handle({"type": "act", "seat": 1, "action": "order"})["state"]["to_act"] == 1
    assert adapter.acted == [(1, "order")]


def test_legal_replies_with_who_is_to_act_and_the_legal_actions_only():
    adapter = started()
    assert adapter.handle({"type": "legal"}) == {"to_act": None, "legal": []}
    adapter.handle({"type": "deal", "hands": []})
    assert adapter.handle({"type": "legal"}) == {"to_act": 1, "legal": ["pass", "order"]}
    assert adapter.handle({"type": "state"})["state"]["phase"] == "bid-round-1"


def test_a_deal_while_a_hand_is_in_progress_or_after_the_game_is_wrong_phase():
    adapter = started()
    adapter.handle({"type": "deal", "hands": []})
    assert category(adapter, {"type": "deal", "hands": []}) == "wrong_phase"
    with pytest.raises(Refused, match="the game is over"):
        check_deal_awaited(True, True)
    with pytest.raises(Refused, match="no one is to act: the game is over"):
        check_turn(0, None, True)


class HeldStandIn(MakeHeldForAlone, StandIn):
    """A stand-in engine that takes an order with its goingAlone flag in one call: the adapter
    holds the order and asks the maker whether he goes alone."""

    WHO = "held-stand-in"

    def __init__(self) -> None:
        super().__init__()
        self.pending = None
        self.made: list[tuple[int, str, bool]] = []

    def game_over(self) -> bool:
        return False

    def to_act(self) -> int | None:
        return self.pending[0] if self.pending else (1 if self.dealt and not self.made else None)

    def act_on_engine(self, seat: int, action: str) -> None:
        if action != "order":
            raise Refused("illegal_action", f"not {action!r}")
        self.hold(seat, action)

    def make(self, seat: int, bid: str, alone: bool) -> None:
        self.made.append((seat, bid, alone))


def test_an_order_is_held_until_the_maker_says_alone_or_not_and_anything_else_is_refused():
    adapter = HeldStandIn()
    adapter.handle(RULES)
    adapter.handle({"type": "new_game", "dealer": 0})
    adapter.handle({"type": "deal", "hands": []})
    adapter.handle({"type": "act", "seat": 1, "action": "order"})
    assert adapter.made == [] and adapter.held_make("9S") == (1, "S")          # nothing sent to the engine yet
    assert category(adapter, {"type": "act", "seat": 2, "action": "alone"}) == "out_of_turn"
    with pytest.raises(Refused, match="held-stand-in asks only whether to go alone") as refused:
        adapter.handle({"type": "act", "seat": 1, "action": "discard:9S"})
    assert refused.value.category == "illegal_action" and adapter.pending == (1, "order")
    adapter.handle({"type": "act", "seat": 1, "action": "alone"})
    assert adapter.made == [(1, "order", True)] and adapter.pending is None
