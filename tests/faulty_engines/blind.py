"""Never reads its input after the handshake: it answers hello, then writes a stream of
canned replies (ids counted up from hello's) without reading a single request. The
runner's writes fill the pipe to the engine; a runner that writes without a deadline
blocks for ever.

Expected outcome: ``fail`` while the canned replies get through (the state never has a
seat to act), then ``timeout`` once a request cannot be written within the timeout."""

import json
import sys

from _common import Faulty, write_reply

if __name__ == "__main__":
    engine = Faulty()
    hello = json.loads(sys.stdin.buffer.readline())
    write_reply(engine.handle(hello))
    canned = {"phase": "deal", "hand_number": 0, "dealer": 0, "to_act": None, "legal": [], "upcard": None,
              "upcard_suit": None, "turned_down": None, "trump": None, "maker": None, "contract": None,
              "alone": False, "defender_alone": None, "sitting_out": [], "hands": [[], [], [], []], "tricks": [],
              "tricks_won": [0, 0, 0, 0], "hand_points": None, "scoring_row": None, "scores": [0, 0],
              "next_dealer": None, "game_over": False, "winner": None}
    request_id = hello["id"]
    while True:
        request_id += 1
        write_reply({"id": request_id, "ok": True, "state": canned})
