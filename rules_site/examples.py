"""A conformance case told as a worked example: the deal drawn by seat, the decisions before
the play in words, each trick as a small table with one column per seat (the leader and the
winner marked, the case's ``why`` notes numbered on the card they belong to and showing the
cards they speak of), the moves the rules refuse set apart, and the result by side; plus
the data of the step-through viewer (``docs/javascripts/viewer.js``), and on a case's own
page the script with every expectation, one anchored row per step.

What happened (who won a trick, the score) is read from the reference engine's replay of
the script, and every expectation shown is the case's own.
"""

from __future__ import annotations

from html import escape
from typing import Any

from .corpus import HandRecord, Replay, SiteCase, StepRecord
from .links import Links, md_text
from .notation import Notation, amount, in_halves
from .phases import step_of_phase
from .tables import compact
from .step_words import action_words
from .viewer import seat_order, viewer_data, viewer_html  # noqa: F401 (viewer_data: the tests' entry)

PLAY_PHASES = ("play", "master-suit")
REFUSAL_WORDS = {"out_of_turn": "it is not that player's turn", "illegal_action": "the rules do not allow it",
                 "wrong_phase": "it does not belong at this point of the hand", "bad_message": "it is not a valid action"}


def step_anchor(hand: int, step: int) -> str:
    """The anchor of a step's row in a case page's script."""
    return f"h{hand}-s{step}"


def hand_anchor(hand: int) -> str:
    return f"hand-{hand}"


def effects(record: StepRecord, table: dict[str, Any], words: Notation) -> list[str]:
    """What changed after a step, in words: trumps made, lone hands, cards taken."""
    before, after = record.before, record.after
    if after is None:
        return []
    out = []
    if after.get("trump") and after.get("trump") != before.get("trump"):
        maker = after.get("maker")
        made = ("the hand is played at " + words.strain(after["trump"]) if after["trump"] in ("NT", "NL")
                else f"{words.strain(after['trump'])} are trumps")
        if maker is not None:
            made += f", {words.seat(maker)} is {words.maker}"
        if after.get("contract"):
            made += f" with {words.bid_html(after['contract'])}"
        out.append(made)
    if after.get("turned_down") and after.get("turned_down") != before.get("turned_down"):
        out.append(f"everyone passed: the upcard is turned down ({words.strain(after['turned_down'])} may not be named)")
    out_before = set(before.get("sitting_out") or [])
    newly_out = [s for s in after.get("sitting_out") or [] if s not in out_before]
    if newly_out:
        out.append(" and ".join(words.seat(s) for s in newly_out) + (" sits out" if len(newly_out) == 1 else " sit out"))
    hands_before, hands_after = before.get("hands"), after.get("hands")
    if isinstance(hands_before, list) and isinstance(hands_after, list) and len(hands_before) == len(hands_after):
        for seat, (old, new) in enumerate(zip(hands_before, hands_after)):
            gained = [c for c in new if c not in old]
            if gained and record.step["action"].partition(":")[0] not in ("discard", "play"):
                out.append(f"{words.seat(seat)} takes {words.cards(gained)}")
    return out


def why_html(step: dict[str, Any], links: Links, variant: str, words: Notation, trump: str | None) -> str:
    parts = []
    if step.get("why"):
        parts.append(f"<em>{words.prose_html(step['why'], trump=trump)}</em>")
    if step.get("clause"):
        parts.append('<span class="es-rule-ref">rule: ' + links.clause_html(variant, step["clause"]) + "</span>")
    return " · ".join(parts)


# -- one hand ------------------------------------------------------------------------------------

