"""Applying hunks to a file's lines, as GNU patch does.

A hunk is looked for where its line numbers say, moved by the offset the previous hunk
needed, then ever farther forward and backward; with fuzz F the first and last F lines
of context may differ (a hunk with less context on one side than the other is anchored
to the start or the end of the file). Context lines are not rewritten: the file's own
text stays, so a hunk applied with fuzz keeps the file's version of its context. Lines
are bytes; the last one may lack its newline."""

from __future__ import annotations

from tysh.builtins.patch.parse import Hunk, PatchFatal
from tysh.kernel.base.record import MutableRecord, field, mutable


@mutable
class Target(MutableRecord):
    """One file being patched: its input lines and the output built so far."""

    lines: list[bytes]
    out: list[bytes] = field(factory=list)  # chunks of output
    last_frozen: int = 0  # input lines already copied out or consumed
    in_offset: int = 0  # where hunks are found, relative to where they say
    out_offset: int = 0  # lines the applied hunks added (negative: removed)
    ignore_ws: bool = False  # -l
    defines: str | None = None  # -D NAME
    zero_output: bool = True  # nothing written yet
    after_newline: bool = True  # the output so far ends with a newline

    # ---------------------------------------------------------------- finding
    def _line(self, n: int) -> bytes:
        """Input line n (1-based); empty beyond either end."""
        return self.lines[n - 1] if 1 <= n <= len(self.lines) else b""

    def matches(self, hunk: Hunk, base: int, offset: int, prefix_fuzz: int,
                suffix_fuzz: int) -> bool:
        old = hunk.old
        pline = prefix_fuzz
        last = len(old) - suffix_fuzz
        iline = base + offset + prefix_fuzz
        while pline < last:
            have = self._line(iline)
            want = old[pline][1]
            if self.ignore_ws:
                if not similar(have, want):
                    return False
            elif have != want:
                return False
            pline += 1
            iline += 1
        return True

    def locate(self, hunk: Hunk, fuzz: int) -> int:
        """The input line where `hunk` applies with this fuzz, 0 when nowhere; moves
        `in_offset` to the offset it needed."""
        first_guess = hunk.first + self.in_offset
        pat_lines = len(hunk.old)
        prefix_context = hunk.prefix_context
        suffix_context = hunk.suffix_context
        context = max(prefix_context, suffix_context)
        prefix_fuzz = fuzz + prefix_context - context
        suffix_fuzz = fuzz + suffix_context - context
        input_lines = len(self.lines)
        max_where = input_lines - (pat_lines - suffix_fuzz) + 1
        min_where = self.last_frozen + 1
        max_pos_offset = max_where - first_guess
        max_neg_offset = first_guess - min_where
        max_offset = max(max_pos_offset, max_neg_offset)
        if not pat_lines:
            return first_guess
        if first_guess <= max_neg_offset:
            max_neg_offset = first_guess - 1
        if prefix_fuzz < 0 and hunk.first <= 1:
            # only the start of the file will do
            if suffix_fuzz < 0 and (pat_lines != input_lines
                                    or prefix_context < self.last_frozen):
                return 0  # (and only the whole file)
            offset = 1 - first_guess
            if self.last_frozen <= prefix_context and offset <= max_pos_offset \
                    and self.matches(hunk, first_guess, offset, 0, suffix_fuzz):
                self.in_offset += offset
                return first_guess + offset
            return 0
        if prefix_fuzz < 0:
            prefix_fuzz = 0
        if suffix_fuzz < 0:
            # only the end of the file will do
            offset = first_guess - (input_lines - pat_lines + 1)
            if offset <= max_neg_offset \
                    and self.matches(hunk, first_guess, -offset, prefix_fuzz, 0):
                self.in_offset -= offset
                return first_guess - offset
            return 0
        if max_pos_offset < 0:
            min_offset = first_guess - max_where
        elif max_neg_offset < 0:
            min_offset = first_guess - min_where
        else:
            min_offset = 0
        for offset in range(min_offset, max_offset + 1):
            if offset <= max_pos_offset and self.matches(hunk, first_guess, offset,
                                                         prefix_fuzz, suffix_fuzz):
                self.in_offset += offset
                return first_guess + offset
            if offset <= max_neg_offset and self.matches(hunk, first_guess, -offset,
                                                         prefix_fuzz, suffix_fuzz):
                self.in_offset -= offset
                return first_guess - offset
        return 0

    # ---------------------------------------------------------------- writing
    def _write(self, line: bytes, fix_newline: bool) -> None:
        if fix_newline and not self.after_newline:
            self.out.append(b"\n")
        self.out.append(line)
        self.after_newline = line.endswith(b"\n")
        self.zero_output = False

    def _write_text(self, text: str, ends_line: bool = False) -> None:
        """A `#ifdef` line of -D, with a newline first only when the output ends
        mid-line. As in GNU patch, only `#endif` records that the output now ends
        with a newline."""
        if text.startswith("\n") and self.after_newline:
            text = text[1:]
        self.out.append(text.encode())
        if ends_line:
            self.after_newline = True

    def copy_till(self, lastline: int) -> bool:
        """Copy input lines up to `lastline`; False when hunks are out of order."""
        if self.last_frozen > lastline:
            return False
        while self.last_frozen < lastline:
            self.last_frozen += 1
            line = self._line(self.last_frozen)
            if line:
                self._write(line, True)
        return True

    def different_line_endings(self, hunk: Hunk, where: int) -> bool:
        """Whether the hunk's first line and the file's line at `where` disagree on
        CRLF (GNU adds `(different line endings)` to a failed hunk's message)."""
        first = hunk.old[0][1] if hunk.old else b"\n"
        if not first or not self.lines:
            return False
        line = self._line(min(where, len(self.lines)))
        if not line:
            return False
        return first.endswith(b"\r\n") != line.endswith(b"\r\n")

    def finish(self) -> bool:
        """Copy the rest of the input."""
        if self.last_frozen < len(self.lines):
            return self.copy_till(len(self.lines))
        return True

    def apply(self, hunk: Hunk, where: int) -> bool:
        """Apply `hunk` at input line `where`; False when it cannot be (misordered)."""
        old, new = hunk.old, hunk.new
        lastline = len(old)
        o = 0
        n = 0
        where -= 1
        define = self.defines
        state = "outside"
        while o < lastline:
            mark = old[o][0]
            if mark == "-":
                if not self.copy_till(where + o):
                    return False
                if define is not None:
                    if state == "outside":
                        self._write_text(f"\n#ifndef {define}\n")
                        state = "ifndef"
                    elif state == "ifdef":
                        self._write_text("\n#else\n")
                        state = "else"
                    self._write(old[o][1], False)
                self.last_frozen += 1
                o += 1
            elif n >= len(new):
                break
            elif new[n][0] == "+":
                if not self.copy_till(where + o):
                    return False
                if define is not None:
                    if state == "ifndef":
                        self._write_text("\n#else\n")
                        state = "else"
                    elif state == "outside":
                        self._write_text(f"\n#ifdef {define}\n")
                        state = "ifdef"
                self._write(new[n][1], False)
                n += 1
            elif new[n][0] != mark:
                raise out_of_sync(hunk, o, n)
            elif mark == "!":
                if not self.copy_till(where + o):
                    return False
                if define is not None:
                    self._write_text(f"#ifndef {define}\n")
                    state = "ifndef"
                while o < lastline and old[o][0] == "!":
                    if define is not None:
                        self._write(old[o][1], False)
                    self.last_frozen += 1
                    o += 1
                if define is not None:
                    self._write_text("\n#else\n")
                    state = "else"
                while n < len(new) and new[n][0] == "!":
                    self._write(new[n][1], False)
                    n += 1
            else:
                o += 1
                n += 1
                if define is not None and state != "outside":
                    self._write_text("\n#endif\n", ends_line=True)
                    state = "outside"
        if n < len(new) and new[n][0] == "+":
            if not self.copy_till(where + o):
                return False
            if define is not None:
                if state == "outside":
                    self._write_text(f"\n#ifdef {define}\n")
                    state = "ifdef"
                elif state == "ifndef":
                    self._write_text("\n#else\n")
                    state = "else"
            while n < len(new) and new[n][0] == "+":
                self._write(new[n][1], True)
                n += 1
        if define is not None and state != "outside":
            self._write_text("\n#endif\n", ends_line=True)
        self.out_offset += len(new) - len(old)
        return True


