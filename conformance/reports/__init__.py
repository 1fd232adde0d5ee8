"""Reports of a run, in every format, and what is read back from them.

Written as a run goes: ``jsonl`` (the JSON Lines report: header, a line per case, footer; and
its reader), ``junit``, ``tap``, ``console`` (the tables and failures told at the end), with
``claim`` (what a run may claim of the selection) and ``reporters`` (the reporters subscribed
to a run's stream of results). Read back from saved reports: ``runs`` (a report as a
:class:`~conformance.reports.runs.Run`), ``diff``, ``badge``, ``summary``, ``history``,
``fuzz_pages`` and ``checked_summary`` (the compliance pages' words). Reports read the
runner's results (:mod:`conformance.runner.results`) and never run anything.
"""
