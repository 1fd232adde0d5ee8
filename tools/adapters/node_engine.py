"""The Python end of node_bridge.cjs: an adapter calls an engine's exported JavaScript
functions as ``bridge.call("applyBid", Ref(3), {...})``.

The exchange with the bridge is the whole boundary between an adapter and its engine, so
it can be recorded (``EUCHRE_BRIDGE_RECORD=FILE``: one JSON line per call) and replayed
without node or the engine (``ReplayBridge``): the adapter tests check an adapter's own
mapping that way where the engine is not installed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

BRIDGE = Path(__file__).resolve().parent / "node_bridge.cjs"


class Ref(dict):
    """A value kept by the bridge, passed back as an argument."""

    def __init__(self, ref: int) -> None:
        super().__init__({"$ref": ref})
        self.ref = ref


def rng(numbers: list[float]) -> dict[str, Any]:
    """An argument the bridge turns into a function returning these numbers in turn."""
    return {"$rng": numbers}


class BridgeError(RuntimeError):
    """The engine threw, or the bridge could not do what was asked."""


class Result:
    """A call's reply: the kept value's ``ref`` (None when nothing was kept), its plain-data
    ``value``, and ``same``, whether the result was the very object passed first (an engine
    answering an illegal action with the state it was given)."""

    def __init__(self, reply: dict[str, Any]) -> None:
        self.ref = Ref(reply["ref"]) if reply.get("ref") is not None else None
        self.value = reply.get("value")
        self.same = bool(reply.get("same"))


class NodeBridge:
    """node_bridge.cjs run on an engine's bundle, asked one JSON line at a time."""

    def __init__(self, engine_file: Path, record: str | None = None) -> None:
        node = shutil.which("node")
        if node is None:
            raise BuildProblem("node is not on PATH: the engine is JavaScript and needs it")
        self.process = subprocess.Popen([node, str(BRIDGE), str(engine_file)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self.next_id = 0
        path = record if record is not None else os.environ.get("EUCHRE_BRIDGE_RECORD")
        self.record = open(path, "a", encoding="utf-8") if path else None

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one request to the bridge and read its reply (recorded when asked); an error
        thrown by the engine is raised as ``BridgeError``."""
        self.next_id += 1
        message = {"id": self.next_id, **message}
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise BridgeError("the node bridge exited")
        reply = json.loads(line)
        if self.record is not None:
            self.record.write(json.dumps({"request": message, "reply": reply}) + "\n")
            self.record.flush()
        if "error" in reply:
            raise BridgeError(reply["error"].splitlines()[0] if reply["error"] else "error")
        return reply

    def call(self, fn: str, *args: Any, quiet: bool = False) -> Result:
        """Call an exported function, its result kept in node (``quiet``: its value not sent back)."""
        return Result(self.request({"call": fn, "args": list(args), **({"quiet": True} if quiet else {})}))

    def value(self, fn: str, *args: Any) -> Any:
        """A call's result as plain data, kept nowhere (for engines whose states are plain data)."""
        return self.request({"call": fn, "args": list(args), "keep": False}).get("value")

    def method(self, on: Ref, name: str, *args: Any, quiet: bool = False) -> Result:
        """A method of a kept object; its result is answered, not kept."""
        return Result(self.request({"method": name, "on": on.ref, "args": list(args), "keep": False,
                                    **({"quiet": True} if quiet else {})}))

    def probe(self, fn: str, args_list: list[list[Any]]) -> list[bool]:
        """For each argument list, whether ``fn`` returned something other than its first
        argument (an engine that returns the state it was given for an illegal action)."""
        if not args_list:
            return []
        return list(self.request({"probe": fn, "args_list": args_list})["changed"])

    def drop(self, refs: list[Ref]) -> None:
        """Forget kept values in node."""
        if refs:
            self.request({"drop": [r.ref for r in refs]})


def node_handler(engine_file: Callable[[], tuple[Path, str]],
                 make_adapter: Callable[["NodeBridge", str], Any]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The protocol handler of an adapter of a JavaScript engine: ``engine_file`` finds (and
    builds, once) the engine's bundle and its commit, the adapter is made on a bridge to it.
    The three node adapters started so with the same lines; the tests make theirs on a
    ``ReplayBridge`` instead."""
    built, commit = engine_file()
    return make_adapter(NodeBridge(built), commit).handle


class ReplayBridge(NodeBridge):
    """Answers from a recorded exchange, checking that the adapter asks exactly what it asked
    when it was recorded."""

    def __init__(self, exchanges: list[dict[str, Any]]) -> None:
        self.exchanges = list(exchanges)
        self.next_id = 0
        self.record = None

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """The recorded reply to the next recorded call, which must be this very request."""
        self.next_id += 1
        message = {"id": self.next_id, **message}
        if not self.exchanges:
            raise AssertionError(f"the recording has no call left for {message}")
        recorded = self.exchanges.pop(0)
        if recorded["request"] != message:
            raise AssertionError(f"the adapter asked {message}, the recording has {recorded['request']}")
        reply = recorded["reply"]
        if "error" in reply:
            raise BridgeError(reply["error"].splitlines()[0])
        return reply


def bundled(entry: Path, out: Path, what: str, aliases: dict[str, Path] | None = None,
            stale_before: Path | None = None) -> Path:
    """``out``: ``entry`` bundled with what it imports into one CommonJS file by esbuild (from
    npm, found through ``ESBUILD`` or on PATH), with ``aliases`` for the engine's package names
    (its monorepo's workspaces, which are not installed). Built once: again only when ``out``
    is older than ``stale_before`` (a shim of ours, which may change; the engine's checkout is
    a fixed commit)."""
    if out.exists() and (stale_before is None or out.stat().st_mtime >= stale_before.stat().st_mtime):
        return out
    esbuild = os.environ.get("ESBUILD") or shutil.which("esbuild")
    if not esbuild:
        raise BuildProblem(f"{what}: esbuild is needed to build it: npm install esbuild, and set ESBUILD to its binary")
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run([esbuild, str(entry), "--bundle", "--format=cjs", "--platform=node", f"--outfile={out}"]
                              + [f"--alias:{name}={path}" for name, path in (aliases or {}).items()]
                              + ["--log-level=error"], capture_output=True, text=True)
    except OSError as exc:
        raise BuildProblem(f"{what}: esbuild ({esbuild}) cannot be run: {exc.strerror or exc}") from None
    if done.returncode != 0:
        raise BuildProblem(build_failure(what, done.stderr))
    return out


class BuildProblem(SystemExit):
    """The engine cannot be built here (a tool or a package it needs is missing): the adapter
    exits with this one line, naming the engine and what is missing, and no traceback."""


def build_failure(what: str, stderr: str) -> str:
    """esbuild's failure in one line: the packages it could not resolve (to be installed where
    ``NODE_PATH`` points), or its first error."""
    missing = sorted(set(re.findall(r'Could not resolve "([^"]+)"', stderr)))
    if missing:
        return (f"{what}: cannot build: missing npm package(s) {', '.join(missing)}: install them into the "
                f"node_modules NODE_PATH names (see tools/adapters/README.md)")
    errors = [line.strip() for line in stderr.splitlines() if "ERROR" in line or "error" in line]
    return f"{what}: esbuild failed: {(errors or [stderr.strip() or 'no message'])[0]}"
