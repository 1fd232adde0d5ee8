"""Small helpers every floor of :mod:`conformance` may use, importing nothing else of it.

``console`` (what reaches the terminal, escaped), ``shown`` (an engine's text made safe to
show), ``clip`` (long values cut for a report), ``usage`` (exit statuses, the command line's
argument types, files written whole or not at all), ``json_values`` (JSON compared as the
protocol means it) and ``forked_map`` (a map over forked processes).
"""
