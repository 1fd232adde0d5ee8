"""``python -m conformance.mutants NAME``: serve the reference engine with mutant NAME's bug."""

from __future__ import annotations

import sys

from conformance.mutants import load, mutant_names, use_pure_python


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(f"usage: python -m conformance.mutants MUTANT   (one of: {', '.join(mutant_names())})", file=sys.stderr)
        return 2
    use_pure_python()              # the interpreter's classes must be patchable
    load(argv[0]).apply()
    from conformance.reference_engine import main as serve
    return serve()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
