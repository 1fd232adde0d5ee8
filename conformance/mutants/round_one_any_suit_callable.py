"""In the first round any suit may be named as well as the upcard ordered up (as 67cards' engine accepts a call of another suit)."""

from conformance.mutants import wrap_state


def apply() -> None:
    def legal(original, state):
        actions = original(state)
        if state.step.order:
            rules = state.rules
            actions = actions + [token for token in rules.call_token[:rules.NT] if token not in actions]
        return actions
    wrap_state("make_trumps.legal", legal)
