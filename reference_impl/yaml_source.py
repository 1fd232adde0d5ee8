"""Read YAML safely while remembering where every value came from.

PyYAML's ``safe_load`` forgets line numbers, yet a useful error has to say "line 12, at
``$.deck.ranks[5]``". We compose the node graph with the safe loader, keep each node's
position by JSON path, and construct the data from that same graph, so the data and the
positions can never disagree. Duplicate mapping keys, which ``safe_load`` silently
collapses, are reported as problems.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Iterable

import yaml

from . import cache
from .errors import Problem, SpecError

PathTuple = tuple[Any, ...]
MAX_DEPTH = 64              # a case nests about eight levels deep, a rule table about ten
MAX_ALIAS_NODES = 100_000   # nodes that YAML aliases may add to a file (a "billion laughs" adds billions)
MAX_FILE_BYTES = 8 * 1024 * 1024   # the largest table is 50 KB, the largest case 400 KB
CHARS_PER_NODE = 64         # a scalar weighs one node per 64 characters: a long text aliased
                            # a thousand times expands as much as a thousand small mappings
_EventLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
CACHE_KIND = "parsed-2"    # the cache's folder of parsed texts: data, root line, whether a float was read


def format_path(path: Iterable[Any]) -> str:
    """Render a path as JSONPath-like text: ``$.deck.ranks[5]``."""
    text = "$"
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            text += f"[{part}]"
        else:
            text += f".{part}"
    return text


class Located:
    """Data loaded from a file, with the line of every path in it.

    The lines are worked out when first asked for (an error message, a case of a file of
    several): a valid file needs only its data, and finding every line costs a second walk
    of the YAML."""

    __slots__ = ("data", "file", "root_line", "has_float", "surely_json", "_lines", "_text")

    def __init__(self, data: Any, file: str, lines: dict[PathTuple, int] | None = None, text: str | None = None,
                 root_line: int = 1, has_float: bool = True, surely_json: bool = False):
        self.data = data
        self.file = file
        self.has_float = has_float      # False only where loading saw no float (the schemas' fast path needs that)
        self.surely_json = surely_json  # True only where loading saw nothing JSON would not keep exactly
        self.root_line = lines.get((), root_line) if lines is not None else root_line
        self._lines = lines
        self._text = text if lines is None else None
        if lines is None and text is None:
            self._lines = {(): root_line}

    @property
    def lines(self) -> dict[PathTuple, int]:
        if self._lines is None:
            self._lines = _parse_carefully(self._text or "", self.file).lines
            self._text = None
        return self._lines

    def line_of(self, path: Iterable[Any]) -> int | None:
        """The line of ``path`` or of its nearest ancestor that the file spells out."""
        parts = tuple(path)
        if not parts:
            return self.root_line
        lines = self.lines
        while True:
            if parts in lines:
                return lines[parts]
            if not parts:
                return None
            parts = parts[:-1]

    def problem(self, path: Iterable[Any], message: str) -> Problem:
        parts = tuple(path)
        return Problem(self.file, format_path(parts), message, self.line_of(parts))


def _walk(loader: Any, node: yaml.Node, path: PathTuple,
          lines: dict[PathTuple, int], problems: list[Problem], file: str) -> None:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            if not isinstance(key, str):
                # `1:`, `1.5:`, `~:`, `yes:`, `2001-01-01:` are keys of other types in YAML;
                # every key of a table or a case is text.
                shown = key_node.value if isinstance(key_node, yaml.ScalarNode) else key_node.tag
                kind = "null" if key is None else type(key).__name__
                problems.append(Problem(file, format_path(path), f"the key {shown!r} is read as {kind}, not text: "
                                        "quote it, or use a text key", line))
                continue
            if key in seen:
                problems.append(Problem(file, format_path(path + (key,)),
                                        f"duplicate key {key!r} (first at line {seen[key]})", line))
            seen[key] = line
            _walk(loader, value_node, path + (key,), lines, problems, file)
            lines[path + (key,)] = line
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(loader, item, path + (index,), lines, problems, file)


def _shape_problem(text: str, file: str, loader: type = _EventLoader) -> Problem | None:
    """What would make the recursive YAML loader overflow or hang: nesting deeper than
    MAX_DEPTH, or aliases expanding beyond MAX_ALIAS_NODES. Found from the parser's events
    (iterative, cheap); a syntax error is left for the loader to report. (libyaml refuses
    1000 levels before its first event: the pure-Python parser then finds the line.)"""
    sizes: dict[str, int] = {}          # anchor -> nodes under it, aliases expanded
    stack: list[list[Any]] = [[None, 0]]
    added = 0
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, yaml.CollectionStartEvent):
                stack.append([event.anchor, 1])
                if len(stack) > MAX_DEPTH + 1:
                    return Problem(file, "$", f"nested more than {MAX_DEPTH} levels deep", event.start_mark.line + 1)
                continue
            if isinstance(event, yaml.CollectionEndEvent):
                anchor, size = stack.pop()
            elif isinstance(event, yaml.ScalarEvent):
                anchor, size = event.anchor, 1 + len(event.value) // CHARS_PER_NODE
            elif isinstance(event, yaml.AliasEvent):
                anchor, size = None, sizes.get(event.anchor, 1)
                added += size
                if added > MAX_ALIAS_NODES:
                    return Problem(file, "$", f"YAML aliases expand to more than {MAX_ALIAS_NODES} nodes "
                                   f"(a scalar counting one node per {CHARS_PER_NODE} characters)",
                                   event.start_mark.line + 1)
            else:
                continue
            if anchor is not None:
                sizes[anchor] = size
            stack[-1][1] += size
    except yaml.YAMLError:
        return _shape_problem(text, file, yaml.SafeLoader) if loader is not yaml.SafeLoader else None
    return None


def _unconstructable_line(text: str) -> int | None:
    """The line of the first scalar the safe constructor refuses with a ValueError (a date
    such as 2001-02-30, an integer of thousands of digits)."""
    loader = yaml.SafeLoader(text)
    try:
        pending, seen = [loader.get_single_node()], set()
        while pending:
            node = pending.pop()
            if node is None or id(node) in seen:
                continue
            seen.add(id(node))
            if isinstance(node, yaml.ScalarNode):
                try:
                    loader.construct_object(node)
                except ValueError:
                    return node.start_mark.line + 1
            else:
                for item in reversed(node.value):
                    pending.extend(reversed(item) if isinstance(item, tuple) else [item])
    except (yaml.YAMLError, ValueError, RecursionError):
        return None
    finally:
        loader.dispose()
    return None




def _load_text(text: str, file: str) -> Located:
    loader = _EventLoader(text)       # libyaml's safe loader where PyYAML has it: the corpus is large
    try:
        try:
            node = loader.get_single_node()
        except yaml.reader.ReaderError:
            raise                      # located by load_text from its position
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = mark.line + 1 if mark else None
            raise SpecError(Problem(file, "$", f"not valid YAML: {exc.problem or exc}", line)) from None
        except yaml.YAMLError as exc:
            raise SpecError(Problem(file, "$", f"not valid YAML: {exc}")) from None
        if node is None:
            return Located(None, file, {(): 1})
        lines: dict[PathTuple, int] = {}
        problems: list[Problem] = []
        try:
            data = loader.construct_document(node)
            _walk(loader, node, (), lines, problems, file)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            raise SpecError(Problem(file, "$", f"not valid YAML: {exc}", mark.line + 1 if mark else None)) from None
        if problems:
            raise SpecError(problems)
        return Located(data, file, lines)
    finally:
        loader.dispose()


class _Unusual(Exception):
    """Raised by the quick loader at anything it leaves to the careful one."""


_TAG = "tag:yaml.org,2002:"
_Scalar, _Mapping, _Sequence = yaml.ScalarNode, yaml.MappingNode, yaml.SequenceNode
_STR, _MAP, _SEQ, _INT, _BOOL, _NULL, _FLOAT = (_TAG + name for name in ("str", "map", "seq", "int", "bool", "null", "float"))


class _QuickLoader(_EventLoader):     # type: ignore[misc,valid-type]
    """libyaml's safe parser with a constructor for plain files only. It builds the data in
    one recursive walk of the node tree, where PyYAML's safe constructor runs a generator per
    collection and a method lookup per scalar (two thirds of a cold load). Anything else it
    refuses (to the careful path): keys that are not text, repeated keys, merge keys, YAML's
    sets and ordered maps, nesting deeper than MAX_DEPTH. Scalars other than text, whole
    numbers, booleans and nulls are left to the safe constructor, so every value means what
    ``yaml.safe_load`` makes of it. It notes whether any scalar was a float (see
    reference_impl.schemas._surely_valid) and whether the data is surely JSON (only text,
    whole numbers, booleans and nulls), which the cache needs to know."""

    saw_float = False
    surely_json = True
    plain_tags: dict[str, str] = {}    # a plain scalar's implicit tag, by its text

    def resolve(self, kind: type, value: Any, implicit: tuple[bool, bool]) -> str:
        """The tag of an untagged node, as the safe resolver gives it, remembered for plain
        scalars: a corpus spells the same few hundred words hundreds of thousands of times,
        and the resolver tries its patterns on each (a fifth of a cold load)."""
        if kind is not _Scalar:
            return super().resolve(kind, value, implicit)
        if not implicit[0]:
            return _STR                # quoted, or a block scalar: text whatever it spells
        tag = self.plain_tags.get(value)
        if tag is None:
            tag = super().resolve(kind, value, implicit)
            if len(self.plain_tags) < 100_000:
                self.plain_tags[value] = tag
        return tag

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        """Nothing: the safe loader has no path resolvers (libyaml's composer calls this
        and ascend_resolver for every node)."""

    def ascend_resolver(self) -> None:
        """Nothing, as descend_resolver."""

    def build(self, node: yaml.Node, depth: int = 0) -> Any:
        kind = type(node)
        if kind is _Scalar:
            tag, value = node.tag, node.value
            if tag == _STR:
                return value
            if tag == _INT and value.isdigit() and value.isascii() and (value[0] != "0" or value == "0"):
                return int(value)      # the safe constructor's other spellings (0x1f, 1_000, 1:30) below
            if tag == _NULL:
                return None
            if tag == _BOOL:
                return self.bool_values[value.lower()]
            self.saw_float = self.saw_float or tag == _FLOAT
            self.surely_json = False   # a float may be NaN, which JSON reads back unequal
            return self.construct_object(node, deep=True)
        if depth >= MAX_DEPTH:
            raise _Unusual
        if kind is _Mapping and node.tag == _MAP:
            data: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if type(key_node) is not _Scalar or key_node.tag != _STR or key_node.value in data:
                    raise _Unusual
                data[key_node.value] = self.build(value_node, depth + 1)
            return data
        if kind is _Sequence and node.tag == _SEQ:
            return [self.build(item, depth + 1) for item in node.value]
        raise _Unusual


def _parse_quickly(text: str, file: str) -> Located | None:
    """The data of a plain, valid file, without its lines (worked out on demand); None for
    anything else: aliases, a syntax error, an odd key, deep nesting, a refused scalar. The
    careful path then reads it again and locates the trouble. Most files a run reads are
    plain and valid, and this costs a fifth of the careful path."""
    if "&" in text or "*" in text:         # perhaps an anchor or an alias: the careful path weighs them
        return None
    loader = _QuickLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        data = loader.build(node)
    except Exception:                  # noqa: BLE001 - every failure is the careful path's to report
        return None
    finally:
        loader.dispose()
    return Located(data, file, text=text, root_line=node.start_mark.line + 1, has_float=loader.saw_float,
                   surely_json=loader.surely_json)


def load_text(text: str, file: str = "<input>") -> Located:
    """Parse YAML text with the safe loader; raise :class:`SpecError` on any problem.

    Guarded against YAML the recursive loader cannot survive: nesting or aliases that would
    overflow or hang it, scalars its constructor refuses with a ValueError rather than a
    YAML error, and characters its reader refuses. A text parsed before (the same bytes)
    is read back from the cache (:mod:`reference_impl.cache`)."""
    key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    cached = cache.read(CACHE_KIND, key)
    if isinstance(cached, dict) and cached.keys() == {"data", "root", "float"}:
        return Located(cached["data"], file, text=text, root_line=cached["root"], has_float=cached["float"])
    located = _parse_quickly(text, file) or _parse_carefully(text, file)
    try:
        if located.surely_json or json.loads(json.dumps(located.data)) == located.data:      # JSON keeps it exactly
            cache.write(CACHE_KIND, key, {"data": located.data, "root": located.root_line, "float": located.has_float},
                        plain=located.surely_json)
    except (TypeError, ValueError):
        pass
    return located


def _parse_carefully(text: str, file: str) -> Located:
    problem = _shape_problem(text, file)
    if problem is not None:
        raise SpecError(problem)
    try:
        return _load_text(text, file)
    except yaml.reader.ReaderError as exc:      # a control character, refused before parsing
        char = f"#x{exc.character:04x}" if isinstance(exc.character, int) else repr(exc.character)
        raise SpecError(Problem(file, "$", f"not valid YAML: character {char}: {exc.reason}",
                                text.count("\n", 0, exc.position) + 1)) from None
    except (ValueError, RecursionError) as exc:
        raise SpecError(Problem(file, "$", f"not valid YAML: {exc}", _unconstructable_line(text))) from None


def size_problem(path: Path) -> Problem | None:
    """A file too large to be a rule table or a case file, found before it is read (parsing
    YAML costs a hundred times the file's size in memory), or None."""
    try:
        size = path.stat().st_size
    except OSError:
        return None                    # (reading it says why)
    if size > MAX_FILE_BYTES:
        return Problem(str(path), "$", f"{size} bytes: larger than a rule table or case file can be "
                                       f"({MAX_FILE_BYTES // (1024 * 1024)} MiB)")
    return None


def load_file(path: str | Path) -> Located:
    """Read and parse a YAML file; a missing, unreadable or too large file is a :class:`SpecError`."""
    path = Path(path)
    too_large = size_problem(path)
    if too_large is not None:
        raise SpecError(too_large)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(Problem(str(path), "$", f"cannot read file: {exc}")) from None
    return load_text(text, str(path))
