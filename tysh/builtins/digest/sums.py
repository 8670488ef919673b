"""md5sum sha1sum sha256sum sha512sum and base64 (GNU coreutils 9.1), over hashlib and
binascii, reading inputs in chunks.

Checksum lines are GNU's: `HASH  NAME` (`HASH *NAME` with -b), a name holding a
backslash, newline or carriage return escaped and the line marked with a leading `\\`;
`-c` reads that format and BSD's `ALGO (NAME) = HASH` (what --tag writes)."""

from __future__ import annotations

import binascii

from tysh.builtins._common.operands import CHUNK, InputStatus, open_input, read_operand
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.lazyre import DOTALL, LazyRegex, compile_pattern
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, Tool, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import hashlib
    import re
    from typing import IO, Any
else:  # loaded with the first digest: base64 computes none
    hashlib = LazyModule(globals(), "hashlib", "hashlib")

_ALGOS = {"md5sum": ("md5", "MD5", 32), "sha1sum": ("sha1", "SHA1", 40),
          "sha256sum": ("sha256", "SHA256", 64), "sha512sum": ("sha512", "SHA512", 128)}
_ESC = {"\\": "\\\\", "\n": "\\n", "\r": "\\r"}
_UNESC = LazyRegex(r"\\(.)")


@value_record
class SumArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="files to hash; - is stdin")
    check: bool = param(default=False, aliases=["-c"],
                        help="read checksums from the FILEs and check them")
    binary: bool = param(default=False, aliases=["-b"], help="read in binary mode (mark `*`)")
    text: bool = param(default=False, aliases=["-t"], help="read in text mode (the default)")
    tag: bool = param(default=False, help="create a BSD-style checksum line")
    zero: bool = param(default=False, aliases=["-z"], help="end each output line with NUL")
    quiet: bool = param(default=False, help="with -c, don't print OK for each verified file")
    status: bool = param(default=False, help="with -c, print nothing; the status tells")
    strict: bool = param(default=False, help="with -c, fail on improperly formatted lines")
    warn: bool = param(default=False, aliases=["-w"],
                       help="with -c, warn about improperly formatted lines")
    ignore_missing: bool = param(default=False, help="with -c, don't fail for missing files")


def _hash(algo: str, f: IO[bytes]) -> str:
    h = hashlib.new(algo)
    while chunk := f.read(CHUNK):
        h.update(chunk)
    return h.hexdigest()


def _digest_of(ctx: Context, algo: str, name: str) -> str | None:
    """The hex digest of one operand, or None after reporting why it could not be read."""
    return read_operand(ctx, name, lambda f: _hash(algo, f))


def _escape(name: str) -> tuple[str, str]:
    if not any(c in name for c in _ESC):
        return "", name
    return "\\", "".join(_ESC.get(c, c) for c in name)


def _make(cmd: str) -> Tool:
    algo, tag_name, hexlen = _ALGOS[cmd]

    def run(args: SumArgs, ctx: Context) -> ToolReturn:
        if args.check:
            return check_list(args, ctx, cmd, algo, tag_name, hexlen)
        code = 0
        out: list[str] = []
        data: list[dict[str, str]] = []
        end = "\0" if args.zero else "\n"
        for name in args.files or ("-",):
            digest = _digest_of(ctx, algo, name)
            if digest is None:
                code = 1
                continue
            data.append({"path": name, "hash": digest})
            out.append(sum_line(digest, name, tag_name if args.tag else None, args, end))
            if not ctx.json and len(out) > 64:
                ctx.write("".join(out))
                out.clear()
        if ctx.json:
            return Outcome(code=code, output=OutputData.text("".join(out), rich_json=data))
        if out:
            ctx.write("".join(out))
        return Outcome(code=code, output=OutputData.value(lambda: data))

    return tool(
        cmd, kind="read",
        args=SumArgs,
        description=(
            f"print or check {tag_name} checksums (GNU {cmd}); --json gives "
            '[{"path","hash"}]'
        ),
        examples=[
            ("checksum of a file", f"{cmd} release.tar.gz"),
            ("write and later verify a list", f"{cmd} *.iso > SUMS; {cmd} -c SUMS"),
        ],
    )(run)


