"""The lead against a lone hand is the ordinary one: the table's lone-lead rule is ignored."""

from conformance.mutants import change_table, steps


def apply() -> None:
    def change(table):
        for step in steps(table, "play"):
            step["lead"] = [rule for rule in step["lead"] if "alone" not in rule.get("when", {})] or step["lead"]
    change_table(change)
