#!/usr/bin/env python3
"""An engine that answers instantly from a recording: the protocol's own cost floor.

``--record FILE`` answers with the reference engine (in process) and records each reply;
``--replay FILE`` answers each request with the recorded reply and does nothing else, so a
run against it costs only the runner, the pipes and the JSON the runner itself handles.
A reply is keyed by the rule table in force and every request since the last new_game
(a hash chain), so identical requests in different games get their own replies.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def split_id(line: bytes) -> tuple[bytes, bytes]:
    """``{"id":7,"type":...}`` -> (b"7", b'"type":...}'): the runner writes the id first."""
    head, _, rest = line.partition(b",")
    return head[len(b'{"id":'):], rest


def record(path: Path) -> int:
    from conformance.reference_engine import ReferenceEngine

    engine = ReferenceEngine()
    table_key = b""
    key = b""
    with open(path, "a", encoding="utf-8") as out:
        for line in sys.stdin.buffer:
            line = line.rstrip(b"\n")
            request = json.loads(line)
            reply = engine.handle(request)
            text = json.dumps(reply, separators=(",", ":"), ensure_ascii=False).encode()
            _, body = split_id(line)
            if request.get("type") == "rules":
                table_key = hashlib.blake2b(body, digest_size=16).digest()
                key = table_key
            elif request.get("type") == "new_game":
                key = table_key
            key = hashlib.blake2b(key + body, digest_size=16).digest()
            _, reply_body = split_id(text)
            out.write(json.dumps({"key": key.hex(), "reply": reply_body.decode()}) + "\n")
            sys.stdout.buffer.write(text + b"\n")
            sys.stdout.buffer.flush()
            if request.get("type") == "bye":
                break
    return 0


def replay(path: Path) -> int:
    answers = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        answers[bytes.fromhex(entry["key"])] = entry["reply"].encode()
    table_key = b""
    key = b""
    write, flush = sys.stdout.buffer.write, sys.stdout.buffer.flush
    blake = hashlib.blake2b
    for line in sys.stdin.buffer:
        number, body = split_id(line.rstrip(b"\n"))
        if body.startswith(b'"type":"rules"'):
            table_key = key = blake(body, digest_size=16).digest()
        elif body.startswith(b'"type":"new_game"'):
            key = table_key
        key = blake(key + body, digest_size=16).digest()
        write(b'{"id":' + number + b"," + answers[key] + b"\n")
        flush()
        if body.startswith(b'"type":"bye"'):
            break
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--record", type=Path, metavar="FILE")
    mode.add_argument("--replay", type=Path, metavar="FILE")
    args = parser.parse_args()
    return record(args.record) if args.record else replay(args.replay)


if __name__ == "__main__":
    sys.exit(main())
