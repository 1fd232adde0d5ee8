"""Read YAML safely while remembering where every value came from.

PyYAML's ``safe_load`` forgets line numbers, yet a useful error has to say "line 12, at
``$.deck.ranks[5]``". We compose the node graph with the safe loader, keep each node's
position by JSON path, and construct the data from that same graph, so the data and the
positions can never disagree. Duplicate mapping keys, which ``safe_load`` silently
collapses, are reported as problems.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import yaml

from .errors import Problem, SpecError

PathTuple = tuple[Any, ...]


def format_path(path: Iterable[Any]) -> str:
    """Render a path as JSONPath-like text: ``$.deck.ranks[5]``."""
    text = "$"
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            text += f"[{part}]"
        else:
            text += f".{part}"
    return text


@dataclass(eq=False)
class Located:
    """Data loaded from a file, with the line of every path in it."""

    data: Any
    file: str
    lines: dict[PathTuple, int] = field(default_factory=dict)

    def line_of(self, path: Iterable[Any]) -> int | None:
        """The line of ``path`` or of its nearest ancestor that the file spells out."""
        parts = tuple(path)
        while True:
            if parts in self.lines:
                return self.lines[parts]
            if not parts:
                return None
            parts = parts[:-1]

    def problem(self, path: Iterable[Any], message: str) -> Problem:
        parts = tuple(path)
        return Problem(self.file, format_path(parts), message, self.line_of(parts))


def _walk(loader: yaml.SafeLoader, node: yaml.Node, path: PathTuple,
          lines: dict[PathTuple, int], problems: list[Problem], file: str) -> None:
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            if isinstance(key, (list, dict)):
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


def load_text(text: str, file: str = "<input>") -> Located:
    """Parse YAML text with the safe loader; raise :class:`SpecError` on any problem."""
    loader = yaml.SafeLoader(text)
    try:
        try:
            node = loader.get_single_node()
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


def load_file(path: str | Path) -> Located:
    """Read and parse a YAML file; a missing or unreadable file is a :class:`SpecError`."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(Problem(str(path), "$", f"cannot read file: {exc}")) from None
    return load_text(text, str(path))
