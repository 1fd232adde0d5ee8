"""The ``euchre-spec`` command line: a module per command, the parser built from them.

:mod:`conformance.cli.app` is the entry point (``main``: exit statuses, signals, internal
errors), :mod:`conformance.cli.parser` builds the parser from :data:`~conformance.cli.parser.COMMANDS`,
and each command is a module of its own here (``check``, ``corpus``, ``fuzz``, ...) with an
``add_arguments(p)``; a run imports the module of its own command alone. The commands sit on
the top floor of the house: they may import every other part of :mod:`conformance`, and
nothing below imports them.
"""

from conformance.cli.app import main

__all__ = ["main"]
