"""strings (GNU binutils 2.40): print the runs of printable characters in files.

A run is at least N (4) bytes of printable ASCII or tab, as binutils' default 7-bit
encoding; the whole file is scanned (-a), which is binutils' default since 2.39. Input
is read in chunks; a run crossing a chunk boundary is carried over."""

from __future__ import annotations

from tysh.builtins._common.lines import VALUE_ITEMS
from tysh.builtins._common.operands import CHUNK, is_stdin
from tysh.kernel.base.lazyre import compile_pattern
from tysh.kernel.base.record import Record, value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@value_record
class StringsArgs(Record):
    files: tuple[str, ...] = param(positional=True, default=(), help="files to scan; - is stdin")
    bytes: int = param(default=4, aliases=["-n"], help="show runs of at least MIN-LEN chars", min=1,
                       range_error="invalid minimum string length {value}")
    radix: str | None = param(default=None, aliases=["-t"], choices=["d", "o", "x"],
                              help="print each run's offset in radix d, o or x")
    all: bool = param(default=False, aliases=["-a"], help="scan the whole file (the default)")
    print_file_name: bool = param(default=False, aliases=["-f"],
                                  help="print the file name before each run")


_PRINTABLE = bytes([9, *range(32, 127)])


@tool(
    "strings", kind="read",
    args=StringsArgs,
    description=(
        "print the printable character runs in files (GNU strings); --json gives "
        '[{"path","offset","string"}]'
    ),
    examples=[
        ("text inside a binary", "strings /bin/true | head"),
        ("runs of 8+ chars with hex offsets", "strings -n 8 -t x firmware.bin"),
    ],
)
def strings(args: StringsArgs, ctx: Context) -> ToolReturn:
    if args.bytes < 1:
        ctx.error(f"invalid minimum string length {args.bytes}")
        return 1
    runs = compile_pattern(rb"[\t\x20-\x7e]{%d,}" % args.bytes)
    code = 0
    rows: list[dict[str, Any]] = []
    for name in args.files or ("-",):
        if is_stdin(name):
            f = ctx.stdin
        else:
            try:
                if ctx.fs.is_dir(ctx.path(name)):
                    ctx.error(f"Warning: '{name}' is a directory")
                    code = 1
                    continue
                f = ctx.fs.open(ctx.path(name), "rb")
            except FsError:
                ctx.error(f"'{name}': No such file")
                code = 1
                continue
        prefix = f"{'{standard input}' if is_stdin(name) else name}: " if args.print_file_name else ""
        fmt = {"d": "{:7d} ", "o": "{:7o} ", "x": "{:7x} ", None: ""}[args.radix]
        try:
            carry = b""
            base = 0  # file offset of carry[0]
            while True:
                chunk = f.read(CHUNK)
                data = carry + chunk
                if chunk:
                    # the trailing run may continue in the next chunk
                    cut = len(data.rstrip(_PRINTABLE))
                else:
                    cut = len(data)
                out: list[str] = []
                for m in runs.finditer(data, 0, cut):
                    text = m.group().decode("ascii")
                    if not ctx.json:
                        out.append(f"{prefix}{fmt.format(base + m.start())}{text}\n")
                        if len(rows) > VALUE_ITEMS:
                            continue  # too many for a value (it is absent): none kept
                    rows.append({"path": name, "offset": base + m.start(), "string": text})
                if out:
                    ctx.write("".join(out))
                carry = data[cut:]
                base += cut
                if not chunk:
                    break
        except (FsError, OSError) as e:
            ctx.error(f"{name}: {e.reason if isinstance(e, FsError) else e.strerror}")
            code = 1
        finally:
            if f is not ctx.stdin:
                f.close()
    if ctx.json:
        return Outcome(code=code, output=OutputData.text("", rich_json=rows))
    if len(rows) > VALUE_ITEMS:
        return code
    return Outcome(code=code, output=OutputData.value(lambda: rows))


TOOLS = [strings]
