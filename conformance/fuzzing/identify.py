"""Which option values an engine really plays: its house rules, inferred from its play.

Trying every combination is out of the question (standard Euchre alone has 9,216), so the
search is a coordinate ascent on evidence (:mod:`.evidence`). The engine is sent one fixed
table (the defaults, or the options given); the first base is that table's options. Each
round plays the engine's own games beside the base and every single-option change of it,
until one change is clearly supported (or the round's budget is spent); the best change is
adopted, along with any other change the engine never contradicted, and the next round
starts from the new base, so that options which interact are judged one given the other
(no going alone makes the lone-defence options moot). When no change gains, each option's
verdict is read off the last round: *as sent* or *differs* when every other value lost,
*not observed* when some other value never predicted anything different (that option is
then left at the value sent), *uncertain* when the evidence is split (the engine fits no
value well: it deviates there in a way no option describes).

Then the engine is fuzzed against the reference under the identified set, keeping one
divergence per kind. Those longer games reach what the rounds may have missed (the end of
a game of eight deals, a lone march): each deviation found is replayed beside every
single-option change, a change it supports is adopted, the search goes on from there, and
the check is run again. What still deviates at the end is what no option explains.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from reference_impl.resolve import ResolvedTable

from .divergence import Divergence
from .evidence import Hypothesis, Panel, Round, Tally
from .lockstep import EngineFactory, Lockstep, Reference
from .loop import Fuzzer
from .options import option_values, show, table_for

MIN_HANDS = 16               # hands a round plays before it may stop early
MAX_HANDS = 160              # hands a round plays at most
DECISIVE = 4                 # net atoms that settle a round early (with no loss)
ADOPT = 2                    # net atoms a change needs to be adopted
MAX_ROUNDS = 24
CHECKS = 3                   # times the deviations a check finds are replayed as evidence, and checked again
SPLIT_WINS = 3               # an alternative with this many wins, and half as many as its losses, leaves it open


@dataclass
class Verdict:
    """What the evidence says about one option."""

    key: str
    sent: Any
    value: Any
    status: str                         # as sent, differs (either perhaps "not told from" some values), not observed, uncertain
    against: dict[str, dict[str, int]] = field(default_factory=dict)   # other value -> its tally

    def to_json(self) -> dict[str, Any]:
        return {"option": self.key, "sent": self.sent, "identified": self.value, "status": self.status,
                "evidence": self.against}


@dataclass
class Identification:
    variant: str
    sent: dict[str, Any]
    options: dict[str, Any]
    verdicts: list[Verdict]
    rounds: list[dict[str, Any]]
    hands: int
    seconds: float
    deviations: list[Divergence] = field(default_factory=list)
    check_hands: int = 0
    notes: list[str] = field(default_factory=list)
    hello: dict[str, Any] = field(default_factory=dict)

    @property
    def changed(self) -> dict[str, Any]:
        """The options whose identified value differs from the value sent."""
        return {k: v for k, v in self.options.items() if self.sent.get(k) != v}

    def _status(self, key: str) -> str:
        return next((v.status for v in self.verdicts if v.key == key), "")

    @property
    def house_rules(self) -> dict[str, Any]:
        """The values other than the ones sent that the evidence confirms (verdict "differs"):
        only these are house rules."""
        return {k: v for k, v in self.changed.items() if self._status(k).startswith("differs")}

    @property
    def uncertain(self) -> dict[str, Any]:
        """Values other than the ones sent that fit best without the evidence settling it
        (verdict "uncertain": the engine fits no value well, as an engine with a bug does)."""
        return {k: v for k, v in self.changed.items() if k not in self.house_rules}

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "sent": self.sent, "identified": self.options, "house_rules": self.house_rules,
                "uncertain": self.uncertain,
                "verdicts": [v.to_json() for v in self.verdicts], "rounds": self.rounds, "hands": self.hands,
                "check_hands": self.check_hands, "seconds": round(self.seconds, 2), "notes": self.notes}


def _key(options: dict[str, Any]) -> tuple:
    return tuple(sorted((k, repr(v)) for k, v in options.items()))


class Identifier:
    """Identifies the options one engine plays for one variant."""

    def __init__(self, make_engine: EngineFactory, variant: str, sent: ResolvedTable, seed: int = 0,
                 max_hands: int = MAX_HANDS, check_hands: int = 400, max_deviations: int = 8,
                 progress: Callable[[str], None] | None = None):
        self.make_engine = make_engine
        self.variant = variant
        self.sent = sent
        self.seed = seed
        self.max_hands = max_hands
        self.check_hands = check_hands
        self.max_deviations = max_deviations
        self.progress = progress or (lambda text: None)
        self.values = option_values(sent.table)
        self.sent_options = {k: sent.selected.get(k, v[0]) for k, v in self.values.items()}
        self._hypotheses: dict[tuple, Hypothesis] = {}
        self.lockstep = Lockstep(make_engine, variant, sent)
        self.hands = 0
        self.game = 0
        self._notes: list[str] = []
        self._shown: dict[str, Any] = {}        # the values adopted on evidence, by option

    def hypothesis(self, options: dict[str, Any]) -> Hypothesis | None:
        key = _key(options)
        if key not in self._hypotheses:
            table = table_for(self.variant, options)
            if table is None:
                return None
            self._hypotheses[key] = Hypothesis(key, dict(options), table, Reference(self.variant, table))
        return self._hypotheses[key]

    def run(self) -> Identification:
        started = time.monotonic()
        rounds: list[dict[str, Any]] = []
        try:
            self.lockstep.begin()
            hello = dict(self.lockstep.hello)
            base = dict(self.sent_options)
            seen = {_key(base)}
            for attempt in range(CHECKS + 1):
                verdicts = self._search(base, seen, rounds)
                deviations, checked = self._check(base)
                if not deviations or attempt == CHECKS:
                    break
                # What still deviates makes discriminating games of its own: a game of eight
                # deals, a lone march, found by the check's longer games, replayed beside
                # every single-option change.
                panel, alternatives = self._panel(base)
                tally = Round()
                for deviation in deviations:
                    panel.replay(deviation.script, tally)
                adopted = self._adopt(tally, alternatives, base, seen)
                rounds.append({"round": len(rounds) + 1, "replayed": len(deviations), "adopted": adopted,
                               "best": _best(tally, alternatives)})
                self.progress(f"round {len(rounds)}: the {len(deviations)} deviation(s) found replayed, "
                              + (f"adopted {', '.join(f'{k}={v!r}' for k, v in adopted.items())}" if adopted
                                 else "no change explains them"))
                if not adopted:
                    break
                base.update(adopted)
                seen.add(_key(base))
            notes = sorted(f"the engine answers `unsupported` to new_game with {f}: games start without it"
                           for f in self.lockstep.refused)
        finally:
            self.lockstep.close()
        result = Identification(self.variant, dict(self.sent_options), dict(base), verdicts, rounds, self.hands,
                                0.0, deviations=deviations, check_hands=checked, notes=notes, hello=hello)
        for note in self._notes:
            if note not in result.notes:
                result.notes.append(note)
        result.seconds = time.monotonic() - started
        return result

    def _search(self, base: dict[str, Any], seen: set, rounds: list[dict[str, Any]]) -> list[Verdict]:
        """Rounds of evidence from ``base`` on, each adopting the best supported change, until
        none gains; ``base`` is updated in place. The verdicts of the last round."""
        last: Round | None = None
        alternatives: dict[tuple, tuple[str, Any]] = {}
        while len(rounds) < MAX_ROUNDS:
            panel, alternatives = self._panel(base)
            last = self._round(panel)
            adopted = self._adopt(last, alternatives, base, seen)
            rounds.append({"round": len(rounds) + 1, "hands": last.hands, "adopted": dict(adopted),
                           "best": _best(last, alternatives)})
            self.progress(f"round {len(rounds)}: {last.hands} hands, " +
                          (f"adopted {', '.join(f'{k}={v!r}' for k, v in adopted.items())}" if adopted else
                           "no change gains"))
            if not adopted:
                break
            base.update(adopted)
            seen.add(_key(base))
        verdicts = self._verdicts(base, last, alternatives)
        for verdict in verdicts:
            if verdict.value != base[verdict.key]:
                if table_for(self.variant, {**base, verdict.key: verdict.value}) is not None:
                    base[verdict.key] = verdict.value
                else:                   # the value sent cannot be played with the rest
                    verdict.value = base[verdict.key]
        return verdicts

    # -- one round ----------------------------------------------------------------------------------
    def _panel(self, base: dict[str, Any]) -> tuple[Panel, dict[tuple, tuple[str, Any]]]:
        hypothesis = self.hypothesis(base)
        if hypothesis is None:
            raise ValueError(f"the options {base} do not resolve")
        alternatives: dict[tuple, tuple[str, Any]] = {}
        others = []
        for key, values in self.values.items():
            for value in values:
                if value == base[key] and type(value) is type(base[key]):
                    continue
                other = self.hypothesis({**base, key: value})
                if other is not None:
                    alternatives[other.key] = (key, value)
                    others.append(other)
        return Panel(self.lockstep, self.variant, hypothesis, others), alternatives

    def _round(self, panel: Panel) -> Round:
        tally = Round()
        budget = {"left": self.max_hands}

        def claim() -> bool:
            if budget["left"] <= 0:
                return False
            budget["left"] -= 1
            return True

        while budget["left"] > 0:
            rng = random.Random(f"identify:{self.seed}:{self.game}")
            self.game += 1
            before = tally.hands
            panel.play_game(rng, tally, claim)
            if tally.hands == before:
                budget["left"] -= 1          # a game that dealt nothing still costs (no endless loop)
            if tally.hands >= MIN_HANDS and _decided(tally):
                break
        self.hands += tally.hands
        return tally

    def _adopt(self, tally: Round, alternatives: dict[tuple, tuple[str, Any]], base: dict[str, Any],
               seen: set) -> dict[str, Any]:
        """The changes to adopt: the best supported one (on a tie, one back to the value sent),
        and any other that the engine never contradicted, as strongly supported, by replies of
        its own (not the replies the first one explains: when a lone defence's four points end
        the game, a game of four deals would have ended it too)."""
        def rank(key: tuple) -> tuple:
            option, value = alternatives[key]
            record = tally.tallies[key]
            return record.net, value == self.sent_options[option], -record.losses

        ranked = sorted((key for key in tally.tallies if key in alternatives), key=rank, reverse=True)
        adopted: dict[str, Any] = {}
        explained: set[int] = set()
        for key in ranked:
            option, value = alternatives[key]
            record = tally.tallies[key]
            if option in adopted or record.net < ADOPT:
                continue
            if adopted and (record.losses or record.net < DECISIVE or record.won_at & explained):
                continue
            combined = {**base, **adopted, option: value}
            if _key(combined) in seen or table_for(self.variant, combined) is None:
                continue
            adopted[option] = value
            explained |= record.won_at
        self._shown.update(adopted)
        return adopted

    def _verdicts(self, base: dict[str, Any], tally: Round | None,
                  alternatives: dict[tuple, tuple[str, Any]]) -> list[Verdict]:
        verdicts = []
        by_option: dict[str, dict[Any, Tally]] = {}
        for key, (option, value) in alternatives.items():
            by_option.setdefault(option, {})[show(value)] = (tally.tallies.get(key) if tally else None) or Tally()
        for option, values in self.values.items():
            sent = self.sent_options[option]
            value = base[option]
            tallies = by_option.get(option, {})
            against = {v: {"wins": t.wins, "losses": t.losses, "contested": t.contested} for v, t in tallies.items()}
            unseen = [v for v, t in tallies.items() if t.contested == 0]
            if any(t.wins >= SPLIT_WINS and 2 * t.wins >= t.losses for t in tallies.values()):
                status = "uncertain"           # the evidence is split: the engine fits no value well
            elif len(unseen) == len(tallies) and self._shown.get(option) == value and value != sent:
                status = "differs (shown in an earlier round)"
            elif len(unseen) == len(tallies):
                # No other value was told apart (or none can be played with the rest): the
                # engine is taken to follow the table.
                status = "not observed" if len(values) > 1 else "as sent"
                if value != sent and (show(sent) in unseen or not tallies):
                    value = sent
            else:
                status = "as sent" if value == sent else "differs"
                if unseen:
                    status += f" (not told from {', '.join(unseen)})"
            verdicts.append(Verdict(option, sent, value, status, against))
        return verdicts

    # -- the remaining deviations ---------------------------------------------------------------------
    def _check(self, options: dict[str, Any]) -> tuple[list[Divergence], int]:
        """Fuzz the engine (sent the table) against the reference under ``options``: one
        divergence of each kind, and the hands played."""
        table = table_for(self.variant, options)
        if self.check_hands <= 0 or table is None:
            return [], 0
        self.progress(f"checking the identified rules on {self.check_hands} hands")
        fuzzer = Fuzzer(self.make_engine, self.variant, self.sent, table, seed=self.seed, hands=self.check_hands,
                        max_divergences=self.max_deviations, probes=0.0)
        found = fuzzer.run()
        self._notes.extend(found.notes)
        return found.divergences, found.hands


def _decided(tally: Round) -> bool:
    return any(t.net >= DECISIVE and t.losses == 0 for t in tally.tallies.values())


def _best(tally: Round, alternatives: dict[tuple, tuple[str, Any]]) -> dict[str, Any] | None:
    if not tally.tallies:
        return None
    key, best = max(((k, t) for k, t in tally.tallies.items() if k in alternatives), key=lambda kt: kt[1].net,
                    default=(None, None))
    if key is None:
        return None
    option, value = alternatives[key]
    return {"option": option, "value": value, "wins": best.wins, "losses": best.losses}

