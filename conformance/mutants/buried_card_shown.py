"""The cards a seat lays away face down (the dealer's buried card, the discards after taking
a widow or a dummy) are shown in every seat's view."""

from conformance.mutants import show_history_to_every_seat


def apply() -> None:
    show_history_to_every_seat("discards")
