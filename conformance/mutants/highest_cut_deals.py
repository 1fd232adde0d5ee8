"""Cutting for the deal, the highest card deals instead of the lowest."""

from reference_impl.rules import Rules


def apply() -> None:
    original = Rules.first_dealer_by_cut

    def highest(self, order):
        self.cut_order = tuple(reversed(self.cut_order))
        try:
            return original(self, order)
        finally:
            self.cut_order = tuple(reversed(self.cut_order))
    Rules.first_dealer_by_cut = highest