def deal_html(hand: HandRecord, table: dict[str, Any], words: Notation) -> str:
    """The deal, drawn: one row per seat from the dealer's left, then the upcard, widow, kitty."""
    n = words.n
    start = hand.start or {}
    dealer = start.get("dealer")
    dealt = hand.deal.get("hands") or start.get("hands") or []
    html = ['<div class="es-deal">']
    if hand.deal.get("deck"):
        html.append(f"<p>Dealt from this pack, top card first: {words.cards(hand.deal['deck'])}</p>")
    html.append('<div class="es-scroll"><table class="es-hands"><thead><tr><th scope="col">Player</th>'
                '<th scope="col">Cards dealt</th></tr></thead><tbody>')
    for seat in seat_order(n, dealer):
        cards = dealt[seat] if seat < len(dealt) else []
        role = " · dealer" if seat == dealer else " · eldest" if dealer is not None and seat == (dealer + 1) % n else ""
        html.append(f'<tr><th scope="row">{escape(words.seat(seat))}<span class="es-role">{role}</span></th>'
                    f"<td>{words.cards(cards)}</td></tr>")
    html.append("</tbody></table></div>")
    extras = []
    upcard = hand.deal.get("upcard", start.get("upcard"))
    if upcard:
        extras.append(f"<strong>Upcard</strong> {words.card(upcard)}")
    widow = hand.deal.get("widow")
    if widow:
        extras.append(f"<strong>{escape(words.widow.capitalize())}</strong> {words.cards(widow)}")
    kitty = hand.deal.get("kitty")
    if kitty:
        from .words import kitty_used
        extras.append(f"<strong>Kitty</strong>{'' if kitty_used(table) else ' (not used)'} {words.cards(kitty)}")
    if extras:
        html.append("<p>" + " · ".join(extras) + "</p>")
    html.append("</div>")
    return "".join(html)


def split_hand(hand: HandRecord) -> tuple[list[StepRecord], dict[int, dict[str, Any]], list[tuple[int | None, StepRecord]]]:
    """A hand's decisions before the play, its tricks (by index) and its refused moves (with
    the trick they were tried in, or None before the play)."""
    decisions: list[StepRecord] = []
    tricks: dict[int, dict[str, Any]] = {}
    refused: list[tuple[int | None, StepRecord]] = []
    for record in hand.steps:
        phase = record.before.get("phase")
        in_play = phase in PLAY_PHASES
        if record.refused:
            seen = record.before.get("tricks") or []
            index = (len(seen) - 1 if seen and seen[-1].get("winner") is None else len(seen)) if in_play else None
            refused.append((index, record))
            continue
        if not in_play:
            decisions.append(record)
            continue
        after = record.after or {}
        seen = after.get("tricks") or []
        index = max(len(seen) - 1, 0)
        if phase == "master-suit":
            index = max(len(record.before.get("tricks") or []) - 1, 0)
        entry = tricks.setdefault(index, {"trick": None, "records": []})
        if index < len(seen):
            entry["trick"] = seen[index]
        entry["records"].append(record)
    return decisions, tricks, refused


def seat_head(words: Notation, seat: int) -> str:
    """A seat as a column head: its name."""
    return escape(words.seat(seat))


def tricks_html(case: SiteCase, hand: HandRecord, tricks: dict[int, dict[str, Any]], links: Links, words: Notation,
                prefix: str) -> str:
    """The tricks as one table: a row per trick, a column per seat from the eldest hand; the
    leader and the winner marked; each ``why`` numbered on its card and written out below."""
    start = hand.start or {}
    dealer = start.get("dealer")
    order = seat_order(words.n, dealer)
    first = next((r for r in hand.steps if r.before.get("phase") in PLAY_PHASES), None)
    state = first.before if first else {}
    trump = state.get("trump")
    out = set(state.get("sitting_out") or [])
    head = "".join(f'<th scope="col">{seat_head(words, s)}</th>' for s in order)
    html = [f'<div class="es-scroll"><table class="es-tricks"><thead><tr><th scope="col">Trick</th>{head}'
            '<th scope="col">Won</th></tr></thead><tbody>']
    notes: list[str] = []
    for index in sorted(tricks):
        entry = tricks[index]
        trick = entry["trick"] or {"leader": None, "cards": [], "winner": None}
        winner, leader = trick.get("winner"), trick.get("leader")
        by_seat: dict[int, str] = {}
        marks: dict[int, list[str]] = {}
        for record in entry["records"]:
            step = record.step
            seat = step["seat"]
            kind, _, arg = step["action"].partition(":")
            if kind == "name":
                by_seat[seat] = by_seat.get(seat, "") + f'<span class="es-named">for {words.strain(arg)}</span>'
            if step.get("why") or step.get("clause"):
                number = len(notes) + 1
                anchor = f"{prefix}-n{number}"
                marks.setdefault(seat, []).append(f'<sup class="es-mark"><a href="#{anchor}" aria-label="note {number}">{number}</a></sup>')
                mentioned = words.cards_mentioned(step.get("why", ""), trump)
                about = "" if mentioned else f"{escape(words.seat_name(seat))}’s {words.card(arg)}: " if kind == "play" else ""
                notes.append(f'<li id="{anchor}">{about}{why_html(step, links, case.variant, words, trump)}</li>')
        cells = []
        for seat in order:
            card = next((c for s, c in trick.get("cards") or [] if s == seat), None)
            if card is None:
                cells.append('<td class="es-out">' + ("sits out" if seat in out else "") + "</td>")
                continue
            mark = " ".join(m for m, on in (("win", seat == winner), ("led", seat == leader)) if on)
            led = '<span class="es-led" title="led">▸</span>' if seat == leader else ""
            cells.append(f"<td>{led}{words.card(card, mark)}{by_seat.get(seat, '')}{''.join(marks.get(seat, []))}</td>")
        won = escape(words.seat_name(winner)) if winner is not None else "(unfinished)"
        html.append(f'<tr><th scope="row">{index + 1}</th>{"".join(cells)}<td>{won}</td></tr>')
    html.append("</tbody></table></div>")
    if notes:
        html.append(f'<ol class="es-notes">{"".join(notes)}</ol>')
    return "".join(html)


