"""The hand's step kinds, one module each, under the small :class:`reference_impl.state.State`.

A step kind's module holds its ``begin`` (which settles the step at once, or waits for a
decision), the decisions it waits for (each a ``legal`` and an ``apply``), and declares them
in ``KIND`` and ``DECISIONS``; :mod:`reference_impl.state` gathers those into the tables it
walks the steps through. Adding a step kind means adding a module here and naming it in
``state.STEP_KINDS``.

The floors, lowest first (a module imports only from floors below it; the state is only
named in type hints): :mod:`.common` (what the state waits for, the phases, the contract
made), :mod:`.hand_end` (scoring the hand, the end of the game); then the kinds
(:mod:`.name`, :mod:`.make_trumps`, :mod:`.auction`, :mod:`.force_bid`, :mod:`.set_trumps`,
:mod:`.throw_in`, :mod:`.offer`, :mod:`.exchange`, :mod:`.give`, :mod:`.propose`,
:mod:`.play`); and :mod:`.discard`, the one decision several kinds wait for, which goes back
to the kind that asked for it.
"""
