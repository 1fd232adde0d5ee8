"""A card of the suit led beats a trump played before it when its rank is higher (a ten of trumps loses to a later king of the suit led), as RLCard-Euchre's judger compares them by rank alone; the bowers still win."""

from conformance.mutants import wrap_state

RANKS = "23456789TJQKA"


def apply() -> None:
    def finish(original, state):
        rules = state.rules
        trump, led = state.trump, state.led
        if not 0 <= trump < len(rules.suits) or led == trump or len(state.trick) < 2:
            return original(state)
        power, eff, names = rules.power[trump][led], rules.eff[trump], rules.card_names

        def rank(card: int) -> int:
            name = names[card]
            return RANKS.find(name[0]) if len(name) == 2 and name != "JK" else -1

        def bower(card: int) -> bool:
            return names[card][0] == "J" and eff[card] == trump

        winner = state.trick[0][1]
        for _, card in state.trick[1:]:
            if power[card] > power[winner]:
                winner = card
            elif eff[card] == led and eff[winner] == trump and not bower(winner) and rank(card) > rank(winner) >= 0:
                winner = card
        best = max(power)
        if power[winner] == max(power[c] for _, c in state.trick):
            return original(state)
        saved = rules.power                       # the trick is scored as the judger scores it
        table = [list(ctx) for ctx in saved]
        row = list(table[trump][led])
        row[winner] = best + 1
        table[trump][led] = tuple(row)
        rules.power = tuple(tuple(ctx) for ctx in table)
        try:
            return original(state)
        finally:
            rules.power = saved
    wrap_state("play.finish_trick", finish)
