"""The first black jack is counted from the seat after the given starting seat."""

from reference_impl.rules import Rules


def apply() -> None:
    original = Rules.first_dealer_by_black_jack

    def shifted(self, order, start=0):
        return original(self, order, (start + 1) % self.n)
    Rules.first_dealer_by_black_jack = shifted
