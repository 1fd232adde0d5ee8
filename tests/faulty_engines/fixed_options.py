"""An engine with house rules of its own: the reference engine that ignores the options it
is sent and plays a fixed set instead (``euchre-spec identify`` must name that set).

``python tests/faulty_engines/fixed_options.py '{"euchre": {"going-alone": false}}'``:
for each variant named, the table it is sent is replaced by that variant's table under
those options (options not named keep the values sent); other variants are played as sent.
A second argument names a mutant (``conformance/mutants``) whose rule bug it also has: house
rules and a deviation that no option explains, as ``identify`` must tell apart.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from _common import Faulty, arg  # noqa: E402  (sets up the import path)

from reference_impl.resolve import resolve


class FixedOptions(Faulty):
    """Plays ``fixed[variant]`` whatever options the rules message carries."""

    def __init__(self, fixed: dict[str, dict[str, Any]]):
        super().__init__()
        self.fixed = fixed

    def handle(self, message: Any) -> dict[str, Any]:
        if isinstance(message, dict) and message.get("type") == "rules":
            variant = message.get("variant")
            if isinstance(variant, str) and variant in self.fixed and isinstance(message.get("options"), dict):
                table = resolve(variant, {**message["options"], **self.fixed[variant]})
                message = {**message, "options": table.selected, "table": table.table, "sha256": table.sha256}
        return super().handle(message)


if __name__ == "__main__":
    if len(sys.argv) > 2:
        from conformance.mutants import load, use_pure_python
        use_pure_python()              # the interpreter's classes must be patchable
        load(sys.argv[2]).apply()
    sys.exit(FixedOptions(json.loads(arg("{}"))).serve())
