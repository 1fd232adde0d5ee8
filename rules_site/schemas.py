"""A browsable page for every JSON Schema in ``spec/schema``, and the schema files themselves.

Each page shows the schema's title and description, a download link to the file (copied into
the site next to the page), and a table of properties for the root object, for every nested
object and for every definition, from the schema's own descriptions; ``$ref`` becomes a link.
"""

from __future__ import annotations

import json
import posixpath
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .links import SCHEMA_INDEX, Links, code, md_cell, md_text
from .variant import Anchors


MAX_INLINE_SOURCE = 40_000     # characters of JSON shown on the page; a longer schema is linked


@dataclass(frozen=True)
class SchemaFile:
    path: Path
    rel: str             # under spec/schema, e.g. protocol/act.schema.json

    @property
    def page(self) -> str:
        name = self.rel[: -len(".schema.json")] if self.rel.endswith(".schema.json") else self.rel[: -len(".json")]
        return f"schema/{name}.md"

    @property
    def download(self) -> str:
        return f"schema/{self.rel}"

    def load(self) -> dict[str, Any]:
        return json.loads(self.path.read_text(encoding="utf-8"))


def schema_files(schema_dir: Path) -> list[SchemaFile]:
    return [SchemaFile(p, p.relative_to(schema_dir).as_posix()) for p in sorted(schema_dir.rglob("*.json"))]


def slug(path: str) -> str:
    return path.replace(".", "-").replace("/", "-").replace("$", "").replace("_", "-").lower()


