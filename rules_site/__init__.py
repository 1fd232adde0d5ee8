"""The rules website's generated pages: one module per kind of page.

- :mod:`.variant`: one page per variant, from its resolved rule table (rules in prose and
  tables, a heading per clause whose id is the clause id, the options, worked examples);
- :mod:`.matrix`: every variant against every rule axis;
- :mod:`.casepages`: the corpus index and a page per case;
- :mod:`.schemas`: a browsable page per JSON Schema;
- :mod:`.compliance`: the JSON Lines reports under ``docs/compliance/reports/``.

:func:`.build.build_site` makes them all; ``hooks.py`` is the mkdocs hook that adds them to
the build as virtual files (``mkdocs.yml``: ``hooks: [rules_site/hooks.py]``).
"""
