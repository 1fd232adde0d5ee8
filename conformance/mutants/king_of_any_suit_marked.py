"""A declaration of the king of trumps is offered for a king of any suit."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "offer", effect="score"):
            holds = (step.get("eligible") or {}).get("holds")
            if holds:
                holds["of"].pop("trumps", None)
    change_table(change)
