"""A euchred lone maker concedes 4 points instead of 2 (Leeds and Dwight's rule, not this table's)."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rows = list(rules.scoring_rows)
        euchre = next((i for i, row in enumerate(rows) if row.id == "euchre"), None)
        if euchre is None:
            return
        lone = rows[euchre].__class__(**{**rows[euchre].__dict__, "alone": True, "awards": (("defenders", 4, 0, 0, None),)})
        rules.scoring_rows = tuple(rows[:euchre] + [lone] + rows[euchre:])
    after_compile(change)
