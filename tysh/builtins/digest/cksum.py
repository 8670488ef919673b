"""cksum sha224sum sha384sum b2sum (GNU coreutils 9.1).

The sha*/b2sum tools share md5sum's line format and -c checking (digest.sums). cksum
prints the POSIX CRC (`CRC SIZE NAME`), or with -a a digest as a BSD tagged line. The
CRC is the unreflected CRC-32 of POSIX; it is computed by zlib's reflected CRC over
bit-reversed bytes, so no Python loop runs per byte."""

from __future__ import annotations

import zlib

from tysh.builtins._common.operands import CHUNK, read_operand
from tysh.builtins.digest.sums import SumArgs, check_list, sum_line
from tysh.kernel.base.lazymod import LazyModule
from tysh.kernel.base.record import value_record
from tysh.kernel.fs.api import FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, Tool, ToolReturn, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    import hashlib
    from typing import IO
else:  # loaded with the first digest: the POSIX CRC is zlib's
    hashlib = LazyModule(globals(), "hashlib", "hashlib")

_REVERSE = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))

# algorithm name -> (hashlib name, BSD tag, hex digits)
_DIGESTS = {"md5": ("md5", "MD5", 32), "sha1": ("sha1", "SHA1", 40),
            "sha224": ("sha224", "SHA224", 56), "sha256": ("sha256", "SHA256", 64),
            "sha384": ("sha384", "SHA384", 96), "sha512": ("sha512", "SHA512", 128),
            "blake2b": ("blake2b", "BLAKE2b", 128)}


def _reverse32(x: int) -> int:
    return int(f"{x:032b}"[::-1], 2)


def posix_crc(f: IO[bytes]) -> tuple[int, int]:
    """(CRC, size) as POSIX cksum defines them."""
    acc = 0xFFFFFFFF  # zlib's running value for a register of 0
    size = 0
    while chunk := f.read(CHUNK):
        size += len(chunk)
        acc = zlib.crc32(chunk.translate(_REVERSE), acc)
    n = size
    tail = bytearray()
    while n:
        tail.append(n & 0xFF)
        n >>= 8
    acc = zlib.crc32(bytes(tail).translate(_REVERSE), acc)
    register = _reverse32(acc ^ 0xFFFFFFFF)
    return register ^ 0xFFFFFFFF, size


