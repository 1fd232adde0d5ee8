"""A lone march scores 2, like an ordinary march, instead of 4."""

from serve import after_compile


def apply() -> None:
    def change(rules):
        rows = []
        for row in rules.scoring_rows:
            if row.id == "lone-march":
                row = row.__class__(**{**row.__dict__, "awards": (("makers", 2, 0, 0, None),)})
            rows.append(row)
        rules.scoring_rows = tuple(rows)
    after_compile(change)
