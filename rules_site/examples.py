"""A conformance case told as a worked example: the hands drawn as cards, the bidding and
every trick step by step with the case's ``why`` lines, and the result; on a case's own
page, also the script with everything an engine must report.

What happened (who won a trick, the score) is read from the reference engine's replay of
the script, and every expectation shown is the case's own.
"""

from __future__ import annotations

from html import escape
from typing import Any

from .notation import card_html, cards_html, colours_of, suit_html
from .corpus import HandRecord, Replay, SiteCase, StepRecord
from .links import Links, code, md_cell, md_text
from .tables import compact

PLAY_PHASES = ("play", "master-suit")


# -- seats and sides ------------------------------------------------------------------------

def units(table: dict[str, Any]) -> list[list[int]]:
    """The scoring units of a table: its partnerships, or each player alone."""
    players = table["players"]
    if players.get("sides") == "partnerships" and players.get("partnerships"):
        return [list(p) for p in players["partnerships"]]
    return [[s] for s in range(players["count"])]


def unit_label(table: dict[str, Any], unit: int) -> str:
    seats = units(table)[unit]
    if len(seats) == 1:
        return f"Seat {seats[0]}"
    return "Seats " + " & ".join(str(s) for s in seats)


def unit_of(table: dict[str, Any], seat: int) -> int | None:
    for index, seats in enumerate(units(table)):
        if seat in seats:
            return index
    return None


def seat_order(n: int, dealer: int) -> list[int]:
    """Seats from the dealer's left round to the dealer."""
    return [(dealer + 1 + i) % n for i in range(n)]


def seat_role(seat: int, dealer: int | None, n: int) -> str:
    if dealer is None:
        return f"Seat {seat}"
    if seat == dealer:
        return f"Seat {seat} (dealer)"
    if seat == (dealer + 1) % n:
        return f"Seat {seat} (eldest)"
    return f"Seat {seat}"


# -- actions in words ------------------------------------------------------------------------

PASS_WORDS = {
    "alone": "does not go alone",
    "defend-alone": "does not defend alone",
    "partners-best": "passes no card",
    "take-best": "refuses the partner's card",
    "take-offer": "declines the offered cards",
}


def _card(text: str, colours: dict[str, str]) -> str:
    return card_html(text, colours) if text else ""


def action_words(record: StepRecord, table: dict[str, Any], colours: dict[str, str]) -> str:
    """What a step does, in words with cards and suits drawn (Markdown with inline HTML)."""
    action = record.step["action"]
    phase = record.before.get("phase")
    kind, _, arg = action.partition(":")
    if kind == "pass":
        return PASS_WORDS.get(phase, "passes")
    if kind == "order":
        return "**accepts** the upcard's suit" if record.step["seat"] == record.before.get("dealer") else "**orders it up**"
    if kind == "call":
        return f"**names** {suit_html(arg, colours, name=True)}" + (" trumps" if arg != "NT" else "")
    if kind == "bid":
        return f"**bids** {code(arg)}" + _bid_words(table, arg, colours)
    if kind == "alone":
        return "**goes alone**"
    if kind == "defend-alone":
        return "**defends alone**"
    if kind == "name":
        what = {"benny-suit": " for the turned-up Benny", "master-suit": " as the master card's suit"}.get(phase, "")
        return f"**names** {suit_html(arg, colours, name=True)}{what}"
    if kind == "give":
        return f"**passes** {_card(arg, colours)} face down to the loner"
    if kind == "take":
        return "**takes** the offered cards"
    if kind == "discard":
        return f"**discards** {_card(arg, colours)}"
    if kind == "play":
        return f"**plays** {_card(arg, colours)}"
    return f"{code(action)}"


