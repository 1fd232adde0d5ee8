"""Plays every hand right but says it in a way that Python's ``==`` or a set hides, or shows
a state that contradicts itself in a field no step of the case looks at.

``false_green.py MODE``:

- ``bools``: numbers inside lists as booleans (``hand_points`` ``[false, true]``, ``scores`` too);
- ``floats``: numbers inside lists as floats (``[0.0, 1.0]``);
- ``duplicate-legal``: every ``legal`` list with its first action twice;
- ``played-in-hand``: the hands still hold the cards played (a played card in two places);
- ``wrong-trick``: the first trick shows its second card twice (for its first seat too);
- ``tricks-won``: ``tricks_won`` counts one trick more for seat 0 than the tricks show.

Each strikes from the 2nd act of a hand on (after the first reply of each kind, which is
checked against its schema).

Expected outcome: ``fail`` wherever such a state comes (a case that names the field, or
the check every state reply gets); before, the whole-hand case passed with each."""

import sys

from _common import Faulty, arg

MODE = arg("bools")


def distort(state: dict) -> None:
    if MODE in ("bools", "floats"):
        for key in ("hand_points", "scores"):
            if isinstance(state.get(key), list):
                state[key] = [bool(v) if MODE == "bools" and v in (0, 1) else float(v) if MODE == "floats" else v
                              for v in state[key]]
    elif MODE == "duplicate-legal" and state.get("legal"):
        state["legal"] = [state["legal"][0], *state["legal"]]
    elif MODE == "played-in-hand" and isinstance(state.get("hands"), list):
        for trick in state.get("tricks") or []:
            for seat, card in trick["cards"]:
                if state["hands"][seat] is not None:
                    state["hands"][seat] = [*state["hands"][seat], card]
    elif MODE == "wrong-trick" and state.get("tricks") and len(state["tricks"][0]["cards"]) >= 2:
        first, second = state["tricks"][0]["cards"][:2]
        state["tricks"][0]["cards"][0] = [first[0], second[1]]
    elif MODE == "tricks-won" and isinstance(state.get("tricks_won"), list) and state["tricks_won"]:
        state["tricks_won"] = [state["tricks_won"][0] + 1, *state["tricks_won"][1:]]


class FalseGreen(Faulty):
    def reply(self, message):
        reply = super().reply(message)
        if self.acts >= 2 and isinstance(reply, dict) and isinstance(reply.get("state"), dict):
            distort(reply["state"])
        return reply


if __name__ == "__main__":
    sys.exit(FalseGreen().serve())
