"""What an engine really plays: differential fuzzing against the reference, shrinking, identifying house rules.

One module, one job:

- :mod:`.compare`: an engine's reply against the reference's, field by field, and the
  signature that says when two divergences are the same;
- :mod:`.script`: a game as played (setup, deals, steps), replayable on any engine;
- :mod:`.lockstep`: the engine (driven as ``check`` drives it) and the in-process
  reference, sent the same requests;
- :mod:`.policy`: setups, deals and moves biased towards the rare parts of the rules;
- :mod:`.coverage` and :mod:`.clauses`: what a run exercised, and which clause a step tests;
- :mod:`.loop`: the fuzz loop (``euchre-spec fuzz``), over one engine or several;
- :mod:`.divergence`, :mod:`.replay`, :mod:`.shrink`, :mod:`.casefile`: a divergence, made
  small and written as a conformance case;
- :mod:`.options`, :mod:`.evidence`, :mod:`.identify`: the option values an engine plays
  (``euchre-spec identify``).

Only the interpreter's public surface is used (``load_rules``, ``resolve``, ``State`` and
the reference engine's protocol), so the machinery holds while the rules model changes.
"""