def refusals_html(case: SiteCase, refused: list[tuple[int | None, StepRecord]], links: Links, words: Notation,
                  table: dict[str, Any], trump: str | None) -> str:
    items = []
    for trick, record in refused:
        step = record.step
        kind, _, arg = step["action"].partition(":")
        what = {"play": f"to play {words.card(arg)}", "discard": f"to discard {words.card(arg)}",
                "call": f"to name {words.strain(arg)}", "bid": f"to bid {words.bid_html(arg)}",
                "give": f"to pass {words.card(arg)}", "name": f"to name {words.strain(arg)}"}.get(kind)
        if what is None:
            what = {"pass": "to pass", "order": "to order it up", "take": "to take the card"}.get(kind, f"to {escape(words.token_text(step['action']))}")
        when = f"in trick {trick + 1}" if trick is not None else "before the play"
        reason = REFUSAL_WORDS.get(record.refused or "", escape(str(record.refused)))
        why = why_html(step, links, case.variant, words, trump)
        items.append(f"<li>{escape(words.seat(step['seat']))} tries {what} {when}: refused, {reason}"
                     + (f". {why}" if why else ".") + "</li>")
    # Folded: a reader learning the game follows the hand; the refused moves are for engine authors.
    return ('<details class="es-refusals"><summary class="es-refusals-title">Moves the rules refuse in this hand '
            f'({len(items)}; an engine must reject each and keep its state)</summary><ul>' + "".join(items) + "</ul></details>")