def _hash(f: IO[bytes], algo: str, bits: int | None) -> str:
    h = hashlib.blake2b(digest_size=bits // 8) if bits else hashlib.new(algo)
    while chunk := f.read(CHUNK):
        h.update(chunk)
    return h.hexdigest()


@value_record
class B2Args(SumArgs):
    length: int = param(default=0, aliases=["-l"],
                        help="digest length in bits (a multiple of 8, at most 512)",
                        min=0, max=512, range_error="invalid length: '{value}'")


@value_record
class CksumArgs(SumArgs):
    algorithm: str = param(default="crc", aliases=["-a"],
                           choices=["crc", "md5", "sha1", "sha224", "sha256", "sha384",
                                    "sha512", "blake2b"],
                           help="the digest: crc (POSIX, default) md5 sha1 sha2* blake2b")
    untagged: bool = param(default=False, help="with -a, write `HASH  NAME` lines")
    length: int = param(default=0, aliases=["-l"], help="blake2b digest length in bits",
                        min=0, max=512, range_error="invalid length: '{value}'")


def _sum_files(args: SumArgs, ctx: Context, algo: str, tag: str, bits: int | None,
               tagged: bool) -> ToolReturn:
    """Hash every operand, writing GNU's plain or BSD-tagged lines."""
    code = 0
    out: list[str] = []
    data: list[dict[str, str]] = []
    end = "\0" if args.zero else "\n"
    shown_tag = f"{tag}-{bits}" if bits else tag
    for name in args.files or ("-",):
        digest = read_operand(ctx, name, lambda f: _hash(f, algo, bits))
        if digest is None:
            code = 1
            continue
        data.append({"path": name, "hash": digest})
        out.append(sum_line(digest, name, shown_tag if tagged else None, args, end))
        if not ctx.json and len(out) > 64:
            ctx.write("".join(out))
            out.clear()
    if ctx.json:
        return Outcome(code=code, output=OutputData.text("".join(out), rich_json=data))
    ctx.write("".join(out))
    return Outcome(code=code, output=OutputData.value(lambda: data))


def _bits(ctx: Context, length: int, algo: str) -> int | None | str:
    """The -l length (None: the full digest), or an error message."""
    if not length or length == 512:
        return None
    if algo != "blake2b":
        return "--length is only supported with --algorithm=blake2b"
    if length % 8 or not 0 < length < 512:
        return f"invalid length: '{length}'"
    del ctx
    return length


def _make(cmd: str, algo_key: str) -> Tool:
    algo, tag, hexlen = _DIGESTS[algo_key]
    args_class = B2Args if cmd == "b2sum" else SumArgs

    def run(args: SumArgs, ctx: Context) -> ToolReturn:
        bits = _bits(ctx, getattr(args, "length", 0), algo)
        if isinstance(bits, str):
            ctx.error(bits)
            return 1
        if args.check:
            return check_list(args, ctx, cmd, algo, tag, hexlen)
        return _sum_files(args, ctx, algo, tag, bits, args.tag)

    return tool(
        cmd, kind="read",
        args=args_class,
        description=f"print or check {tag} checksums (GNU {cmd}); --json gives "
                    '[{"path","hash"}]',
        examples=[
            ("checksum of a file", f"{cmd} release.tar.gz"),
            ("write and later verify a list", f"{cmd} *.iso > SUMS; {cmd} -c SUMS"),
        ],
    )(run)


sha224sum = _make("sha224sum", "sha224")
sha384sum = _make("sha384sum", "sha384")
b2sum = _make("b2sum", "blake2b")


@tool(
    "cksum", kind="read",
    args=CksumArgs,
    description=(
        "POSIX CRC and size of files (GNU cksum 9), or with -a md5|sha1|sha256|… a tagged "
        'digest; --json gives [{"path","crc","size"}] (with -a [{"path","hash"}])'
    ),
    examples=[
        ("CRC and byte count", "cksum file.bin"),
        ("a SHA-256 in BSD form", "cksum -a sha256 file.bin"),
        ("check tagged digests", "cksum -c SUMS"),
    ],
)
def cksum(args: CksumArgs, ctx: Context) -> ToolReturn:
    if args.check:
        key = args.algorithm if args.algorithm != "crc" else _sniff(ctx, args.files)
        if key is None:
            ctx.error("the --check option is not supported with --algorithm=crc")
            return 1
        algo, tag, hexlen = _DIGESTS[key]
        return check_list(args, ctx, "cksum", algo, tag, hexlen)
    if args.algorithm != "crc":
        bits = _bits(ctx, args.length, args.algorithm)
        if isinstance(bits, str):
            ctx.error(bits)
            return 1
        algo, tag, _ = _DIGESTS[args.algorithm]
        return _sum_files(args, ctx, algo, tag, bits, not args.untagged)
    code = 0
    out: list[str] = []
    rows: list[dict[str, object]] = []
    for name in args.files or ("-",):
        got = read_operand(ctx, name, posix_crc)
        if got is None:
            code = 1
            continue
        crc, size = got
        rows.append({"path": name, "crc": crc, "size": size})
        out.append(f"{crc} {size}{'' if not args.files else ' ' + name}\n")
    if ctx.json:
        return Outcome(code=code, output=OutputData.text("".join(out), rich_json=rows))
    ctx.write("".join(out))
    return Outcome(code=code, output=OutputData.value(lambda: rows))


def _sniff(ctx: Context, files: tuple[str, ...]) -> str | None:
    """The algorithm of a tagged checksum list, from its first line (cksum -c)."""
    if not files or files[0] == "-":
        return "sha256"
    try:
        with ctx.fs.open(ctx.path(files[0]), "rb") as f:
            head = f.read(64).lstrip(b"\\")
    except FsError:
        return "md5"  # check_list reports the unreadable list
    for key, (_, tag, _) in _DIGESTS.items():
        if head.startswith(tag.encode() + b" ("):
            return key
    return "md5"


TOOLS: list[Tool] = [cksum, sha224sum, sha384sum, b2sum]
