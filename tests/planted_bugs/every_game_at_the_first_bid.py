"""Three rule bugs at once, the first met at the first bid of every game: in round one any
suit may be named (an extra move in the legal set, as 67cards offers), the turned-down
upcard may still be ordered in round two, and a euchre scores the defenders 1 point, not 2.
Fuzz must find all three: the first must not hide the others."""

from conformance.mutants import load


def apply() -> None:
    for name in ("round-one-any-suit-callable", "upcard-ordered-in-round-two", "euchre-scored-one"):
        load(name).apply()
