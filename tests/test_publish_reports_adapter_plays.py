"""tools/publish_reports.py --fuzz marks in identify's JSON the options an adapter's own game
loop plays (``adapter_plays``), so the compliance page credits none of them to the engine.

It reads them by importing the adapter named in the engine's command. That import needs the
adapters' folder on ``sys.path``. The script once named that folder through a constant it no
longer defined, and ``--fuzz`` stopped with a NameError after the first engine's identify run.
These tests guard that path without any engine installed: importing an adapter does not start
its engine.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def publish_reports() -> ModuleType:
    spec = importlib.util.spec_from_file_location("publish_reports_under_test", ROOT / "tools" / "publish_reports.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rlcard_adapter_plays_the_game_around_the_engines_hand() -> None:
    # RLCard plays a single hand. The game around it is the adapter's loop, which covers the
    # game target, the fast break and the fixed deals (tools/adapters/README.md, RLCard-Euchre).
    plays = publish_reports().adapter_plays(["python tools/adapters/rlcard_euchre_engine.py"])
    assert plays == ["fast-break", "fixed-deals", "game-target"]


def test_an_adapter_of_a_whole_game_plays_nothing_itself() -> None:
    # euchre-plt plays whole games itself, so its adapter plays no option of its own.
    assert publish_reports().adapter_plays(["python tools/adapters/euchre_plt_engine.py"]) == []


def test_identify_json_is_marked_with_the_adapters_options(tmp_path: Path) -> None:
    identify = tmp_path / "identify.json"
    identify.write_text(json.dumps({"engine": "x", "deviations": []}), encoding="utf-8")
    publish_reports().mark_adapter_options(identify, ["python tools/adapters/rlcard_euchre_engine.py"])
    data = json.loads(identify.read_text(encoding="utf-8"))
    assert data["adapter_plays"] == ["fast-break", "fixed-deals", "game-target"]
    assert data["engine"] == "x" and data["deviations"] == []