class SchemaPage:
    def __init__(self, schema_file: SchemaFile, by_rel: dict[str, SchemaFile], links: Links):
        self.file = schema_file
        self.schema = schema_file.load()
        self.by_rel = by_rel
        self.links = links
        self.anchors = Anchors(schema_file.page)
        self.sections: list[tuple[str, str, dict[str, Any]]] = []    # (anchor, title, object schema)
        self.anchor_of: dict[int, str] = {}                          # id(schema) -> anchor

    def ref_link(self, ref: str) -> str:
        target, _, fragment = ref.partition("#")
        name = fragment.rsplit("/", 1)[-1] if fragment else ""
        if not target:
            return f"[{md_text(name or 'the schema')}](#def-{slug(name)})" if name else "[the schema](#root)"
        rel = posixpath.normpath(posixpath.join(posixpath.dirname(self.file.rel), target))
        other = self.by_rel.get(rel)
        label = md_text(f"{target}{'#' + name if name else ''}")
        if other is None:
            return f"`{label}`"
        return f"[{label}]({self.links.to(other.page, 'def-' + slug(name) if name else None)})"

    def type_text(self, schema: Any, path: str) -> str:
        if schema is True:
            return "anything"
        if schema is False:
            return "nothing"
        if not isinstance(schema, dict):
            return md_text(str(schema))
        parts = []
        if "$ref" in schema:
            parts.append(self.ref_link(schema["$ref"]))
        if "const" in schema:
            parts.append(f"{code(json.dumps(schema['const']))}")
        if "enum" in schema:
            parts.append("one of " + ", ".join(f"{code(json.dumps(v))}" for v in schema["enum"]))
        for key in ("oneOf", "anyOf"):
            if key in schema:
                parts.append(" or ".join(self.type_text(s, f"{path}.{key}") for s in schema[key]))
        kinds = schema.get("type")
        if isinstance(kinds, list):
            kinds = " or ".join(kinds)
        if kinds == "array" or "items" in schema or "prefixItems" in schema:
            if "prefixItems" in schema:
                parts.append("array [" + ", ".join(self.type_text(s, f"{path}[]") for s in schema["prefixItems"]) + "]")
            elif isinstance(schema.get("items"), dict):
                parts.append("array of " + self.type_text(schema["items"], f"{path}[]"))
            else:
                parts.append("array")
        elif kinds == "object" or "properties" in schema:
            if "properties" in schema:
                anchor = self.add_section(f"prop-{slug(path)}", f"`{path}`", schema)
                parts.append(f"[object](#{anchor})")
            elif isinstance(schema.get("additionalProperties"), dict):
                parts.append("map of " + self.type_text(schema["additionalProperties"], f"{path}.*"))
            else:
                parts.append("object")
        elif kinds and not parts:
            parts.append(str(kinds))
        elif kinds and kinds not in ("string", "integer", "boolean", "number", "null"):
            parts.append(str(kinds))
        limits = []
        for key, word in (("minimum", "≥"), ("maximum", "≤"), ("minLength", "length ≥"), ("maxLength", "length ≤"),
                          ("minItems", "items ≥"), ("maxItems", "items ≤")):
            if key in schema:
                limits.append(f"{word} {schema[key]}")
        if "pattern" in schema:
            limits.append(f"pattern {code(schema['pattern'])}")
        if schema.get("uniqueItems"):
            limits.append("unique items")
        text = " ".join(parts) or "any"
        return text + (f" ({', '.join(limits)})" if limits else "")

    def add_section(self, anchor: str, title: str, schema: dict[str, Any]) -> str:
        if id(schema) in self.anchor_of:
            return self.anchor_of[id(schema)]
        anchor = self.anchors.claim(anchor)
        self.anchor_of[id(schema)] = anchor
        self.sections.append((anchor, title, schema))
        return anchor

    def table(self, schema: dict[str, Any], path: str) -> list[str]:
        required = set(schema.get("required", []))
        lines = ["| Property | Type | Required | Description |", "|---|---|---|---|"]
        for name, prop in (schema.get("properties") or {}).items():
            sub = f"{path}.{name}" if path else name
            description = prop.get("description", "") if isinstance(prop, dict) else ""
            lines.append(f"| {code(name)} | {md_cell(self.type_text(prop, sub))} | {'yes' if name in required else ''} | "
                         f"{md_cell(description)} |")
        extra = schema.get("additionalProperties")
        if extra is False:
            lines += ["", "No other properties are allowed."]
        elif isinstance(extra, dict):
            lines += ["", f"Other properties: {self.type_text(extra, path + '.*')}."]
        rules = [k for k in ("if", "allOf", "oneOf", "anyOf", "not", "dependentRequired") if k in schema]
        if rules:
            lines += ["", "Also: " + "; ".join(f"`{k}` {code(json.dumps(schema[k], ensure_ascii=False))}" for k in rules) + "."]
        return lines

    def nested(self, sections: list[tuple[str, str, dict[str, Any]]], level: int) -> list[str]:
        """The sections of nested objects, each followed at once by the objects nested in it."""
        lines: list[str] = []
        for anchor, title, sub in sections:
            before = len(self.sections)
            lines += ["", f"{'#' * level} {title} {{#{anchor}}}", ""]
            if sub.get("description"):
                lines += [md_cell(sub["description"]), ""]
            lines += self.table(sub, title.strip("`"))
            lines += self.nested(self.sections[before:], level)
        return lines

    def render(self) -> str:
        schema = self.schema
        name = posixpath.basename(self.file.rel)
        title = schema.get("title", name)
        lines = [f"# {md_text(title)}", "", md_cell(schema.get("description", "")), "",
                 f"[Download {code(name)}]({name}){{: .md-button }} · `$id` {code(schema.get('$id', ''))} · "
                 f"JSON Schema {code(schema.get('$schema', ''))} · [all schemas]({self.links.to(SCHEMA_INDEX)})", ""]
        self.anchors.claim("root")
        defs = schema.get("$defs") or {}
        for def_name, definition in defs.items():      # claim the definitions' anchors first: refs link to them
            self.anchor_of[id(definition)] = self.anchors.claim(f"def-{slug(def_name)}")
        lines += ["## The document {#root}", ""]
        if "properties" in schema:
            lines += self.table(schema, "")
        else:
            lines.append(f"Type: {self.type_text(schema, '')}.")
            rules = {k: v for k, v in schema.items() if k in ("if", "then", "else", "allOf", "oneOf", "anyOf")}
            if rules:
                lines += self.table(rules, "")[2:]
        if self.sections:
            lines += ["", "## Nested objects {#nested}"] + self.nested(list(self.sections), 3)
        if defs:
            lines += ["", "## Definitions {#definitions}"]
            for def_name, definition in defs.items():
                lines += ["", f"### {code(def_name)} {{#{self.anchor_of[id(definition)]}}}", ""]
                if isinstance(definition, dict):
                    if definition.get("description"):
                        lines += [md_cell(definition["description"]), ""]
                    before = len(self.sections)
                    if "properties" in definition:
                        lines += self.table(definition, def_name)
                    else:
                        lines.append(f"Type: {self.type_text(definition, def_name)}.")
                    lines += self.nested(self.sections[before:], 4)
        source = json.dumps(schema, indent=2, ensure_ascii=False)
        lines += ["", "## The schema {#source}", ""]
        if len(source) > MAX_INLINE_SOURCE:
            # Drawn with highlighting, a long schema alone would weigh several hundred KB of HTML:
            # the file is one click away instead.
            lines += [f"The schema is {len(source) // 1000} KB of JSON, too long to show here: "
                      f"[download {md_text(name)}]({posixpath.basename(self.file.download)})."]
        else:
            lines += [f'??? abstract "{md_text(name)}"', "",
                      "    ```json"] + ["    " + line for line in source.splitlines()] + ["    ```"]
        return "\n".join(lines) + "\n"


def render_schema_index(files: list[SchemaFile], links: Links) -> str:
    lines = ["# JSON Schemas", "",
             "The specification's data formats, as JSON Schema (draft 2020-12). Each has a page listing its properties "
             "from its own descriptions, and can be downloaded as it is in the repository's `spec/schema/`.", "",
             "| Schema | What it describes | File |", "|---|---|---|"]
    for schema_file in files:
        schema = schema_file.load()
        name = posixpath.basename(schema_file.rel)
        description = schema.get("description", "")
        first = description.split(". ")[0].rstrip(".") + "." if description else ""
        lines.append(f"| [{md_text(schema.get('title', name))}]({links.to(schema_file.page)}) | {md_cell(first)} | "
                     f"[{md_text(schema_file.rel)}]({links.to(schema_file.download)}) |")
    return "\n".join(lines) + "\n"


def render_schema_page(schema_file: SchemaFile, files: list[SchemaFile]) -> str:
    by_rel = {f.rel: f for f in files}
    return SchemaPage(schema_file, by_rel, Links(schema_file.page)).render()
