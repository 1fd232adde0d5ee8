"""A card the table makes a trump in every suit (Spoil Five's ace of hearts) stays in its own
suit unless that suit is trumps."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        top = table["ranking"].get("top-trumps")
        if top:
            kept = [entry for entry in top if "card" not in entry]
            if kept:
                table["ranking"]["top-trumps"] = kept
            else:
                del table["ranking"]["top-trumps"]
    change_table(change)