def _bid_words(table: dict[str, Any], bid_id: str, colours: dict[str, str]) -> str:
    bids = ((table.get("bidding") or {}).get("auction") or {}).get("bids") or []
    for bid in bids:
        if bid.get("id") == bid_id:
            parts = []
            if "tricks" in bid:
                parts.append(f"{bid['tricks']} tricks")
            if "at-most" in bid:
                parts.append(f"at most {bid['at-most']} tricks")
            parts.append(suit_html(bid["strain"], colours, name=True) if bid.get("strain") else "")
            return " (" + " ".join(p for p in parts if p) + ")"
    return ""


def effects(record: StepRecord, table: dict[str, Any], colours: dict[str, str]) -> list[str]:
    """What changed in the state after a step, in words: trumps made, lone hands, cards taken."""
    before, after = record.before, record.after
    if after is None:
        return []
    out = []
    if after.get("trump") and after.get("trump") != before.get("trump"):
        maker = after.get("maker")
        contract = f", contract {code(after['contract'])}" if after.get("contract") else ""
        made = ("the hand is played at no-trumps" if after["trump"] == "NT"
                else f"{suit_html(after['trump'], colours, name=True)} are trumps")
        out.append(made + (f", Seat {maker} is the maker" if maker is not None else "") + contract)
    if after.get("phase") == "bid-round-2" and before.get("phase") != "bid-round-2":
        down = after.get("turned_down")
        out.append("everyone passed: the upcard is turned down" + (f" ({suit_html(down, colours)} is the turned-down suit)" if down else ""))
    out_before = set(before.get("sitting_out") or [])
    newly_out = [s for s in after.get("sitting_out") or [] if s not in out_before]
    if newly_out:
        out.append(" and ".join(f"Seat {s}" for s in newly_out) + (" sits out" if len(newly_out) == 1 else " sit out"))
    hands_before, hands_after = before.get("hands"), after.get("hands")
    if isinstance(hands_before, list) and isinstance(hands_after, list) and len(hands_before) == len(hands_after):
        for seat, (old, new) in enumerate(zip(hands_before, hands_after)):
            gained = [c for c in new if c not in old]
            if gained:
                out.append(f"Seat {seat} takes {cards_html(gained, colours)}")
    return out


def _why(step: dict[str, Any], links: Links, variant: str) -> str:
    parts = []
    if step.get("why"):
        parts.append(f"*{md_text(step['why'])}*")
    if step.get("clause"):
        parts.append("rule " + links.clause(variant, step["clause"]))
    return " · ".join(parts)


def _refused(record: StepRecord) -> str:
    return f'<span class="es-refused">refused: {record.refused}</span>'


# -- one hand -------------------------------------------------------------------------------

def _deal_table(case: SiteCase, hand: HandRecord, table: dict[str, Any], colours: dict[str, str]) -> list[str]:
    """The deal, drawn: one row per seat from the dealer's left, then the upcard, widow and kitty.

    Written as raw HTML (mkdocs passes it through untouched), which keeps the build fast for
    a corpus of hundreds of cases."""
    n = table["players"]["count"]
    start = hand.start or {}
    dealer = start.get("dealer")
    dealt = hand.deal.get("hands") or start.get("hands") or []
    html = ['<div class="es-deal">']
    if hand.deal.get("deck"):
        html.append(f"<p>Dealt from this pack, top card first: {cards_html(hand.deal['deck'], colours)}</p>")
    html.append("<table><thead><tr><th>Seat</th><th>Cards dealt</th></tr></thead><tbody>")
    order = seat_order(n, dealer) if dealer is not None else list(range(n))
    for seat in order:
        cards = dealt[seat] if seat < len(dealt) else []
        html.append(f"<tr><td>{escape(seat_role(seat, dealer, n))}</td><td>{cards_html(cards, colours)}</td></tr>")
    html.append("</tbody></table>")
    extras = []
    upcard = hand.deal.get("upcard", start.get("upcard"))
    if upcard:
        extras.append(f"<strong>Upcard</strong> {card_html(upcard, colours)}")
    widow = hand.deal.get("widow")
    if widow:
        name = (table.get("deal") or {}).get("widow-name", "widow")
        extras.append(f"<strong>{escape(name.capitalize())}</strong> {cards_html(widow, colours)}")
    kitty = hand.deal.get("kitty")
    if kitty:
        extras.append(f"<strong>Kitty</strong> (not used) {cards_html(kitty, colours)}")
    if extras:
        html.append("<p>" + " · ".join(extras) + "</p>")
    html.append("</div>")
    return ["".join(html)]


