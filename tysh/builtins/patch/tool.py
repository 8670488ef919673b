"""The `patch` builtin: GNU patch 2.7's options, messages and exit statuses, with every
file reached through the session's filesystem (so a sandboxed session patches only
what it may see). `--json` gives one record per file patched."""

from __future__ import annotations

import posixpath

from tysh.builtins.patch.apply import Target, reject_context, reject_unified
from tysh.builtins.patch.parse import (
    INDEX,
    NEW,
    OLD,
    S_IFMT,
    S_IFREG,
    DiffType,
    Header,
    Hunk,
    PatchFatal,
    Reader,
)
from tysh.kernel.base.record import MutableRecord, Record, mutable, value_record
from tysh.kernel.base.values import encode_text
from tysh.kernel.fs.api import FileSystem, FsError
from tysh.kernel.tools.context import Context
from tysh.kernel.tools.output import OutputData
from tysh.kernel.tools.params import param
from tysh.kernel.tools.tool import Outcome, Tool, tool

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

S_IFLNK = 0o120000
S_IFDIR = 0o040000


@value_record
class PatchArgs(Record):
    files: tuple[str, ...] = param((), positional=True,
                                   help="ORIGFILE [PATCHFILE]: the file to patch, and the patch")
    strip: int | None = param(None, aliases=["-p"],
                              help="strip NUM leading components from file names")
    input: str | None = param(None, aliases=["-i"], help="read the patch from FILE")
    output: str | None = param(None, aliases=["-o"],
                               help="write the patched result to FILE (- for stdout)")
    reject_file: str | None = param(None, aliases=["-r"],
                                    help="write rejected hunks to FILE (- for none)")
    reverse: bool = param(False, aliases=["-R"], help="apply the patch in reverse")
    forward: bool = param(False, aliases=["-N"],
                          help="skip patches that look reversed or already applied")
    force: bool = param(False, aliases=["-f"],
                        help="ask nothing; assume patches are not reversed")
    batch: bool = param(False, aliases=["-t"],
                        help="ask nothing; assume reversed-looking patches are reversed")
    quiet: bool = param(False, aliases=["-s", "--silent"], help="say nothing unless in error")
    verbose: bool = param(False, help="say more about the work")
    dry_run: bool = param(False, help="change no file; only say what would happen")
    fuzz: int = param(2, aliases=["-F"], help="lines of context that may differ (default 2)")
    ignore_whitespace: bool = param(False, aliases=["-l"],
                                    help="let runs of blanks differ between patch and file")
    remove_empty_files: bool = param(False, aliases=["-E"],
                                     help="remove files that are empty after patching")
    backup: bool = param(False, aliases=["-b"], help="keep the original of each file")
    prefix: str | None = param(None, aliases=["-B"], help="prefix of backup file names")
    basename_prefix: str | None = param(None, aliases=["-Y"],
                                        help="prefix of backup file basenames")
    suffix: str | None = param(None, aliases=["-z"], help="suffix of backup file names")
    version_control: str | None = param(None, aliases=["-V"],
                                        help="backup style: simple, numbered or existing")
    backup_if_mismatch: bool = param(False, help="back up files that do not match exactly "
                                                 "(the default)")
    no_backup_if_mismatch: bool = param(False, help="back up only when asked with -b")
    directory: str | None = param(None, aliases=["-d"], help="change to DIR first")
    ifdef: str | None = param(None, aliases=["-D"],
                              help="merge with #ifdef NAME instead of replacing lines")
    context: bool = param(False, aliases=["-c"], help="read the patch as a context diff")
    ed: bool = param(False, aliases=["-e"], help="read the patch as an ed script")
    normal: bool = param(False, aliases=["-n"], help="read the patch as a normal diff")
    unified: bool = param(False, aliases=["-u"], help="read the patch as a unified diff")
    reject_format: str | None = param(None, choices=["context", "unified"],
                                      help="format of rejected hunks")
    binary: bool = param(False, help="keep carriage returns in the patch")
    posix: bool = param(False, help="follow POSIX: take the first file name that exists")
    read_only: str = param("warn", choices=["ignore", "warn", "fail"],
                           help="what to do with read-only files")
    quoting_style: str = param("shell", choices=["literal", "shell", "shell-always", "c",
                                                 "escape"],
                               help="how file names are quoted in messages")


@tool(
    "patch", kind="edit", args=PatchArgs, operations=["fs.create", "fs.overwrite", "fs.remove"],
    description="apply a diff (unified, context or normal) to files, as GNU patch",
    examples=[("apply a git-style diff", "patch -p1 < fix.diff"),
              ("see what would happen", "patch -p1 --dry-run -i fix.diff"),
              ("undo a patch", "patch -R -p1 < fix.diff"),
              ("one file, result elsewhere", "patch -o new.c old.c fix.diff")],
)
def patch(args: PatchArgs, ctx: Context) -> int | Outcome:
    run = Run(args, ctx)
    try:
        status = run.main()
    except PatchFatal as e:
        run.on_fatal()
        run.flush_messages()
        ctx.stderr.write(f"patch: **** {e.message}\n".encode("utf-8", "surrogateescape"))
        status = 2
    run.flush_messages()
    records = run.records  # one per file patched, in both modes
    if ctx.json:
        return Outcome(status, OutputData.text("", rich_json=records))
    return Outcome(status, OutputData.value(lambda: records))