def result_lines(case: SiteCase, hand: HandRecord, number: int, table: dict[str, Any], links: Links, words: Notation) -> list[str]:
    end = hand.end
    if end is None:
        return []
    finished = end.get("phase") in ("deal", "game-over") and end.get("hand_number") == number
    if not finished:
        to_act = end.get("to_act")
        return [f"**The case stops here**, with {escape(words.seat(to_act)) if to_act is not None else 'no one'} to act."]
    lines = []
    tricks = end.get("tricks") or []
    if not tricks and not any(end.get("hand_points") or []):
        lines.append("**Result.** The hand is thrown in: no one scores.")
    else:
        counts = [0] * len(words.units)
        won = end.get("tricks_won")
        if isinstance(won, list) and len(won) == words.n:
            for seat, count in enumerate(won):
                unit = words.unit_of(seat)
                if unit is not None:
                    counts[unit] += count
        else:
            for trick in tricks:
                unit = words.unit_of(trick["winner"]) if trick.get("winner") is not None else None
                if unit is not None:
                    counts[unit] += 1
        taken = ", ".join(f"{words.unit(u)} {c}" for u, c in enumerate(counts))
        row = end.get("scoring_row")
        row_text = ""
        if row:
            title = next((c["title"] for c in table.get("clauses", []) if c["id"] == row), None)
            row_text = " " + links.clause(case.variant, row, md_text(title or row)) + ":"
        points = end.get("hand_points") or []
        half = in_halves(table)
        awarded = ", ".join(f"{amount(p, half)} to {words.unit(u)}" for u, p in enumerate(points) if p) or "no points"
        lines.append(f"**Result.** Tricks taken: {taken}.{row_text} {awarded}.")
    scores = end.get("scores") or []
    tail = "**Score:** " + ", ".join(f"{words.unit(u)} {amount(s, in_halves(table))}" for u, s in enumerate(scores)) + "."
    if end.get("game_over"):
        winner = end.get("winner")
        tail += f" **The game is over**: {words.unit(winner) if winner is not None else 'a tie'}" + (" wins." if winner is not None else ".")
    elif end.get("next_dealer") is not None:
        tail += f" {words.seat(end['next_dealer'])} deals next."
    counters = end.get("counters")
    if isinstance(counters, dict) and counters:
        tail += " " + "; ".join(f"{md_text(str(k))}: {', '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in counters.items()) + "."
    lines += ["", tail]
    return lines


def render_hand(case: SiteCase, hand: HandRecord, number: int, table: dict[str, Any], links: Links, prefix: str) -> list[str]:
    words = Notation(table)
    if hand.refused is not None:         # the script's deal_reject, which the reference engine followed
        reason = REFUSAL_WORDS.get(hand.refused, escape(hand.refused))
        return [f"**The deal is refused**: {reason}. An engine must reject it "
                f"(<code>{escape(hand.refused)}</code>) and keep its state.", "", deal_html(hand, table, words)]
    dealer = (hand.start or {}).get("dealer")
    lines = [f"**The deal.** {escape(words.seat(dealer)) if dealer is not None else 'The dealer'} deals.", "",
             deal_html(hand, table, words)]
    decisions, tricks, refused = split_hand(hand)
    first_play = next((r for r in hand.steps if r.before.get("phase") in PLAY_PHASES), None)
    trump = (first_play.before if first_play else (hand.end or {})).get("trump")
    if decisions:
        bidding = any((step_of_phase(table, r.before.get("phase")) or {}).get("kind") in ("make-trumps", "auction", "name")
                      for r in decisions)
        lines += ["", "**Making trumps.**" if bidding else "**Before the play.**", ""]
        items = []
        for record in decisions:
            step = record.step
            text = f"{escape(words.seat(step['seat']))} {action_words(record, table, words)}"
            happened = effects(record, table, words)
            if happened:
                text += ": " + "; ".join(happened)
            why = why_html(step, links, case.variant, words, record.after.get("trump") if record.after else trump)
            items.append(f"<li>{text}" + (f'<br><span class="es-why">{why}</span>' if why else "") + "</li>")
        lines.append('<ol class="es-decisions">' + "".join(items) + "</ol>")
    if tricks:
        state = first_play.before if first_play else {}
        facts = []
        if state.get("trump"):
            facts.append(("at " if state["trump"] in ("NT", "NL") else "trumps ") + words.strain(state["trump"]))
        if state.get("maker") is not None:
            facts.append(f"{words.maker} {escape(words.seat(state['maker']))}" + (" alone" if state.get("alone") else ""))
        if state.get("defender_alone") is not None:
            facts.append(f"{escape(words.seat(state['defender_alone']))} defends alone")
        lines += ["", "**The play**" + (" (" + "; ".join(facts) + ")." if facts else "."), "",
                  tricks_html(case, hand, tricks, links, words, prefix)]
    if refused:
        lines += ["", refusals_html(case, refused, links, words, table, trump)]
    lines += [""] + result_lines(case, hand, number, table, links, words)
    return lines


def setup_lines(case: SiteCase, rep: Replay, table: dict[str, Any], links: Links) -> list[str]:
    words = Notation(table)
    lines = []
    first = case.setup.get("first_dealer")
    dealer = (rep.new_game or {}).get("dealer")
    if first:
        rule = links.clause(case.variant, "first-dealer", "The first dealer")
        lines.append(f"**{rule}**: cards turned from {escape(words.seat(first.get('start', 0)))}: "
                     f"{words.cards(first['cards'])}, so {escape(words.seat(dealer))} deals first.")
    if case.setup.get("scores"):
        lines.append("The game starts at " + ", ".join(f"{words.unit(u)} {amount(s, in_halves(table))}"
                                                       for u, s in enumerate(case.setup["scores"])) + ".")
    return [" ".join(lines)] if lines else []


def render_example(case: SiteCase, rep: Replay, links: Links, *, hand_heading: str | None = "####",
                   prefix: str = "ex", viewer: bool = True) -> str:
    """The narrative of a case: setup, then each hand's deal, decisions, tricks and result,
    and (``viewer``) the step-through viewer of its first hand."""
    table = rep.table
    if not table:
        return f'!!! warning "This case cannot be drawn"\n\n    {md_text(rep.problem or "its rule table does not resolve")}.\n'
    lines = setup_lines(case, rep, table, links)
    if rep.problem:
        lines += ["", '!!! warning "The reference engine does not follow this script"', "",
                  f"    {md_text(rep.problem)}. What follows is drawn up to that point."]
    for number, hand in enumerate(rep.hands, 1):
        if len(case.hands) > 1 and hand_heading:
            lines += ["", f"{hand_heading} {md_text(case.title)}: hand {number} {{#{prefix}-{hand_anchor(number)}}}"]
        lines += [""] + render_hand(case, hand, number, table, links, f"{prefix}-h{number}")
        if viewer and hand.steps:
            lines += ["", viewer_html(case, hand, table, f"{prefix}-h{number}", number)]
    return "\n".join(lines) + "\n"


# -- the script, with every expectation (case pages) ---------------------------------------------

def _expect_html(expect: dict[str, Any]) -> str:
    return ", ".join(f"<code>{escape(str(k))}</code> = <code>{escape(compact(v))}</code>" for k, v in expect.items())


def render_script(case: SiteCase, links: Links, brief: bool = False) -> str:
    """Everything the case checks, step by step, one anchored row per step (``#h1-s3``): the
    exact legal set, state fields, refusals. Tokens as the protocol writes them."""
    out = []
    for number, hand in enumerate(case.hands, 1):
        out.append(f'<h3 id="{hand_anchor(number)}">Hand {number}</h3>')
        if hand.get("after_deal"):
            out.append(f"<p>After the deal: {_expect_html(hand['after_deal'])}.</p>")
        rows = []
        for index, step in enumerate(hand.get("steps") or [], 1):
            must = []
            if "legal" in step:
                must.append("offer exactly " + (", ".join(f"<code>{escape(a)}</code>" for a in step["legal"]) or "nothing"))
            if step.get("reject"):
                must.append(f"refuse it with <code>{escape(step['reject'])}</code>, state unchanged")
            if step.get("expect"):
                must.append("then report " + _expect_html(step["expect"]))
            why = []
            if step.get("why"):
                why.append(f"<em>{escape(step['why'])}</em>")
            if step.get("clause"):
                why.append("rule " + links.clause_html(case.variant, step["clause"]))
            anchor = step_anchor(number, index)
            rest = "" if brief else f'<td>{"; ".join(must)}</td><td>{" · ".join(why)}</td>'
            rows.append(f'<tr id="{anchor}"><td><a href="#{anchor}">{index}</a></td><td>{step["seat"]}</td>'
                        f'<td><code>{escape(step["action"])}</code></td>{rest}</tr>')
        head = "" if brief else '<th scope="col">The engine must</th><th scope="col">Why</th>'
        out.append('<div class="es-scroll"><table class="es-script"><thead><tr><th scope="col">Step</th><th scope="col">Seat</th>'
                   f'<th scope="col">Action</th>{head}</tr></thead><tbody>' + "".join(rows) + "</tbody></table></div>")
        if hand.get("expect"):
            out.append(f'<p id="{hand_anchor(number)}-end">At the end of hand {number}: {_expect_html(hand["expect"])}.</p>')
        perfts = hand.get("perft") or []
        if perfts:
            items = "".join(f"<li>depth {p['depth']}: {p['nodes']} sequences"
                            + (" (" + ", ".join(f"<code>{escape(k)}</code> {v}" for k, v in (p.get("divide") or {}).items()) + ")"
                               if p.get("divide") else "") + "</li>" for p in perfts)
            out.append(f'<p id="{hand_anchor(number)}-perft">Perft counts from this position (sequences of legal actions; '
                       f'see the protocol\'s <code>perft</code>):</p><ul>{items}</ul>')
    if case.expect:
        out.append(f'<p id="end">At the end of the case: {_expect_html(case.expect)}.</p>')
    return "\n".join(out) + "\n"
