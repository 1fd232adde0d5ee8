"""The corpus's own tools: generate cases, lint them, derive what each needs of an engine
(``requires:``), stamp the corpus's version, and measure it against the mutants.

They read cases (:mod:`conformance.cases`) and run them on the reference through the runner;
the commands (``euchre-spec corpus``, ``mutants``, ``check --generate``) call them.
"""