def out_of_sync(hunk: Hunk, o: int, n: int) -> PatchFatal:
    """GNU's error for a hunk whose sides do not line up; it names the patch lines of
    the old and the new line it was comparing."""
    new_index = len(hunk.old) + 1 + (hunk.blank_between is not None) + n + 1
    return PatchFatal(f"Out-of-sync patch, lines {hunk.beg + o + 1},{hunk.beg + new_index} "
                      "-- mangled text or line numbers, maybe?")


def similar(a: bytes, b: bytes) -> bool:
    """-l: lines equal apart from runs of blanks (present on both sides) and a final
    newline."""
    if a.endswith(b"\n"):
        a = a[:-1]
    if b.endswith(b"\n"):
        b = b[:-1]
    i = j = 0
    while True:
        if j >= len(b) or b[j] in b" \t":
            while j < len(b) and b[j] in b" \t":
                j += 1
            if i < len(a):
                if a[i] not in b" \t":
                    return False
                while i < len(a) and a[i] in b" \t":
                    i += 1
            if i >= len(a) or j >= len(b):
                return (len(a) - i) == (len(b) - j)
        elif i >= len(a) or a[i] != b[j]:
            return False
        else:
            i += 1
            j += 1


# ------------------------------------------------------------------------- rejects


def _uni_range(start: int, count: int) -> str:
    if count == 0:
        return f"{start - 1},0"
    if count == 1:
        return str(start)
    return f"{start},{count}"