def _tricks(hand: HandRecord) -> tuple[list[StepRecord], dict[int, dict[str, Any]]]:
    """The hand's decisions (steps before the play) and its tricks, by index."""
    decisions: list[StepRecord] = []
    tricks: dict[int, dict[str, Any]] = {}
    for record in hand.steps:
        if record.before.get("phase") not in PLAY_PHASES:
            decisions.append(record)
            continue
        if record.after is not None:
            seen = record.after.get("tricks") or []
            index = max(len(seen) - 1, 0)
            if record.before.get("phase") == "master-suit":
                before = record.before.get("tricks") or []
                index = max(len(before) - 1, 0)
        else:
            seen = record.before.get("tricks") or []
            index = len(seen) - 1 if seen and seen[-1].get("winner") is None else len(seen)
        entry = tricks.setdefault(index, {"trick": None, "records": []})
        if record.after is not None and index < len(record.after.get("tricks") or []):
            entry["trick"] = record.after["tricks"][index]
        entry["records"].append(record)
    return decisions, tricks


def _why_html(step: dict[str, Any], links: Links, variant: str) -> str:
    parts = []
    if step.get("why"):
        parts.append(f"<em>{escape(step['why'])}</em>")
    if step.get("clause"):
        parts.append("rule " + links.clause_html(variant, step["clause"]))
    return " · ".join(parts)


def _trick_rows(case: SiteCase, tricks: dict[int, dict[str, Any]], links: Links, colours: dict[str, str],
                table: dict[str, Any]) -> list[str]:
    """The tricks as an HTML table: who led, the cards in order (the winning card marked), the
    winner, and the case's ``why`` lines and refused attempts."""
    html = ['<div class="es-tricks"><table><thead><tr><th>Trick</th><th>Led by</th><th>Cards, in the order played</th>'
            "<th>Won by</th><th>Why</th></tr></thead><tbody>"]
    for index in sorted(tricks):
        entry = tricks[index]
        trick = entry["trick"] or {"leader": None, "cards": [], "winner": None}
        winner = trick.get("winner")
        played = []
        for seat, card in trick.get("cards") or []:
            mark = "win" if seat == winner else ""
            played.append(f'<span class="es-play"><span class="es-seat">{seat}</span>{card_html(card, colours, mark=mark)}</span>')
        notes = []
        for record in entry["records"]:
            step = record.step
            why = _why_html(step, links, case.variant)
            kind, _, arg = step["action"].partition(":")
            if record.refused:
                what = card_html(arg, colours) if kind == "play" else f"<code>{escape(step['action'])}</code>"
                notes.append(f"✗ Seat {step['seat']} {what} {_refused(record)}" + (f": {why}" if why else ""))
            elif kind == "name":
                suit = suit_html(arg, colours, name=True)
                notes.append(f"Seat {step['seat']} names {suit}" + (f": {why}" if why else ""))
            elif why:
                notes.append(f"{card_html(arg, colours)} {why}" if kind == "play" else why)
        leader = trick.get("leader")
        won = f"<strong>Seat {winner}</strong>" if winner is not None else "(unfinished)"
        html.append(f"<tr><td>{index + 1}</td><td>{'' if leader is None else f'Seat {leader}'}</td>"
                    f"<td>{' '.join(played)}</td><td>{won}</td><td>{'<br>'.join(notes)}</td></tr>")
    html.append("</tbody></table></div>")
    return ["".join(html)]


