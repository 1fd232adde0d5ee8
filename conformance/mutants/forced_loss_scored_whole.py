"""A forced contract lost is scored whole: the engine ignores that the contract was forced
(Double Hasenpfeffer's forced dealer loses only half his bid), so the rows for a forced
contract never apply and the whole bid is lost."""

from conformance.mutants import change_table


def apply() -> None:
    def change(table):
        table["scoring"]["rows"] = [r for r in table["scoring"]["rows"] if not r.get("when", {}).get("forced-contract")]
    change_table(change)
