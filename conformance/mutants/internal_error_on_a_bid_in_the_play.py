"""A pass, a bid or a discard offered in the play phase crashes the engine's rules (it answers internal, not illegal_action)."""

from conformance.mutants import wrap_state


def apply() -> None:
    def apply_action(original, self, action, seat=None):
        if self.phase == "play" and (seat is None or seat == self.to_act) and not str(action).startswith("play:"):
            raise KeyError("play")
        return original(self, action, seat)
    wrap_state("apply", apply_action)
