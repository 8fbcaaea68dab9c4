"""Help pages that fit the terminal when they hold Chinese: click measures text in characters, but
a CJK character (East Asian width W or F) takes two columns, so a line of help with 中文 ran past
the terminal's edge. :class:`HelpFormatter` wraps and aligns by display width; every command of
``guobiao`` is a :class:`Command` or :class:`Group`, whose context (:class:`Context`) uses it.
Click itself is left as it is: these are subclasses.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from gettext import gettext as _
from unicodedata import east_asian_width

import click

__all__ = ["Command", "Context", "Group", "HelpFormatter", "display_width", "wrap_text"]


def char_width(ch: str) -> int:
    """The columns the character ``ch`` takes in a terminal: 2 for a wide or full-width one."""
    return 2 if east_asian_width(ch) in "WF" else 1


def display_width(text: str) -> int:
    """The columns ``text`` (one line) takes in a terminal: a CJK character counts two."""
    return sum(map(char_width, text))


class _Wrapper(textwrap.TextWrapper):
    """:class:`textwrap.TextWrapper` filling lines by display width: the same chunks (words and
    the white space between them), measured in columns; a word wider than a line is cut where a
    column runs out (between two CJK characters, as Chinese text may be broken)."""

    def _wrap_chunks(self, chunks: list[str]) -> list[str]:
        lines: list[str] = []
        chunks.reverse()
        while chunks:
            line: list[str] = []
            used = 0
            indent = self.subsequent_indent if lines else self.initial_indent
            width = self.width - display_width(indent)
            if self.drop_whitespace and lines and not chunks[-1].strip():
                del chunks[-1]
            while chunks and used + display_width(chunks[-1]) <= width:
                used += display_width(chunks[-1])
                line.append(chunks.pop())
            if chunks and display_width(chunks[-1]) > width:
                self._handle_long_word(chunks, line, used, width)
            if self.drop_whitespace and line and not line[-1].strip():
                del line[-1]
            if line:
                lines.append(indent + "".join(line))
        return lines

    def _handle_long_word(
        self, reversed_chunks: list[str], cur_line: list[str], cur_len: int, width: int
    ) -> None:
        room = max(width - cur_len, 1)
        if not self.break_long_words:
            if not cur_line:
                cur_line.append(reversed_chunks.pop())
            return
        chunk = reversed_chunks[-1]
        end = used = 0
        for ch in chunk:
            if used + char_width(ch) > room:
                break
            used += char_width(ch)
            end += 1
        if end == 0 and not cur_line:
            end = 1  # a line narrower than one character: one each, not none
        if end:
            cur_line.append(chunk[:end])
            reversed_chunks[-1] = chunk[end:]


def wrap_text(
    text: str,
    width: int,
    initial_indent: str = "",
    subsequent_indent: str = "",
    preserve_paragraphs: bool = False,
) -> str:
    """:func:`click.formatting.wrap_text` by display width: paragraphs (blank lines between)
    refilled, each at the indent of its first line, and one starting with a line holding ``\\b``
    kept as written, only indented."""
    wrapper = _Wrapper(
        width,
        initial_indent=initial_indent,
        subsequent_indent=subsequent_indent,
        replace_whitespace=False,
    )
    text = text.expandtabs()
    if not preserve_paragraphs:
        return wrapper.fill(text)
    out = []
    for block in _blocks(text):
        extra = " " * (len(block[0]) - len(block[0].lstrip()))
        first, second = initial_indent + extra, subsequent_indent + extra
        if block[0].strip() == "\b":  # kept as written, only indented
            out.append(
                "\n".join((second if i else first) + line for i, line in enumerate(block[1:]))
            )
        else:
            wrapper.initial_indent, wrapper.subsequent_indent = first, second
            out.append(wrapper.fill(" ".join([block[0].lstrip(), *block[1:]])))
    return "\n\n".join(out)


def _blocks(text: str) -> list[list[str]]:
    """The paragraphs of ``text`` as click reads them: runs of non-empty lines."""
    blocks: list[list[str]] = [[]]
    for line in text.splitlines():
        if line:
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    return [block for block in blocks if block]


class HelpFormatter(click.HelpFormatter):
    """Click's help formatter wrapping and aligning by display width (:func:`display_width`)."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        if prefix is None:
            prefix = _("Usage:") + " "
        usage_prefix = f"{prefix:>{self.current_indent}}{prog} "
        text_width = self.width - self.current_indent
        if not args:
            self.write(usage_prefix.rstrip(" ") + "\n")
            return
        if text_width >= display_width(usage_prefix) + 20:
            indent = " " * display_width(usage_prefix)
            self.write(wrap_text(args, text_width, usage_prefix, indent))
        else:
            self.write(usage_prefix + "\n")
            indent = " " * (max(self.current_indent, display_width(prefix)) + 4)
            self.write(wrap_text(args, text_width, indent, indent))
        self.write("\n")

    def write_text(self, text: str) -> None:
        indent = " " * self.current_indent
        self.write(wrap_text(text, self.width, indent, indent, preserve_paragraphs=True))
        self.write("\n")

    def write_dl(
        self,
        rows: Iterable[tuple[str, str]],
        col_max: int = 30,
        col_spacing: int = 2,
    ) -> None:
        table: list[tuple[str, str]] = []
        for row in rows:
            if len(row) != 2:
                raise TypeError("Expected two columns for definition list")
            table.append((row[0], row[1]))
        widest = max((display_width(first) for first, _second in table), default=0)
        first_col = min(widest, col_max) + col_spacing
        margin = " " * self.current_indent
        for first, second in table:
            self.write(f"{margin}{first}")
            if not second:
                self.write("\n")
                continue
            if display_width(first) <= first_col - col_spacing:
                self.write(" " * (first_col - display_width(first)))
            else:
                self.write("\n" + " " * (first_col + self.current_indent))
            text_width = max(self.width - first_col - 2, 10)
            lines = wrap_text(second, text_width, preserve_paragraphs=True).splitlines()
            if not lines:
                self.write("\n")
                continue
            self.write(f"{lines[0]}\n")
            for line in lines[1:]:
                self.write(f"{'':>{first_col + self.current_indent}}{line}\n")


class Context(click.Context):
    """A command's context, formatting its help by display width."""

    formatter_class = HelpFormatter


def _shorten(text: str, limit: int) -> str:
    """``text`` cut at a word to at most ``limit`` columns, "..." marking the cut."""
    if display_width(text) <= limit:
        return text
    kept = ""
    for word in text.split():
        candidate = f"{kept} {word}" if kept else word
        if display_width(candidate) + 3 > limit:
            break
        kept = candidate
    return kept + "..."


class Command(click.Command):
    """A ``guobiao`` command: help fitted by display width; the short help of a group's list of
    commands cut by display width as well."""

    context_class = Context

    def get_short_help_str(self, limit: int = 45) -> str:
        if self.short_help:
            return super().get_short_help_str(limit)
        return _shorten(super().get_short_help_str(10**6), limit)


class Group(click.Group):
    """A ``guobiao`` command group: as :class:`Command`, and its commands are :class:`Command`\\ s
    and :class:`Group`\\ s."""

    context_class = Context
    command_class = Command
    group_class = type

    def get_short_help_str(self, limit: int = 45) -> str:
        if self.short_help:
            return super().get_short_help_str(limit)
        return _shorten(super().get_short_help_str(10**6), limit)
