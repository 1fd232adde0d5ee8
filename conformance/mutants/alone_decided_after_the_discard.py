"""The maker decides on going alone only after the dealer's discard, whatever the table says."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        hand = table["hand"]
        offers = [s for s in hand if s["kind"] == "offer" and s["effect"] in ("alone", "defend-alone")]
        exchanges = [s for s in hand if s["kind"] == "exchange"]
        if not offers or not exchanges:
            return
        for step in offers:
            hand.remove(step)
        at = hand.index(exchanges[0]) + 1
        hand[at:at] = offers
    change_table(change)
