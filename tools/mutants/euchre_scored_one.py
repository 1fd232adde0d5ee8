"""A euchre gives the defenders 1 point instead of 2."""

from serve import after_compile


def apply() -> None:
    def change(rules):
        rows = []
        for row in rules.scoring_rows:
            if row.id == "euchre":
                row = row.__class__(**{**row.__dict__, "awards": (("defenders", 1, 0, 0, None),)})
            rows.append(row)
        rules.scoring_rows = tuple(rows)
    after_compile(change)
