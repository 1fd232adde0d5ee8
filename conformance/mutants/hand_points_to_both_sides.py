"""A euchre is scored for the defenders and, wrongly, 1 point for the makers too."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rows = []
        for row in rules.scoring_rows:
            if row.id == "euchre":
                row = row.__class__(**{**row.__dict__, "awards": row.awards + (("makers", 1, 0, 0, None),)})
            rows.append(row)
        rules.scoring_rows = tuple(rows)
    after_compile(change)
