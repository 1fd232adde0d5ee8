"""The lead against a lone hand is the ordinary one: the table's lone-lead rule is ignored."""

from conformance.mutants import after_compile


def apply() -> None:
    def change(rules):
        rules.lone_lead = rules.lead
    after_compile(change)
