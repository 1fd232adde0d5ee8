"""The cards a seat takes unseen (a dummy, a widow, a partner's card, an exchange's draw)
are shown to every seat: each view carries every seat's `received`."""

from conformance.mutants import show_history_to_every_seat


def apply() -> None:
    show_history_to_every_seat("received")