_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                  "%+,-./:@]_{}~#")


def shell_quote(name: str) -> str:
    """A file name as GNU patch shows it (gnulib's shell quoting style)."""
    if not name:
        return "''"
    plain = all(c in _SAFE or (ord(c) > 127 and c.isprintable()) for c in name) \
        and name[0] not in "#~"
    if plain:
        return name
    if "'" in name:
        if not any(c in '$`"\\' for c in name) and all(c.isprintable() for c in name):
            return '"' + name + '"'
        return "'" + name.replace("'", "'\\''") + "'"
    return "'" + name + "'"


class Run:
    """One run of patch: options, message stream, and what the run has done so far."""

    def __init__(self, args: PatchArgs, ctx: Context) -> None:
        self.a = args
        self.ctx = ctx
        self.fs: FileSystem = ctx.fs
        self.cwd = ctx.cwd
        self.silent = args.quiet
        self.verbose = args.verbose and not args.quiet
        self.records: list[dict[str, Any]] = []
        self._say: list[str] = []
        self.to_stderr = args.output == "-"
        self.created: set[str] = set()  # files written by this run (backed up already)
        self.to_delete: list[tuple[str, bool]] = []  # (path, backup), done at the end
        self.rej_written = False
        env = _env(ctx)
        self.backup_suffix = args.suffix or env.get("SIMPLE_BACKUP_SUFFIX") or ".orig"
        self.version_control = (args.version_control or env.get("PATCH_VERSION_CONTROL")
                                or env.get("VERSION_CONTROL") or "existing")
        self.out_stream: list[bytes] | None = None  # -o: everything goes here
        self.target: Target | None = None  # the file being patched
        # git diffs describe every file as it was before the whole diff: changes to
        # existing files wait here (path, content, mode to set, backup) until the git
        # diff ends, so a later copy or rename still reads the original
        self.git_queue: list[tuple[str, bytes, int, bool]] = []
        self.in_git = False

    # ---------------------------------------------------------------- messages
    def say(self, text: str) -> None:
        self._say.append(text)
        if len(self._say) > 64:
            self.flush_messages()

    def flush_messages(self) -> None:
        if not self._say or self.ctx.json:
            self._say.clear()
            return
        data = "".join(self._say).encode("utf-8", "surrogateescape")
        self._say.clear()
        stream = self.ctx.stderr if self.to_stderr else self.ctx.stdout
        stream.write(data)

    def ask(self, question: str) -> None:
        """GNU patch's question when no terminal answers: shown, then the default."""
        self.say(question + "\n")

    def q(self, name: str) -> str:
        style = self.a.quoting_style
        if style == "literal":
            return name
        if style == "shell-always":
            return "'" + name.replace("'", "'\\''") + "'"
        if style in ("c", "escape"):
            body = name.replace("\\", "\\\\").replace('"', '\\"')
            return '"' + body + '"' if style == "c" else body
        return shell_quote(name)

    # ---------------------------------------------------------------- files
    def path(self, name: str) -> str:
        return posixpath.normpath(posixpath.join(self.cwd, name))

    def lstat(self, name: str) -> Any:
        return self.fs.stat(self.path(name), follow=False)

    def read(self, name: str) -> bytes:
        return self.fs.read_bytes(self.path(name))

    # ---------------------------------------------------------------- main
    def main(self) -> int:
        a = self.a
        if len(a.files) > 2:
            self.ctx.stderr.write(encode_text(f"patch: {a.files[2]}: extra operand\n"))
            raise PatchFatal("Try 'patch --help' for more information.")
        for s in (a.prefix, a.basename_prefix, a.suffix):
            if s is not None and not s:
                raise PatchFatal("backup prefix is empty" if s is a.prefix else
                                 "backup basename prefix is empty" if s is a.basename_prefix
                                 else "backup suffix is empty")
        if a.strip is not None and a.strip < 0:
            raise PatchFatal(f"strip count {a.strip} is negative")
        if a.fuzz < 0:
            raise PatchFatal(f"fuzz factor {a.fuzz} is negative")
        if a.directory is not None:
            d = self.path(a.directory)
            if not self.fs.is_dir(d):
                raise PatchFatal(f"Can't change to directory {self.q(a.directory)} : "
                                 + _reason(self.fs, d))
            self.cwd = d
        inname = a.files[0] if a.files else None
        patchname = a.files[1] if len(a.files) > 1 else a.input
        data = self._read_patch(patchname)
        forced = (DiffType.CONTEXT if a.context else DiffType.ED if a.ed else
                  DiffType.NORMAL if a.normal else DiffType.UNIFIED if a.unified else None)
        strip = a.strip if a.strip is not None else -1
        reader = Reader(data, strip, self.say, forced, a.binary)
        if a.output is not None:
            self.out_stream = []
            if a.output != "-":
                # made before anything is read, mode 0600 when new (GNU's quirk)
                out = self.path(a.output)
                new = not self.fs.exists(out)
                try:
                    self.fs.write_bytes(out, b"")
                    if new:
                        self.fs.chmod(out, 0o600)
                except FsError as e:
                    raise PatchFatal(f"Can't create file {self.q(a.output)} : "
                                     f"{e.reason}") from None
        somefailed = False
        first = True
        while True:
            if reader.at_end():
                if self.verbose:
                    self.say("done\n")
                break
            if self.verbose:
                self.say("Hmm...")
            h = reader.next_header(not (inname or a.posix))
            if h.diff_type is DiffType.NONE:
                if self.verbose:
                    self.say("  Ignoring the trailing garbage.\ndone\n" if reader.base else
                             "  I can't seem to find a patch in there anywhere.\n")
                if not reader.base and data:
                    raise PatchFatal("Only garbage was found in the patch input.")
                if first and inname and a.output is not None:
                    self._copy_empty(inname)
                break
            first = False
            if not self._one_patch(reader, h, inname):
                somefailed = True
            if reader.base <= h.base:
                # always move on (a diff must never be read twice)
                reader.base, reader.base_line = h.start + 1, h.start_line + 1
            self.flush_messages()
        self._finish()
        return 1 if somefailed else 0

    def on_fatal(self) -> None:
        """A run that stops with a fatal error leaves in the -o file what it had
        written: the files before, and the current one up to its last applied hunk."""
        if self.out_stream is None or self.a.output is None:
            return
        if self.target is not None:
            self.out_stream.extend(self.target.out)
            self.target = None
        try:
            self._finish_output()
        except PatchFatal:
            pass

    def _read_patch(self, name: str | None) -> bytes:
        if name is None or name in ("", "-"):
            stdin: IO[bytes] = self.ctx.stdin
            got = stdin.read()
            return got if isinstance(got, bytes) else bytes(got)
        try:
            return self.read(name)
        except FsError as e:
            raise PatchFatal(f"Can't open patch file {self.q(name)} : {e.reason}") from None

    def _copy_empty(self, inname: str) -> None:
        """`patch -o OUT IN < /dev/null`: OUT becomes a copy of IN."""
        if not self.silent:
            self.say(f"patching file {self.q(self.a.output or '')} (read from {inname})\n")
        try:
            content = self.read(inname)
        except FsError as e:
            raise PatchFatal(f"Can't open file {self.q(inname)} : {e.reason}") from None
        assert self.out_stream is not None
        self.out_stream.append(content)

    # ---------------------------------------------------------------- names
    def _exists(self, name: str) -> tuple[int, Any]:
        """(0, stat) for an existing file, (1, None) for a missing one."""
        try:
            st = self.lstat(name)
        except FsError:
            return 1, None
        if any(p == self.path(name) for p, _ in self.to_delete):
            return 1, None  # deleted by an earlier patch of this run
        return 0, st

    def _valid(self, name: str, warned: set[str]) -> bool:
        """GNU's refusal of names from a patch that leave the working tree."""
        if not _filename_is_safe(name) and not self.cwd == "/":
            if name not in warned:
                warned.add(name)
                self.say(f"Ignoring potentially dangerous file name {self.q(name)}\n")
            return False
        return True

    def _best(self, names: list[str | None], ignore: list[int], warned: set[str]) -> int:
        comps: dict[int, int] = {}
        bases: dict[int, int] = {}
        lens: dict[int, int] = {}
        cmin = bmin = lmin = 1 << 62
        for i in (OLD, NEW, INDEX):
            n = names[i]
            if n is None or ignore[i]:
                continue
            comps[i] = _prefix_components(n)
            if cmin < comps[i]:
                continue
            cmin = comps[i]
            bases[i] = len(posixpath.basename(n.rstrip("/")))
            if bmin < bases[i]:
                continue
            bmin = bases[i]
            lens[i] = len(n)
            if lmin < lens[i]:
                continue
            lmin = lens[i]
        for i in (OLD, NEW, INDEX):
            n = names[i]
            if n is None or ignore[i] or i not in lens:
                continue
            if not self._valid(n, warned):
                continue
            if comps[i] == cmin and bases[i] == bmin and lens[i] == lmin:
                return i
        return -1

    def _maybe_reverse(self, st: State, name: str, nonexistent: bool, is_empty: bool) -> bool:
        h = st.h
        says = h.says_nonexistent
        rev = int(st.reverse)
        looks_reversed = (not is_empty) < says[rev ^ int(is_empty)]
        if is_empty and says[rev ^ int(nonexistent)] == 1 \
                and says[(1 - rev) ^ int(nonexistent)] == 2:
            return False
        if looks_reversed:
            what = "delete" if nonexistent else "empty out" if is_empty else "create"
            which = ("does not exist" if nonexistent else "is already empty" if is_empty
                     else "already exists")
            when = ", when reversed," if st.reverse else ""
            if self._ok_to_reverse(
                    st, f"The next patch{when} would {what} the file {self.q(name)},\n"
                        f"which {which}!"):
                st.reverse = not st.reverse
        return looks_reversed

    def _ok_to_reverse(self, st: State, message: str) -> bool:
        a = self.a
        if a.forward or not (a.force and self.silent):
            self.say(message)
        if a.forward:
            self.say("  Skipping patch.\n")
            st.skip = True
            return False
        if a.force:
            if not self.silent:
                self.say("  Applying it anyway.\n")
            return False
        if a.batch:
            self.say("  Ignoring -R.\n" if st.reverse else "  Assuming -R.\n")
            return True
        self.ask("  Ignore -R? [n] " if st.reverse else "  Assume -R? [n] ")
        self.ask("Apply anyway? [n] ")
        if not self.silent:
            self.say("Skipping patch.\n")
        st.skip = True
        return False

    def _choose_input(self, st: State, explicit: str | None) -> None:
        """GNU's choice of the file to patch among the old, new and Index: names."""
        h = st.h
        names = h.names  # (an Index: name given with the others is dropped for good)
        warned: set[str] = set()
        i = -1
        errnos = [1, 1, 1]
        stats: list[Any] = [None, None, None]
        if explicit is None:
            if not self.a.posix and (names[OLD] or names[NEW]) and names[INDEX]:
                names[INDEX] = None
            i0 = -1
            for k in (OLD, NEW, INDEX):
                n = names[k]
                if n is None:
                    continue
                if i0 != -1 and names[i0] == n:
                    errnos[k], stats[k] = errnos[i0], stats[i0]
                else:
                    errnos[k], stats[k] = self._exists(n)
                    if self.a.posix and not errnos[k] and self._valid(n, warned):
                        i = k
                        break
                i0 = k
            if not self.a.posix:
                i = self._best(names, errnos, warned)
                if i0 != -1 and (i == -1 or _ftype(stats[i]) == h.file_type):
                    chosen = names[i if i != -1 else i0]
                    assert chosen is not None
                    if self._maybe_reverse(st, chosen, i == -1,
                                           i == -1 or stats[i].size == 0) and i == -1:
                        i = i0
                if i == -1 and h.says_nonexistent[int(st.reverse)]:
                    newdirs = {k: _prefix_components(n) - self._existing_components(n)
                               for k, n in enumerate(names) if n is not None}
                    low = min(newdirs.values(), default=0)
                    i = self._best(names, [newdirs.get(k, 0) - low for k in range(3)], warned)
        if (h.rename[OLD] or h.rename[NEW] or h.copy[OLD] or h.copy[NEW]) and explicit is None \
                and not (i in (OLD, NEW) and names[1 - int(st.reverse)]
                         and self._valid(names[1 - int(st.reverse)] or "", warned)):
            self.say(f"Cannot {'rename' if h.rename[OLD] or h.rename[NEW] else 'copy'} "
                     "file without two valid file names\n")
            st.skip = True
        if i == -1:
            if explicit is not None:
                st.inname = explicit
                st.inerrno, st.instat = self._exists(explicit)
                if st.inerrno or _ftype(st.instat) == h.file_type:
                    self._maybe_reverse(st, explicit, bool(st.inerrno),
                                        bool(st.inerrno) or st.instat.size == 0)
            else:
                st.inerrno = -1
        else:
            st.inname = names[i]
            st.inerrno, st.instat = errnos[i], stats[i]

    def _existing_components(self, name: str) -> int:
        """How many of the name's leading directories exist."""
        count = 0
        parts = name.split("/")
        for k in range(1, len(parts)):
            if parts[k - 1] == "" and k == 1:
                continue
            prefix = "/".join(parts[:k])
            if not self.fs.is_dir(self.path(prefix)):
                break
            count += 1
        return count

    # ---------------------------------------------------------------- one patch
    def _one_patch(self, reader: Reader, h: Header, explicit: str | None) -> bool:
        """Apply one file's diff; False when something failed."""
        a = self.a
        if self.in_git != h.git:
            if self.in_git:
                self._flush_git()
            self.in_git = h.git
        st = State(h, a.reverse)
        self._choose_input(st, explicit)
        if not st.skip and self.verbose:
            self.say("  " + ("L" if h.base == 0 else "The next patch l") + "ooks like "
                     + _TYPE_NAMES.get(h.diff_type, "an ed script") + " to me...\n")
        if not st.skip:
            if not self.silent:
                if h.indent:
                    self.say(f"(Patch is indented {h.indent} space"
                             f"{'' if h.indent == 1 else 's'}.)\n")
                if h.strip_cr:
                    self.say("(Stripping trailing CRs from patch; use --binary to disable.)\n")
                if st.inname is None:
                    self.say(f"can't find file to patch at input line {h.start_line}\n")
                    if h.diff_type not in (DiffType.ED, DiffType.NORMAL):
                        self.say("Perhaps you should have used the -p or --strip option?\n"
                                 if a.strip is None else
                                 "Perhaps you used the wrong -p or --strip option?\n")
            if (st.inname is None or self.verbose) and h.base < h.start:
                self.say("The text leading up to this was:\n--------------------------\n")
                for line in reader.leading_text(h):
                    self.say("|" + line.decode("utf-8", "surrogateescape"))
                self.say("--------------------------\n")
            if st.inname is None:
                if a.force or a.batch:
                    self.say("No file to patch.  Skipping patch.\n")
                else:
                    self.ask("File to patch: ")
                    self.ask("Skip this patch? [y] ")
                    if not self.silent:
                        self.say("Skipping patch.\n")
                st.skip = True
        reader.skip_to_start(h)
        return self._apply_patch(reader, st)

    def _apply_patch(self, reader: Reader, st: State) -> bool:
        a = self.a
        h = st.h
        somefailed = st.skip
        record: dict[str, Any] = {"path": None, "hunks": [], "status": "skipped"}
        if not st.skip and not h.file_type:
            self.say(f"File {self.q(st.inname or '')}: can't change file type from "
                     f"0{h.modes[int(st.reverse)] & S_IFMT:o} to "
                     f"0{h.modes[1 - int(st.reverse)] & S_IFMT:o}.\n")
            st.skip = somefailed = True
        outname: str | None = None
        renamed = copied = False
        if not st.skip:
            assert st.inname is not None
            if a.output is not None:
                outname = a.output
            elif h.copy[OLD] or h.copy[NEW] or h.rename[OLD] or h.rename[NEW]:
                outname = h.names[1 - int(st.reverse)]
                renamed = h.rename[OLD] or h.rename[NEW]
                copied = not renamed
            else:
                outname = st.inname
            if h.git and outname is not None:
                self._flush_git(upto=self.path(outname))  # a second git diff begins
            if not self._get_input(st):
                st.skip = somefailed = True
        if not st.skip and st.inname is not None and not st.inerrno and a.read_only != "ignore" \
                and _ftype(st.instat) != S_IFLNK and not (st.instat.mode & 0o222):
            self.say(f"File {self.q(st.inname)} is read-only; ")
            if a.read_only == "warn":
                self.say("trying to patch anyway\n")
            else:
                self.say("refusing to patch\n")
                st.skip = somefailed = True
        if h.diff_type is DiffType.ED:
            raise PatchFatal("ed scripts are not supported; make the patch with diff -u")
        if not st.skip and h.diff_type is DiffType.GIT_BINARY:
            self.say(f"File {self.q(outname or '')}: git binary diffs are not supported.\n")
            st.skip = somefailed = True
        target: Target | None = None
        if not st.skip:
            assert st.inname is not None and outname is not None
            target = Target(self._input_lines(st), ignore_ws=a.ignore_whitespace,
                            defines=a.ifdef)
            self.target = target
            record["path"] = outname
            if not self.silent:
                verb = "checking" if a.dry_run else "patching"
                kind = "symbolic link" if h.file_type == S_IFLNK else "file"
                line = f"{verb} {kind} {self.q(outname)}"
                if st.inname != outname:
                    how = "copied" if copied else "renamed" if renamed else "read"
                    line += f" ({how} from {st.inname})"
                elif renamed:
                    other = h.names[NEW] if st.inname == h.names[OLD] else h.names[OLD]
                    line += f" (already renamed from {other})"
                self.say(line + "\n")
                if self.verbose:
                    self.say("Using Plan A...\n")
        hunk_no = 0
        failed = 0
        mismatch = False
        apply_anyway = False
        rejects: list[bytes] = []
        while True:
            hunk = reader.next_hunk(h.diff_type, st.reverse)
            if hunk is None:
                break
            hunk_no += 1
            where = 0
            fuzz = 0
            maxfuzz = min(a.fuzz, max(hunk.prefix_context, hunk.suffix_context))
            if not st.skip:
                assert target is not None
                while True:
                    where = target.locate(hunk, fuzz)
                    if not where or fuzz or target.in_offset:
                        mismatch = True
                    if hunk_no == 1 and not where and not (a.force or apply_anyway) \
                            and st.reverse == a.reverse:
                        hunk.swap()
                        where = target.locate(hunk, fuzz)
                        if where and self._ok_to_reverse(
                                st, ("Unreversed" if st.reverse else
                                     "Reversed (or previously applied)") + " patch detected!"):
                            st.reverse = not st.reverse
                        else:
                            hunk.swap()
                            if where:
                                apply_anyway = True
                                fuzz -= 1
                                where = 0
                    if st.skip or where:
                        break
                    fuzz += 1
                    if fuzz > maxfuzz:
                        break
            newwhere = (where if where else hunk.first) + (target.out_offset if target else 0)
            creating_over = (where == 1 and h.says_nonexistent[int(st.reverse)] == 2
                             and st.instat is not None and not st.inerrno and st.instat.size)
            ok = not st.skip and not creating_over and bool(where)
            if ok:
                assert target is not None
                ok = target.apply(hunk, where)
            if not ok:
                rejects.append(self._reject(st, hunk, target, first=not failed))
                failed += 1
                state = "ignored" if st.skip else "FAILED"
                if self.verbose or (not st.skip and not self.silent):
                    endings = not st.skip and target is not None and \
                        target.different_line_endings(hunk, newwhere)
                    self.say(f"Hunk #{hunk_no} {state} at {newwhere}"
                             f"{' (different line endings)' if endings else ''}.\n")
                record["hunks"].append({"hunk": hunk_no, "status": state.lower(),
                                        "line": newwhere})
            else:
                assert target is not None
                off = target.in_offset
                if self.verbose or (not self.silent and (fuzz or off)):
                    text = f"Hunk #{hunk_no} succeeded at {newwhere}"
                    if fuzz:
                        text += f" with fuzz {fuzz}"
                    if off:
                        text += f" (offset {off} line{'' if off == 1 else 's'})"
                    self.say(text + ".\n")
                record["hunks"].append({"hunk": hunk_no, "status": "applied",
                                        "line": newwhere, "offset": off, "fuzz": fuzz})
        self.target = None
        if not st.skip:
            assert target is not None and outname is not None
            target.finish()
            somefailed |= self._write_result(st, target, outname, hunk_no, failed, mismatch,
                                             renamed, copied, record)
        if failed:
            somefailed = True
            self.say(f"{failed} out of {hunk_no} hunk{'' if hunk_no == 1 else 's'} "
                     f"{'ignored' if st.skip else 'FAILED'}")
            rejname = a.reject_file
            name = outname  # none when the patch was skipped before its file was known
            if name is not None and rejname != "-":
                rej = rejname if rejname is not None else name + ".rej"
                if not a.dry_run:
                    self.say(f" -- saving rejects to file {self.q(rej)}\n")
                    self._save_rejects(rej, b"".join(rejects), rejname is not None)
                    record["rejects"] = rej
                else:
                    self.say("\n")
            else:
                self.say("\n")
        if record["path"] is None:
            record["path"] = outname or st.inname
        if record["status"] == "skipped" and not st.skip:
            record["status"] = "failed" if failed else "checked" if a.dry_run else "patched"
        elif failed and record["status"] not in ("skipped",):
            record["status"] = "failed"
        self.records.append(record)
        return not somefailed

    def _get_input(self, st: State) -> bool:
        h = st.h
        if st.inerrno == -1:
            assert st.inname is not None
            st.inerrno, st.instat = self._exists(st.inname)
        if st.inerrno:
            return True
        ft = _ftype(st.instat)
        if not (h.file_type in (S_IFREG, S_IFLNK) and h.file_type == ft):
            kind = "symbolic link" if h.file_type == S_IFLNK else "regular file"
            self.say(f"File {self.q(st.inname or '')} is not a {kind} -- refusing to patch\n")
            return False
        return True

    def _input_lines(self, st: State) -> list[bytes]:
        if st.inerrno or st.inname is None:
            return []
        if _ftype(st.instat) == S_IFLNK:
            data = self.fs.readlink(self.path(st.inname)).encode("utf-8", "surrogateescape")
        else:
            try:
                data = self.read(st.inname)
            except FsError as e:
                raise PatchFatal(f"can't open file {self.q(st.inname)} : {e.reason}") from None
        if st.h.revision and st.h.revision.encode("utf-8", "surrogateescape") not in data:
            rev = self.q(st.h.revision)
            if self.a.force:
                if not self.silent:
                    self.say(f"Warning: this file doesn't appear to be the {rev} version "
                             "-- patching anyway.\n")
            elif self.a.batch:
                raise PatchFatal(f"This file doesn't appear to be the {rev} version "
                                 "-- aborting.")
            else:
                self.ask(f"This file doesn't appear to be the {rev} version -- "
                         "patch anyway? [n] ")
                raise PatchFatal("aborted")
        return data.splitlines(keepends=True)

    # ---------------------------------------------------------------- results
    def _reject(self, st: State, hunk: Hunk, target: Target | None, first: bool) -> bytes:
        h = st.h
        out_offset = target.out_offset if target is not None else 0
        fmt = self.a.reject_format
        unified = fmt == "unified" or (fmt is None and h.diff_type is DiffType.UNIFIED)
        head = b""
        if first:
            index = h.names[INDEX]
            if index:
                head += b"Index: " + index.encode("utf-8", "surrogateescape") + b"\n"
            rev = int(st.reverse)
            tags = (b"---", b"+++") if unified else (b"***", b"---")
            for tag, side in zip(tags, (rev, 1 - rev), strict=True):
                name = h.names[side]
                head += tag + b" " + (name.encode("utf-8", "surrogateescape")
                                      if name else b"/dev/null")
                head += (h.timestr[side] or b"") + b"\n"
        if unified:
            return head + reject_unified(hunk, out_offset)
        new_style = h.diff_type in (DiffType.NEW_CONTEXT, DiffType.UNIFIED)
        return head + reject_context(hunk, out_offset, new_style,
                                     h.diff_type is DiffType.UNIFIED)

    def _save_rejects(self, rej: str, data: bytes, explicit: bool) -> None:
        path = self.path(rej)
        append = (explicit and self.rej_written) or (not explicit and path in self.created)
        try:
            self._makedirs(path)
            self.fs.write_bytes(path, data, append=append)
        except FsError as e:
            raise PatchFatal(f"Can't create file {self.q(rej)} : {e.reason}") from None
        if explicit:
            self.rej_written = True
        else:
            self.created.add(path)

    def _write_result(self, st: State, target: Target, outname: str, hunks: int, failed: int,
                      mismatch: bool, renamed: bool, copied: bool,
                      record: dict[str, Any]) -> bool:
        """Put the patched text where it belongs; True when something failed."""
        a = self.a
        h = st.h
        rev = int(st.reverse)
        somefailed = False
        if self.out_stream is not None:
            self.out_stream.extend(target.out)
            return False
        backup = a.backup or (not a.no_backup_if_mismatch and not a.posix and (
            mismatch or bool(failed)))
        nonexistent_after = h.says_nonexistent[1 - rev] == 2
        if target.zero_output and (a.remove_empty_files or (nonexistent_after and not a.posix)
                                   or h.file_type == S_IFLNK):
            record["status"] = "deleted" if not a.dry_run else "checked"
            if not a.dry_run:
                self.to_delete.append((self.path(outname), backup))
            return False
        if not target.zero_output and nonexistent_after and (a.remove_empty_files
                                                             or not a.posix):
            somefailed = True
            if not self.silent:
                self.say(f"Not deleting file {self.q(outname)} as content differs from patch\n")
        if a.dry_run:
            return somefailed
        old_mode, new_mode = h.modes[rev], h.modes[1 - rev]
        set_mode = bool(new_mode) and old_mode != new_mode
        if failed < hunks or set_mode or renamed or copied:
            path = self.path(outname)
            created = st.inerrno != 0 or outname != st.inname
            if created and not self.fs.exists(path):
                record["status"] = "created"
            data = b"".join(target.out)
            if h.git and h.says_nonexistent[rev] != 2:
                self.git_queue.append((path, data, new_mode if set_mode else 0, backup))
            else:
                self._output(path, data, backup)
                if set_mode:
                    self._chmod(path, new_mode)
            if renamed and st.inname is not None:
                self.to_delete.append((self.path(st.inname), backup))
        elif backup:
            self._backup(self.path(outname), leave_original=True)
        return somefailed

    def _chmod(self, path: str, mode: int) -> None:
        try:
            self.fs.chmod(path, mode & 0o7777)
        except FsError:
            pass

    def _flush_git(self, upto: str | None = None) -> None:
        """Write the queued changes of a git diff: all of them, or (`upto`) those up to
        and including the one for that path, when it is there."""
        if upto is not None:
            idx = next((k for k, q in enumerate(self.git_queue) if q[0] == upto), None)
            if idx is None:
                return
            todo, self.git_queue = self.git_queue[:idx + 1], self.git_queue[idx + 1:]
        else:
            todo, self.git_queue = self.git_queue, []
        for path, data, mode, backup in todo:
            self._output(path, data, backup)
            if mode:
                self._chmod(path, mode)

    def _output(self, path: str, data: bytes, backup: bool) -> None:
        """Write the new content of `path`, backing it up first when asked."""
        if backup:
            self._backup(path, leave_original=True)
        try:
            self._makedirs(path)
            if self.fs.is_dir(path):
                raise PatchFatal(f"Can't rename file to {self.q(path)} : Is a directory")
            self.fs.write_bytes(path, data)
        except FsError as e:
            raise PatchFatal(f"Can't create file {self.q(posixpath.relpath(path, self.cwd))} : "
                             f"{e.reason}") from None
        self.created.add(path)
        self.to_delete = [(p, b) for p, b in self.to_delete if p != path]

    def _backup_name(self, path: str) -> str:
        a = self.a
        if a.prefix is not None or a.basename_prefix is not None or a.suffix is not None:
            d, base = posixpath.split(path)
            rel_dir = posixpath.relpath(d, self.cwd) if a.prefix is not None else d
            name = (a.basename_prefix or "") + base + (a.suffix or "")
            joined = posixpath.join(rel_dir, name) if rel_dir not in ("", ".") else name
            if a.prefix is not None:
                return self.path(a.prefix + joined)
            return posixpath.join(d, name)
        style = self.version_control
        # ("none" and "off" make numbered backups when -b asks for one, as GNU's do)
        numbered = style in ("t", "numbered", "none", "off")
        d, base = posixpath.split(path)
        highest = 0
        if style in ("existing", "nil", "numbered", "t", "none", "off"):
            try:
                for entry in self.fs.listdir(d or "/"):
                    if entry.startswith(base + ".~") and entry.endswith("~"):
                        num = entry[len(base) + 2:-1]
                        if num.isdigit():
                            highest = max(highest, int(num))
            except FsError:
                pass
            if highest:
                numbered = True
        if numbered:
            return f"{path}.~{highest + 1}~"
        return path + self.backup_suffix

    def _backup(self, path: str, leave_original: bool) -> None:
        if path in self.created:
            return  # backed up before this run changed it
        bak = self._backup_name(path)
        try:
            self._makedirs(bak)
            try:
                st = self.fs.stat(path, follow=False)
            except FsError:
                self.fs.write_bytes(bak, b"")  # the original did not exist
                return
            if leave_original:
                if self.fs.exists(bak):
                    self.fs.remove(bak)
                self.fs.copy_file(path, bak)
                try:
                    self.fs.chmod(bak, st.mode & 0o7777)
                except FsError:
                    pass
            else:
                self.fs.rename(path, bak)
        except FsError as e:
            raise PatchFatal(f"Can't create file {self.q(bak)} : {e.reason}") from None

    def _makedirs(self, path: str) -> None:
        parent = posixpath.dirname(path)
        if parent and not self.fs.is_dir(parent):
            self.fs.mkdir(parent, parents=True)

    def _finish_output(self) -> None:
        if self.out_stream is not None:
            data = b"".join(self.out_stream)
            if self.a.output == "-":
                self.ctx.stdout.write(data)
            elif self.a.output is not None:
                try:
                    self.fs.write_bytes(self.path(self.a.output), data)
                except FsError as e:
                    raise PatchFatal(f"Can't create file {self.q(self.a.output)} : "
                                     f"{e.reason}") from None

    def _finish(self) -> None:
        self._flush_git()
        self._finish_output()
        for path, backup in self.to_delete:
            if path in self.created:
                continue
            try:
                if backup:
                    self._backup(path, leave_original=False)
                if self.fs.exists(path) or _is_link(self.fs, path):
                    self.fs.remove(path)
            except FsError as e:
                raise PatchFatal(f"Can't remove file {self.q(path)} : {e.reason}") from None
            self._removedirs(path)

    def _removedirs(self, path: str) -> None:
        """Remove the directories a deleted file leaves empty, deepest first, up to the
        working directory."""
        d = posixpath.dirname(path)
        while d and d != self.cwd and d.startswith(self.cwd.rstrip("/") + "/"):
            try:
                if self.fs.listdir(d):
                    return
                self.fs.rmdir(d)
            except FsError:
                return
            d = posixpath.dirname(d)


