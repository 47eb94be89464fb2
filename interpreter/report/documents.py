"""A report page as plain data (facts, tables, charts) and its two renderings: a self-contained
HTML page (inline CSS, no network) and Markdown.

Every text here may come from user files (card names, end reasons, options), so both writers
escape all of it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Table:
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""  # shown under the table
    muted: frozenset[int] = field(default_factory=frozenset)  # indexes of rows shown muted


@dataclass(frozen=True)
class Chart:
    title: str
    file: str  # a PNG beside the page


Section = Table | Chart


@dataclass(frozen=True)
class Document:
    title: str
    facts: tuple[tuple[str, str], ...]  # (label, value) shown under the title
    sections: tuple[Section, ...]
    headline: tuple[str, ...] = ()  # lines right under the title, before anything else (the agents by seat)
    cautions: tuple[str, ...] = ()  # shown boxed under the headline: what may make the figures mislead


STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto; max-width: 72em;
       padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.2em; margin-top: 2em; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.6em; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; white-space: normal; }
th { background: #f3f3f3; position: sticky; top: 0; }
tr.muted td { color: #999; }
p.headline { font-size: 1.1em; font-weight: 600; margin: 0.3em 0; }
div.caution { border-left: 4px solid #c44e52; background: #fdf1f1; padding: 0.5em 1em; margin: 0.6em 0;
              max-width: 60em; }
p.note { color: #555; font-size: 0.9em; max-width: 60em; }
figure { margin: 1em 0; } img { max-width: 100%; }
"""


def _h(text: str) -> str:
    return html.escape(text, quote=True)


def _html_table(table: Table) -> str:
    head = "".join(f"<th>{_h(h)}</th>" for h in table.headers)
    body = []
    for index, row in enumerate(table.rows):
        muted = ' class="muted"' if index in table.muted else ""
        body.append(f"<tr{muted}>" + "".join(f"<td>{_h(cell)}</td>" for cell in row) + "</tr>")
    parts = [f"<h2>{_h(table.title)}</h2>", f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>",
             *body, "</tbody>\n</table>"]
    if table.note:
        parts.append(f'<p class="note">{_h(table.note)}</p>')
    return "\n".join(parts)


def _html_chart(chart: Chart) -> str:
    return (f"<figure><img src=\"{_h(chart.file)}\" alt=\"{_h(chart.title)}\">"
            f"<figcaption>{_h(chart.title)}</figcaption></figure>")


def to_html(document: Document) -> str:
    facts = "\n".join(f"<dt>{_h(label)}</dt><dd>{_h(value)}</dd>" for label, value in document.facts)
    sections = [_html_table(s) if isinstance(s, Table) else _html_chart(s) for s in document.sections]
    headline = [f'<p class="headline">{_h(line)}</p>' for line in document.headline]
    cautions = [f'<div class="caution" role="note">{_h(line)}</div>' for line in document.cautions]
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        f"<title>{_h(document.title)}</title>", f"<style>{STYLE}</style>", "</head>", "<body>",
        f"<h1>{_h(document.title)}</h1>", *headline, *cautions, f'<dl class="facts">\n{facts}\n</dl>', *sections,
        "</body>", "</html>", "",
    ])


# Characters that would start Markdown emphasis, code, raw HTML or a table cell.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_<>|])")


def _md(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(text.splitlines()))


def _md_table(table: Table) -> str:
    lines = [f"## {_md(table.title)}", "", "| " + " | ".join(_md(h) for h in table.headers) + " |",
             "|" + "|".join(":--" if i == 0 else "--:" for i in range(len(table.headers))) + "|"]
    lines += ["| " + " | ".join(_md(cell) for cell in row) + " |" for row in table.rows]
    if table.note:
        lines += ["", _md(table.note)]
    return "\n".join(lines)


def to_markdown(document: Document) -> str:
    parts = [f"# {_md(document.title)}"]
    parts += [f"**{_md(line)}**" for line in document.headline]
    parts += [f"> {_md(line)}" for line in document.cautions]
    parts.append("\n".join(f"- **{_md(label)}**: {_md(value)}" for label, value in document.facts))
    for section in document.sections:
        if isinstance(section, Table):
            parts.append(_md_table(section))
        else:
            parts.append(f"![{_md(section.title)}]({section.file})")
    return "\n\n".join(parts) + "\n"