def reject_unified(hunk: Hunk, out_offset: int) -> bytes:
    """A failed hunk as unified diff text (its line numbers moved as the hunks before
    it moved the output)."""
    head = (f"@@ -{_uni_range(hunk.first + out_offset, len(hunk.old))} "
            f"+{_uni_range(hunk.newfirst + out_offset, len(hunk.new))} @@").encode()
    parts = [head + (hunk.c_function or b"") + b"\n"]
    old = [("-" if m == "!" else m, t) for m, t in hunk.old]
    new = [("+" if m == "!" else m, t) for m, t in hunk.new]
    o = n = 0
    while True:
        while o < len(old) and old[o][0] == "-":
            parts.append(b"-" + old[o][1])
            o += 1
        while n < len(new) and new[n][0] == "+":
            parts.append(b"+" + new[n][1])
            n += 1
        if o >= len(old):
            break
        if n >= len(new) or new[n][0] != old[o][0]:
            raise out_of_sync(hunk, o, n)
        parts.append(b" " + old[o][1])
        o += 1
        n += 1
    return b"".join(parts)


def _normalize_context(hunk: Hunk) -> tuple[list[str], list[str]]:
    """The marks a context diff gives: a run of `-` facing a run of `+` becomes `!`."""
    om = [m for m, _ in hunk.old]
    nm = [m for m, _ in hunk.new]
    o = n = 0
    while o < len(om):
        if om[o] == "-":
            if n < len(nm) and nm[n] == "+":
                while o < len(om) and om[o] == "-":
                    om[o] = "!"
                    o += 1
                while n < len(nm) and nm[n] == "+":
                    nm[n] = "!"
                    n += 1
            else:
                while o < len(om) and om[o] == "-":
                    o += 1
        elif n < len(nm) and nm[n] == "+":
            while n < len(nm) and nm[n] == "+":
                n += 1
        else:
            o += 1
            n += 1
    return om, nm


def reject_context(hunk: Hunk, out_offset: int, new_style: bool, from_unified: bool) -> bytes:
    """A failed hunk as context diff text."""
    oldfirst = hunk.first + out_offset
    newfirst = hunk.newfirst + out_offset
    oldlast = oldfirst + len(hunk.old) - 1
    newlast = newfirst + len(hunk.new) - 1
    stars = " ****" if new_style else ""
    minuses = " ----" if new_style else " -----"
    if from_unified:
        om, nm = _normalize_context(hunk)
    else:
        om, nm = [m for m, _ in hunk.old], [m for m, _ in hunk.new]
    parts = [b"***************" + (hunk.c_function or b"") + b"\n"]

    def rng(first: int, last: int) -> str:
        if last < first:
            return "0"
        return str(first) if last == first else f"{first},{last}"

    parts.append(f"*** {rng(oldfirst, oldlast)}{stars}\n".encode())
    for mark, (_, text) in zip(om, hunk.old, strict=True):
        parts.append(text if mark == "\n" else mark.encode() + b" " + text)
    if hunk.blank_between is not None:
        parts.append(hunk.blank_between)
    parts.append(f"--- {rng(newfirst, newlast)}{minuses}\n".encode())
    for mark, (_, text) in zip(nm, hunk.new, strict=True):
        parts.append(text if mark == "\n" else mark.encode() + b" " + text)
    return b"".join(parts)
