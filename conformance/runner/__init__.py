"""The runner: cases played on an engine over the protocol, and judged.

From the bottom up: ``results`` (what a run says of a case) and ``fields`` (the protocol's
messages as checked); ``containment`` and ``engine_process`` (an engine's process, its replies,
everything it starts ended with it); ``compare``, ``seat_views``, ``state_consistency``,
``table_readings`` and ``cited_clause`` (how a reply is compared and which rule a difference
breaks); ``play`` (a case played and judged), ``declared`` (what a hello declares, what a case
needs), ``adapt`` (a case made ready for the engine's options), ``session`` (the runner's
session); ``selection``, ``skip_list`` and ``stop_rules``; ``threads`` and ``workers`` (the two
drivers); ``run`` (a whole run as one stream of results). The runner imports the case files
(:mod:`conformance.cases`), the reference engine and :mod:`conformance.common`, never the
reports, the corpus tools or the commands that read its results.
"""