def _result(case: SiteCase, hand: HandRecord, number: int, table: dict[str, Any], links: Links) -> list[str]:
    end = hand.end
    if end is None:
        return []
    finished = end.get("phase") in ("deal", "game-over") and end.get("hand_number") == number
    if not finished:
        return [f"**The case stops here**, in phase `{end.get('phase')}` with Seat {end.get('to_act')} to act."]
    lines = []
    tricks = end.get("tricks") or []
    if not tricks and not any(end.get("hand_points") or []):
        lines.append("**Result.** The hand is thrown in: no one scores.")
    else:
        won = end.get("tricks_won")
        counts = [0] * len(units(table))
        if isinstance(won, list) and len(won) == table["players"]["count"]:
            for seat, count in enumerate(won):
                unit = unit_of(table, seat)
                if unit is not None:
                    counts[unit] += count
        else:
            for trick in tricks:
                unit = unit_of(table, trick.get("winner")) if trick.get("winner") is not None else None
                if unit is not None:
                    counts[unit] += 1
        taken = ", ".join(f"{unit_label(table, u)}: {c}" for u, c in enumerate(counts))
        row = end.get("scoring_row")
        row_text = ""
        if row:
            title = next((c["title"] for c in table.get("clauses", []) if c["id"] == row), row)
            row_text = " " + links.clause(case.variant, row, md_text(title)) + ":"
        points = end.get("hand_points") or []
        awarded = ", ".join(f"{p} to {unit_label(table, u)}" for u, p in enumerate(points) if p) or "no points"
        lines.append(f"**Result.** Tricks taken: {taken}.{row_text} {awarded}.")
    scores = end.get("scores") or []
    score = ", ".join(f"{unit_label(table, u)}: {s}" for u, s in enumerate(scores))
    tail = f"**Score** {score}."
    if end.get("game_over"):
        winner = end.get("winner")
        tail += f" **The game is over**: {unit_label(table, winner) if winner is not None else 'no one'} won."
    elif end.get("next_dealer") is not None:
        tail += f" Seat {end['next_dealer']} deals next."
    lines += ["", tail]
    return lines


def render_hand(case: SiteCase, hand: HandRecord, number: int, table: dict[str, Any], links: Links) -> list[str]:
    colours = colours_of(table)
    lines = [f"**The deal.** Seat {(hand.start or {}).get('dealer', '?')} deals.", ""]
    lines += _deal_table(case, hand, table, colours)
    decisions, tricks = _tricks(hand)
    if decisions:
        lines += ["", "**The bidding.**" if any(r.before.get("phase") in ("bid-round-1", "bid-round-2", "auction")
                                                for r in decisions) else "**Before the play.**", ""]
        for i, record in enumerate(decisions, 1):
            step = record.step
            why = _why(step, links, case.variant)
            if record.refused:
                text = f"Seat {step['seat']} tries {code(step['action'])}: {_refused(record)}"
            else:
                text = f"Seat {step['seat']} {action_words(record, table, colours)}"
                happened = effects(record, table, colours)
                if happened:
                    text += " → " + "; ".join(happened)
            lines.append(f"{i}. {text}" + (f"  \n   {why}" if why else ""))
    if tricks:
        first = next(r for r in hand.steps if r.before.get("phase") in PLAY_PHASES)
        state = first.before
        facts = []
        if state.get("trump"):
            facts.append(f"trumps {suit_html(state['trump'], colours, name=True)}")
        if state.get("maker") is not None:
            facts.append(f"maker Seat {state['maker']}" + (" (alone)" if state.get("alone") else ""))
        if state.get("defender_alone") is not None:
            facts.append(f"Seat {state['defender_alone']} defends alone")
        if state.get("sitting_out"):
            facts.append("sitting out: " + ", ".join(f"Seat {s}" for s in state["sitting_out"]))
        lines += ["", "**The play**" + (" (" + "; ".join(facts) + ")." if facts else "."), ""]
        lines += _trick_rows(case, tricks, links, colours, table)
    lines += [""] + _result(case, hand, number, table, links)
    for perft in case.hands[number - 1].get("perft") or []:
        if perft is (case.hands[number - 1].get("perft") or [None])[0]:
            lines += ["", "**Perft counts** from this position (sequences of legal actions; see the protocol's `perft`):", "",
                      "| Depth | Sequences | Under each first action |", "|---|---|---|"]
        divide = ", ".join(f"{code(k)} {v}" for k, v in (perft.get("divide") or {}).items())
        lines.append(f"| {perft['depth']} | {perft['nodes']} | {md_cell(divide)} |")
    return lines


