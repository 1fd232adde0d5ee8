"""EGN (Euchre Game Notation) records: read and checked (:mod:`.record`; versions 1.0 and 1.1
upgraded in memory, :mod:`.upgrade`; binary records, :mod:`.binary` with :mod:`.binary_schema`
and :mod:`.bitpack`; match files, :mod:`.match`), their ruleset mapped to the options of
``euchre`` (:mod:`.ruleset`), replayed through the reference interpreter (:mod:`.replay`),
written as conformance cases (:mod:`.importer`), checked for impossible events (:mod:`.check`),
and games written back as EGN (:mod:`.export`).

EGN is the open JSON record format of online and tournament Euchre (NextSuit Labs,
Apache-2.0). Nothing of its repository is part of this project: what is here is written
from its documentation. docs/egn.md says how to use the commands and what each choice is.
"""

from .check import GameReport, MatchReport, check_file, check_match, check_path
from .export import ExportError, case_to_egn, game_from_events, to_egn
from .importer import build_case, dump_case, load_game, replay_record
from .match import Match, build_match, read_match
from .record import EgnError, EgnInvalid, EgnUnsupported, Record, parse_record, read_record
from .replay import KINDS, Defect, GameReplay, replay_game
from .ruleset import Unmappable, flags_for_rules, options_for_flags, record_options

__all__ = ["Defect", "EgnError", "EgnInvalid", "EgnUnsupported", "ExportError", "GameReplay", "GameReport", "KINDS",
           "Match", "MatchReport", "Record", "Unmappable", "build_case", "build_match", "case_to_egn", "check_file",
           "check_match", "check_path", "dump_case", "flags_for_rules", "game_from_events", "load_game",
           "options_for_flags", "parse_record", "read_match", "read_record", "record_options", "replay_game",
           "replay_record", "to_egn"]