def sum_line(digest: str, name: str, tag: str | None, args: SumArgs, end: str) -> str:
    """One line of output: `HASH  NAME` (`*NAME` with -b), or BSD's `TAG (NAME) = HASH`
    when `tag` is given; a name with a newline or backslash is escaped, as GNU does,
    unless -z ends lines with NUL."""
    mark, shown = ("", name) if args.zero else _escape(name)
    if tag is not None:
        return f"{mark}{tag} ({shown}) = {digest}{end}"
    return f"{mark}{digest} {'*' if args.binary else ' '}{shown}{end}"


def _line_forms(tag_name: str, hexlen: int) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The BSD (`TAG (name) = hash`) and GNU (`hash  name`) forms of a checksum line,
    compiled once per list rather than looked up per line."""
    return (compile_pattern(rf"{tag_name} \((.*)\) = ([0-9a-fA-F]{{{hexlen}}})"),
            compile_pattern(rf"([0-9a-fA-F]{{{hexlen}}}) [ *](.+)", DOTALL))


def _parse_line(line: str, forms: tuple[re.Pattern[str], re.Pattern[str]]
                ) -> tuple[str, str] | None:
    """(hash, name) of one checksum line in GNU or BSD format, None if malformed."""
    escaped = line.startswith("\\")
    if escaped:
        line = line[1:]
    m = forms[0].fullmatch(line)
    if m:
        digest, name = m.group(2), m.group(1)
    else:
        m = forms[1].fullmatch(line)
        if not m:
            return None
        digest, name = m.group(1), m.group(2)
    if escaped:
        name = _UNESC.sub(lambda x: {"n": "\n", "r": "\r", "\\": "\\"}.get(x[1], x[0]), name)
    return digest.lower(), name


def check_list(args: SumArgs, ctx: Context, cmd: str, algo: str, tag_name: str,
               hexlen: int) -> ToolReturn:
    """-c: read each operand as a list of checksum lines and verify the files named in
    it, reporting as GNU does (OK / FAILED and the summary warnings)."""
    code = 0
    results: list[dict[str, Any]] = []
    forms = _line_forms(tag_name, hexlen)
    for list_name in args.files or ("-",):
        status = InputStatus()
        f = open_input(ctx, list_name, status)
        if f is None:
            code = 1
            continue
        try:
            raw = f.read()
        finally:
            if f is not ctx.stdin:
                f.close()
        bad_format = mismatched = unreadable = good = 0
        out: list[str] = []
        for n, line_b in enumerate(raw.split(b"\n"), 1):
            line = line_b.decode("utf-8", "surrogateescape").removesuffix("\r")
            if not line_b and n > raw.count(b"\n"):
                break
            parsed = _parse_line(line, forms)
            if parsed is None:
                bad_format += 1
                if args.warn:
                    ctx.error(f"{list_name}: {n}: improperly formatted {tag_name} checksum line")
                continue
            good += 1
            want, name = parsed
            # -c output escapes only names with a line break (GNU)
            mark, shown = _escape(name) if "\n" in name or "\r" in name else ("", name)
            if args.ignore_missing and name != "-" and not ctx.fs.exists(ctx.path(name)):
                continue
            if out and not args.status and not ctx.json:
                ctx.write("".join(out))
                out.clear()
            got = _digest_of(ctx, algo, name)
            if got is None:
                unreadable += 1
                results.append({"path": name, "ok": False, "error": "open or read"})
                if not args.status:
                    out.append(f"{mark}{shown}: FAILED open or read\n")
            elif got != want:
                mismatched += 1
                results.append({"path": name, "ok": False})
                if not args.status:
                    out.append(f"{mark}{shown}: FAILED\n")
            else:
                results.append({"path": name, "ok": True})
                if not (args.status or args.quiet):
                    out.append(f"{mark}{shown}: OK\n")
        if out and not ctx.json:
            ctx.write("".join(out))
        if not good:
            ctx.error(f"{list_name}: no properly formatted checksum lines found")
            code = 1
            continue
        if not args.status:
            _warn(ctx, bad_format, "line is", "lines are", "improperly formatted")
            _warn(ctx, unreadable, "listed file", "listed files", "could not be read")
            _warn(ctx, mismatched, "computed checksum", "computed checksums", "did NOT match")
        if mismatched or unreadable or (args.strict and bad_format):
            code = 1
    if ctx.json:
        return Outcome(code=code, output=OutputData.text("", rich_json=results))
    return code


def _warn(ctx: Context, n: int, one: str, many: str, what: str) -> None:
    if n:
        ctx.error(f"WARNING: {n} {one if n == 1 else many} {what}")


md5sum, sha1sum, sha256sum, sha512sum = (_make(c) for c in _ALGOS)


@value_record
class Base64Args(Record):
    file: tuple[str, ...] = param(positional=True, default=(), help="input file; - is stdin")
    decode: bool = param(default=False, aliases=["-d"], help="decode data")
    ignore_garbage: bool = param(default=False, aliases=["-i"],
                                 help="when decoding, ignore non-alphabet characters")
    wrap: int = param(default=76, aliases=["-w"],
                      help="wrap encoded lines after COLS characters (0: no wrapping)",
                      min=0, range_error="invalid wrap size: '{value}'")


_B64_ALPHABET = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
_GARBAGE = bytes(c for c in range(256) if c not in _B64_ALPHABET)


def _encode(f: IO[bytes], out: IO[bytes], wrap: int) -> None:
    carry = b""
    pending = b""
    step = CHUNK - CHUNK % 3
    while True:
        chunk = f.read(step)
        data = carry + chunk
        if chunk:
            cut = len(data) - len(data) % 3
            carry, data = data[cut:], data[:cut]
        else:
            carry = b""
        pending += binascii.b2a_base64(data, newline=False)
        if wrap > 0:
            full = len(pending) - len(pending) % wrap if chunk else len(pending)
            lines = [pending[i:i + wrap] for i in range(0, full, wrap)]
            if lines:
                out.write(b"\n".join(lines) + b"\n")
            pending = pending[full:]
        elif pending:
            out.write(pending)
            pending = b""
        if not chunk:
            return


def _decode(data: bytes, garbage: bool) -> tuple[bytes, bool]:
    """(decoded bytes, whether the input was valid); invalid input decodes up to the
    first bad group, as GNU does."""
    data = data.translate(None, _GARBAGE) if garbage else data.replace(b"\n", b"")
    pad = len(data) - len(data.rstrip(b"="))
    # Python's strict mode lets padding run on past a whole group (`YWJj=`); GNU does not
    if not pad or (pad <= 2 and (len(data) - pad) % 4 + pad == 4):
        try:
            return binascii.a2b_base64(data, strict_mode=True), True
        except binascii.Error:
            pass
    out: list[bytes] = []
    for i in range(0, len(data), 4):
        group = data[i:i + 4]
        if group.startswith(b"="):
            return b"".join(out), False  # padding with nothing before it (`YWJj====`)
        try:
            out.append(binascii.a2b_base64(group, strict_mode=True))
        except binascii.Error:
            return b"".join(out) + _partial(group), False
    return b"".join(out), True


def _partial(group: bytes) -> bytes:
    """The whole bytes of an unfinished group (`aGk` → `hi`), as GNU writes before failing."""
    body = group
    for k, c in enumerate(group):
        if c not in _B64_ALPHABET or c == ord("="):
            body = group[:k]
            break
    if len(body) < 2:
        return b""
    return binascii.a2b_base64(body + b"=" * (-len(body) % 4))


@tool(
    "base64", kind="read",
    args=Base64Args,
    description=(
        "base64 encode or decode (GNU base64); with --json the output stays text "
        "(the encoded or decoded data)"
    ),
    examples=[
        ("encode a file on one line", "base64 -w 0 key.bin"),
        ("decode", "echo aGkK | base64 -d"),
    ],
)
def base64(args: Base64Args, ctx: Context) -> ToolReturn:
    if len(args.file) > 1:
        ctx.error(f"extra operand '{args.file[1]}'")
        ctx.stderr.write(b"Try 'base64 --help' for more information.\n")
        return 1
    if args.wrap < 0:
        ctx.error(f"invalid wrap size: '{args.wrap}'")
        return 1
    status = InputStatus()
    f = open_input(ctx, args.file[0] if args.file else "-", status)
    if f is None:
        return 1
    try:
        if args.decode:
            decoded, valid = _decode(f.read(), args.ignore_garbage)
            ctx.stdout.write(decoded)
            if not valid:
                ctx.error("invalid input")
                return 1
        else:
            _encode(f, ctx.stdout, args.wrap)
    except (FsError, OSError) as e:
        ctx.error(f"{args.file[0] if args.file else '-'}: "
                  f"{e.reason if isinstance(e, FsError) else e.strerror}")
        return 1
    finally:
        if f is not ctx.stdin:
            f.close()
    return 0


TOOLS: list[Tool] = [md5sum, sha1sum, sha256sum, sha512sum, base64]
