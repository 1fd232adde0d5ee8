"""The rules website's generator: an mkdocs hook that turns the rule tables, the corpus and the
compliance reports into pages (``mkdocs.yml``: ``hooks: [rules_site/hooks.py]``). The
``conformance`` package (the suite) does not need it; it reads the suite's corpus loader,
runner outcomes and report reader.

- :mod:`.tables`: a variant as the site sees it (its resolved table, compiled by the
  interpreter, and what each option value changes);
- :mod:`.notation`, :mod:`.words`, :mod:`.phases`, :mod:`.ranking`: cards, bids, seats and
  sides as players write them; the table's conditions, steps, scoring and game in words;
  which step and clause a phase of the state belongs to; the card orders from the
  interpreter's compiled tables;
- :mod:`.variant`: one page per variant, teaching the game in the order of its own steps;
- :mod:`.examples`: a case told as a worked example, with the step-through viewer's data;
- :mod:`.compare`: the variants side by side, by family, and the list of variants;
- :mod:`.egn`: the EGN house rules mapped to the tables' options;
- :mod:`.casepages`, :mod:`.corpus`: the corpus index and a page per case (replayed on the
  reference engine to draw it);
- :mod:`.compliance`: the reports, failures grouped by the rule of the failing step;
- :mod:`.schemas`: a browsable page per JSON Schema.

:func:`.build.build_site` makes them all; :mod:`.hooks` adds them to the build as virtual
files and writes the search index as a script for the site opened from disk.
"""
