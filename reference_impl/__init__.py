"""The Euchre Spec reference interpreter: plays any variant described by a rule table.

Typical use::

    from reference_impl import load_rules, new_game
    rules = load_rules(variant_id, {option_id: value})  # a table of spec/variants/, or a path
    state = new_game(rules, dealer=0)
    state.deal_random(random.Random(7))
    while not state.is_terminal():
        if state.is_chance_node():
            state.deal_random(rng)
        else:
            state.apply(rng.choice(state.legal_actions()))
"""

from .errors import ActionError, Problem, SpecError
from .resolve import ResolvedTable, resolve
from .rules import Deal, Rules, load_rules
from .state import State, new_game

__all__ = ["ActionError", "Deal", "Problem", "ResolvedTable", "Rules", "SpecError", "State",
           "load_rules", "new_game", "resolve"]
