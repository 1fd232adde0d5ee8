"""A club upcard is bid on as any other: the step that makes clubs trumps with everyone in
(dirty clubs) is skipped."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        table["hand"] = [step for step in table["hand"]
                         if not (step["kind"] == "set-trumps" and step.get("when", {}).get("upcard"))]
    change_table(change)
