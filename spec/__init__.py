"""The specification as package data (installed as ``reference_impl.spec``): the variant rule
tables under ``variants/``, the JSON Schemas under ``schema/`` and the protocol page.

There is no code here; this file only makes the folder a regular package, so that
``importlib.resources.files("reference_impl.spec")`` is a plain directory in every install.
"""
