"""When the Benny is turned up the hand is thrown in, instead of the dealer naming a suit."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        hand = table["hand"]
        for i, step in enumerate(hand):
            if step["kind"] == "name" and step["effect"] == "proposal":
                hand[i] = {"id": step["id"], "kind": "throw-in", "when": step.get("when", {}), "next-dealer": "same"}
    change_table(change)