_TYPE_NAMES = {DiffType.UNIFIED: "a unified diff", DiffType.CONTEXT: "a context diff",
               DiffType.NEW_CONTEXT: "a new-style context diff",
               DiffType.NORMAL: "a normal diff", DiffType.GIT_BINARY: "a git binary diff"}


@mutable
class State(MutableRecord):
    """One file's patch as it goes: which file, which direction, whether to skip."""

    h: Header
    reverse: bool
    skip: bool = False
    inname: str | None = None
    inerrno: int = -1
    instat: Any = None


def _ftype(st: Any) -> int:
    if st is None:
        return 0
    kind = st.kind
    return {"file": S_IFREG, "directory": S_IFDIR, "symlink": S_IFLNK}.get(kind, 0o010000)


def _is_link(fs: FileSystem, path: str) -> bool:
    try:
        return fs.stat(path, follow=False).kind == "symlink"
    except FsError:
        return False


def _prefix_components(name: str) -> int:
    """The number of directory components before the base name."""
    count = 0
    for k in range(1, len(name)):
        if name[k] == "/" and name[k - 1] != "/":
            count += 1
    return count


def _filename_is_safe(name: str) -> bool:
    """No absolute names and no `..` component (GNU's rule for names in a patch)."""
    if name.startswith("/"):
        return False
    return all(part != ".." for part in name.split("/"))


def _reason(fs: FileSystem, path: str) -> str:
    try:
        fs.stat(path)
    except FsError as e:
        return e.reason
    return "Not a directory"


def _env(ctx: Context) -> dict[str, str]:
    try:
        return ctx.shell.exported_env()
    except Exception:  # noqa: BLE001 — a shell without an environment
        return {}


TOOLS: list[Tool] = [patch]
