"""Where the first lead should fix trumps (Napoleon), the hand is played at no-trumps."""

from conformance.mutants import wrap_state


def apply() -> None:
    def at_no_trumps(original, self, card):
        self.trump = self.rules.NT
        self.events.append(("trump", "NT", self.maker))
    wrap_state("play.trumps_by_lead", at_no_trumps)