def _setup_lines(case: SiteCase, rep: Replay, table: dict[str, Any], links: Links) -> list[str]:
    colours = colours_of(table)
    lines = []
    first = case.setup.get("first_dealer")
    dealer = (rep.new_game or {}).get("dealer")
    if first:
        method = (table.get("game") or {}).get("first-dealer", "")
        start = first.get("start", 0)
        rule = links.clause(case.variant, "first-dealer", "the first dealer") if method else "the first dealer"
        lines.append(f"**Choosing {rule}** ({code(method)}), cards turned from Seat {start}: "
                     f"{cards_html(first['cards'], colours)} → **Seat {dealer}** deals first.")
    if case.setup.get("scores"):
        lines.append("The game starts at " + ", ".join(f"{unit_label(table, u)}: {s}" for u, s in enumerate(case.setup["scores"])) + ".")
    return [" ".join(lines)] if lines else []


def render_example(case: SiteCase, rep: Replay, links: Links, *, hand_heading: str | None = "####") -> str:
    """The narrative of a case: setup, then each hand's deal, bidding, tricks and result."""
    table = rep.table
    if not table:
        return f'!!! warning "This case cannot be drawn"\n\n    {md_text(rep.problem or "its rule table does not resolve")}.\n'
    lines = _setup_lines(case, rep, table, links)
    if rep.problem:
        lines += ["", '!!! warning "The reference engine does not follow this script"', "",
                  f"    {md_text(rep.problem)}. What follows is drawn up to that point."]
    for number, hand in enumerate(rep.hands, 1):
        if len(case.hands) > 1 and hand_heading:
            lines += ["", f"{hand_heading} Hand {number}"]
        lines += [""] + render_hand(case, hand, number, table, links)
    return "\n".join(lines) + "\n"


# -- the script, with every expectation (case pages) ----------------------------------------

def _expect_text(expect: dict[str, Any]) -> str:
    return ", ".join(f"`{k}` = {code(compact(v))}" for k, v in expect.items())


def render_script(case: SiteCase, links: Links) -> str:
    """Everything the case checks, step by step: the exact legal set, state fields, refusals."""
    lines = []
    for number, hand in enumerate(case.hands, 1):
        lines += ["", f"**Hand {number}**", ""]
        if hand.get("after_deal"):
            lines += [f"After the deal: {_expect_text(hand['after_deal'])}.", ""]
        lines += ["| # | Seat | Action | The engine must | Why |", "|---|---|---|---|---|"]
        for index, step in enumerate(hand.get("steps") or [], 1):
            must = []
            if "legal" in step:
                must.append("offer exactly " + (", ".join(f"{code(a)}" for a in step["legal"]) or "nothing"))
            if step.get("reject"):
                must.append(f"refuse it with `{step['reject']}`, state unchanged")
            if step.get("expect"):
                must.append("then report " + _expect_text(step["expect"]))
            lines.append(f"| {index} | {step['seat']} | {code(step['action'])} | {md_cell('; '.join(must))} | "
                         f"{md_cell(_why(step, links, case.variant))} |")
        if hand.get("expect"):
            lines += ["", f"At the end of hand {number}: {_expect_text(hand['expect'])}."]
        for perft in hand.get("perft") or []:
            lines += ["", f"Perft depth {perft['depth']}: {perft['nodes']} sequences."]
    if case.expect:
        lines += ["", f"At the end of the case: {_expect_text(case.expect)}."]
    return "\n".join(lines) + "\n"
