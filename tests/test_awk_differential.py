"""tysh's awk against the system awk (mawk or gawk, whichever /usr/bin/awk is): the same
program and input must give the same stdout and exit status. Cases where mawk departs
from POSIX/gawk on purpose are marked (MAWK_DIFFERS) and only checked against tysh's
expected text. Skipped when no awk is installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tysh.kernel.base.limits import Limits
from tysh.kernel.embed.kernel import Kernel

AWK = shutil.which("mawk") or shutil.which("gawk") or shutil.which("awk")
pytestmark = pytest.mark.skipif(AWK is None, reason="no system awk to compare with")

FILES = {
    "t1.txt": "alice 10 x\nbob 20 y\ncarol 30 z\nalice 5 q\n",
    "passwd": "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
              "user:x:1000:1000:User,,,:/home/user:/bin/bash\nsvc:x:150:150::/var/svc:/bin/false\n",
    "c.csv": "a,b,c\n1,2,3\n,,\nx,\"y\",z\n",
    "para.txt": "para one\nline two\n\n\npara two\n\nthree a\nthree b\nthree c\n",
    "f1": "k1 v1\nk3 v3\n",
    "f2": "k1 A\nk2 B\nk3 C\n",
    "range.txt": "start\nx\nend\ny\nstart\nz\n",
    "nums.txt": "3\n-1.5\n10\n2e3\n0x10\n 7 \nabc\n\n1e400\n",
    "ws.txt": "  lead and trail  \n\ttabbed\tline\t\nmulti   space    gap\n\n",
    "long.txt": "short\n" + "x" * 90 + "\n" + "medium line here\n",
}

# (program args after `awk`, stdin)
CASES: list[tuple[list[str], str]] = [
    (["{print $1}", "t1.txt"], ""),
    (["{print $NF}", "t1.txt"], ""),
    (["{print $(NF-1)}", "t1.txt"], ""),
    (["{s+=$2} END {print s}", "t1.txt"], ""),
    (["-F:", "$3 > 100 {print $1}", "passwd"], ""),
    (["-F", ":", "{print NF}", "passwd"], ""),
    (["NR==FNR{a[$1];next} $1 in a", "f1", "f2"], ""),
    (["NR==FNR{a[$1]=$2;next} {print $0, ($1 in a ? a[$1] : \"-\")}", "f1", "f2"], ""),
    (["!seen[$1]++", "t1.txt"], ""),
    (["-v", "OFS=,", "{$1=$1; print}", "t1.txt"], ""),
    (["length > 80", "long.txt"], ""),
    (["length($0) < 7", "long.txt"], ""),
    (["/start/,/end/", "range.txt"], ""),
    (["NR==2,NR==3 {print NR\": \"$0}", "t1.txt"], ""),
    (["{printf \"%-10s %5d\\n\", $1, $2}", "t1.txt"], ""),
    (["{gsub(/a/,\"A\"); print}", "t1.txt"], ""),
    (["{n=sub(/l+/,\"[&]\"); print n, $0}", "t1.txt"], ""),
    (["{gsub(/l/,\"\\\\&\"); print}", "t1.txt"], ""),
    (["BEGIN{FS=\",\"} {print NF}", "c.csv"], ""),
    (["BEGIN{FS=\",\"} {print $2}", "c.csv"], ""),
    (["function f(a, b) {return a * b} {print f($2, 3)}", "t1.txt"], ""),
    (["function fact(n) {return n <= 1 ? 1 : n * fact(n-1)} BEGIN {print fact(10)}"], ""),
    (["function fill(arr, n,  i) {for (i=1;i<=n;i++) arr[i]=i*i} BEGIN {fill(sq, 5); "
      "print sq[3], length(sq)}"], ""),
    (["{n = split($0, parts, \"\"); print n}", "t1.txt"], ""),
    (["BEGIN {n = split(\"a:b:c\", p, \":\"); print n, p[1], p[3]}"], ""),
    (["BEGIN {n = split(\"a1b22c333d\", p, /[0-9]+/); print n, p[2], p[4]}"], ""),
    (["BEGIN {n = split(\"  x  y  \", p); print n, \"[\" p[1] \"]\"}"], ""),
    (["{print substr($1, 2), substr($1, 2, 2), substr($1, 0, 2), substr($1, -1, 3)}", "t1.txt"], ""),
    (["{print index($1, \"a\"), length($1), toupper($1), tolower(\"MiX\")}", "t1.txt"], ""),
    (["{if (match($0, /[0-9]+/)) print RSTART, RLENGTH; else print \"no\"}", "t1.txt"], ""),
    (["BEGIN {print match(\"foobar\", /z/), RSTART, RLENGTH}"], ""),
    (["BEGIN {x = sprintf(\"%05.1f|%x|%o|%e|%c|%c\", 3.14159, 255, 8, 1234.5, 65, \"hello\"); "
      "print x}"], ""),
    (["BEGIN {printf \"%s %d %i %5.2s|%-5s|\\n\", \"str\", \"42abc\", 3.99, \"abcdef\", \"ab\"}"], ""),
    (["BEGIN {printf \"%*d|%-*d|%.*f\\n\", 5, 42, 4, 7, 2, 3.14159}"], ""),
    (["BEGIN {printf \"%%|%u|%X|%#x|%#o\\n\", 42, 255, 255, 8}"], ""),
    (["BEGIN {print 1/3; OFMT=\"%.2f\"; print 1/3; x = 1/3 \"\"; print x}"], ""),
    (["BEGIN {CONVFMT=\"%.2g\"; a = 3.14159; b = a \"\"; print b; print 17 \"\"}"], ""),
    (["BEGIN {print 100000 * 100000, 2^31, 2^53, -0}"], ""),
    (["BEGIN {print 1e6, 1e-5, 123456789, 0.1 + 0.2, 1/4}"], ""),
    (["BEGIN {print -2^2, 2^3^2, 2**3, 7%3, -7%3, 7.5%2}"], ""),
    (["BEGIN {x = 5; x ^= 2; x -= 1; x /= 4; x *= 3; x %= 7; print x}"], ""),
    (["BEGIN {i = 5; print i++, i, ++i, i--, --i, i}"], ""),
    (["BEGIN {print 1 \" \" 2, 1 2, 1+2 \"x\", \"a\" (1 < 2)}"], ""),
    (["BEGIN {print (1 == 1.0), (\"a\" < \"b\"), (\"10\" < \"9\"), (10 < 9), (\"abc\" ~ /b/), "
      "(\"abc\" !~ /b/)}"], ""),
    (["{print ($1 < $2), ($2 < 100)}", "t1.txt"], ""),
    (["{print ($1 == 3), ($1 == \"3\"), ($1 < 10)}", "nums.txt"], ""),
    (["{print $1 + 0}", "nums.txt"], ""),
    (["{if ($0) print \"T:\" $0; else print \"F:\" $0}", "nums.txt"], ""),
    (["BEGIN {x; if (x == 0 && x == \"\") print \"both\"; print length(x), x + 0}"], ""),
    (["BEGIN {while (i < 3) {i++; if (i == 2) continue; print i}}"], ""),
    (["BEGIN {do {j++; print j} while (j < 3)}"], ""),
    (["BEGIN {do k++; while (k < 5); print k}"], ""),
    (["BEGIN {for (i = 0; i < 10; i++) {if (i == 3) break; if (i == 1) continue; print i}}"], ""),
    (["BEGIN {for (;;) {n++; if (n > 4) break}; print n}"], ""),
    (["BEGIN {a[\"x\"]=1; a[\"y\"]=2; delete a[\"x\"]; for (k in a) print k, a[k]; "
      "delete a; print length(a)}"], ""),
    (["BEGIN {a[1,2] = 3; for (k in a) {split(k, p, SUBSEP); print p[1], p[2]}; "
      "if ((1,2) in a) print \"in\"}"], ""),
    (["BEGIN {if (!(\"z\" in a)) print \"absent\"; print length(a)}"], ""),
    (["{ $3 = \"\"; print; print NF }", "t1.txt"], ""),
    (["{ $5 = \"E\"; print; print NF }", "t1.txt"], ""),
    (["{ NF = 2; print }", "t1.txt"], ""),
    (["{ $0 = \"new rec here\"; print $2, NF }", "t1.txt"], ""),
    (["BEGIN {RS=\"\"} {print NR\": \"$1\" (\"NF\")\"}", "para.txt"], ""),
    (["BEGIN {RS=\"\"; FS=\"\\n\"} {print $1 \"|\" $2}", "para.txt"], ""),
    (["BEGIN {RS=\";\"} {print NR, $0}"], "a;b;c"),
    (["{print NR, NF}", "ws.txt"], ""),
    (["{print \"[\" $1 \"]\"}", "ws.txt"], ""),
    (["-F", "\\t", "{print $2}"], "a\tb\tc\n1\t\t3\n"),
    (["-F", "|", "{print $2}"], "a|b|c\n"),
    (["-F", "[0-9]+", "{print $1 \"-\" $2}"], "ab12cd345ef\n"),
    (["-F", ".", "{print $2}"], "a.b.c\n"),
    (["{print FILENAME, FNR, NR}", "f1", "f2"], ""),
    (["{print v, $1}", "v=1", "f1", "v=2", "f2"], ""),
    (["-v", "x=a\\tb", "BEGIN {print x}"], ""),
    (["-v", "n=10", "BEGIN {print (n < 9)}"], ""),
    (["BEGIN {print ARGC, ARGV[0] != \"\", ARGV[1], ARGV[2]}", "p", "q"], ""),
    (["BEGIN {print length(\"héllo\"), toupper(\"héllo\"), substr(\"héllo\", 2, 2)}"], ""),
    (["{print length()}"], "a\nbb\n"),
    (["END {print $0, NF}", "t1.txt"], ""),
    (["BEGIN {exit 3} END {print \"end ran\"}"], ""),
    (["{print; exit} END {print \"end\"}", "t1.txt"], ""),
    (["BEGIN {exit} END {exit 4}"], ""),
    (["NR == 2 {next} {print}", "t1.txt"], ""),
    (["{print > \"/dev/stderr\"}"], "x\n"),
    (["BEGIN {while ((getline line < \"f1\") > 0) n++; print n, line}"], ""),
    (["BEGIN {print (getline line < \"nonexistent\")}"], ""),
    (["NR == 1 {getline; print \"after getline:\", $0, NR}", "t1.txt"], ""),
    (["NR == 1 {getline x; print \"x=\" x, \"$0=\" $0, NR}", "t1.txt"], ""),
    (["{print $1 | \"sort -r\"}", "t1.txt"], ""),
    (["BEGIN {\"echo hello world\" | getline; print $2}"], ""),
    (["BEGIN {\"echo a b\" | getline v; print v; close(\"echo a b\")}"], ""),
    (["BEGIN {r = system(\"exit 3\"); print r}"], ""),
    (["BEGIN {print int(3.9), int(-3.9), sqrt(16), exp(0), log(1), sin(0), cos(0), "
      "atan2(0, -1)}"], ""),
    (["BEGIN {srand(1); a = srand(2); print a}"], ""),
    (["BEGIN {x = rand(); print (x >= 0 && x < 1)}"], ""),
    (["# comment\nBEGIN {\n  x = 1 + \\\n  2\n  print x  # trailing\n}\n"], ""),
    (["BEGIN { if (1) print \"a\"; else print \"b\" }"], ""),
    (["BEGIN { if (0)\n print \"a\"\n else\n print \"b\" }"], ""),
    (["BEGIN { x = 1 ; y = 2 ; print x, y ; }"], ""),
    (["BEGIN { a = \"x\" ; a = a a a ; print a }"], ""),
    (["BEGIN { print 10 % 3 \" \" -3 }"], ""),
    (["BEGIN { print 1 - -1, 1 - - 1, 2 - 1 }"], ""),
    (["BEGIN { n = 3; print n \" items\", n+1 \" more\" }"], ""),
    (["BEGIN { print substr(\"hello\", 2.5, 2), substr(\"hello\", 1.5) }"], ""),
    (["BEGIN { s = \"aaa\"; print gsub(/a/, \"bb\", s), s }"], ""),
    (["BEGIN { s = \"abc\"; gsub(\"\", \"-\", s); print s }"], ""),
    (["BEGIN { s = \"a.b.c\"; gsub(\".\", \"x\", s); print s }"], ""),
    (["BEGIN { s = \"a.b.c\"; gsub(/\\./, \"x\", s); print s }"], ""),
    (["BEGIN { s = \"foo bar\"; sub(/o+/, \"[&&]\", s); print s }"], ""),
    (["{ $2 = $2 * 2 } 1", "t1.txt"], ""),
    (["$2 >= 10 && $3 != \"z\"", "t1.txt"], ""),
    (["$1 ~ /^a/ || $2 == 30", "t1.txt"], ""),
    (["!/alice/", "t1.txt"], ""),
    (["$1 ~ \"^b\"", "t1.txt"], ""),
    (["BEGIN { re = \"^c\" } $0 ~ re", "t1.txt"], ""),
    (["/[[:digit:]]{2}/", "t1.txt"], ""),
    (["/[[:alpha:]]+ [[:digit:]]+ [xyz]$/", "t1.txt"], ""),
    (["{ print NR % 2 ? \"odd\" : \"even\" }", "t1.txt"], ""),
    (["BEGIN { printf \"%d %s\\n\", \"0x1A\", 1e3 }"], ""),
    (["BEGIN { printf(\"%s-%s\\n\", \"a\", \"b\") }"], ""),
    (["{ print($1, $2) }", "t1.txt"], ""),
    (["BEGIN { print length() }"], ""),
    (["BEGIN { x[1]; print length(x) }"], ""),
    (["BEGIN { getline; print \"got\", $0 }"], "line1\nline2\n"),
    (["{ print toupper(substr($0, 1, 1)) substr($0, 2) }", "t1.txt"], ""),
    (["{ a[$1] += $2 } END { for (k in a) print k, a[k] | \"sort\" }", "t1.txt"], ""),
    (["BEGIN { OFS = \"-\" } { $1 = $1 } 1", "t1.txt"], ""),
    (["BEGIN { ORS = \"|\" } { print $1 } END { printf \"\\n\" }", "t1.txt"], ""),
    (["{ print NR \": \" $0 }", "-"], "from\nstdin\n"),
    (["BEGIN { print index(\"abc\", \"\"), index(\"\", \"a\") }"], ""),
    (["BEGIN { print \"a\" > \"/dev/stdout\" }"], ""),
    (["BEGIN { x = \"3x\"; print x + 1, -x, !x, !\"\" }"], ""),
    (["BEGIN { print !0, !1, !\"a\", !\"0\" }"], ""),
    (["{ print !$1 }"], "0\n1\n\nabc\n0.0\n"),
    (["BEGIN { print 2 \" \" 3 * 4 }"], ""),
    (["BEGIN { print 1,2 > \"/dev/stdout\"; print \"x\" }"], ""),
    (["BEGIN { nextfile_var = 1; print nextfile_var }"], ""),
    (["FNR == 2 { nextfile } { print FILENAME, $0 }", "t1.txt", "f2"], ""),
    (["BEGIN { while ((\"echo x; echo y\" | getline l) > 0) print \"got\", l }"], ""),
    (["BEGIN { printf \"%c%c\\n\", 256, \"\" }"], ""),
    (["BEGIN { print substr(\"abc\", 0), substr(\"abc\", -1), substr(\"abc\", 2, -1) \"|\" }"], ""),
    (["BEGIN { split(\"3 1 2\", a); n = 0; for (i = 1; i in a; i++) n += a[i]; print n }"], ""),
    (["{ for (i = NF; i > 0; i--) printf \"%s%s\", $i, (i > 1 ? OFS : ORS) }", "t1.txt"], ""),
    (["BEGIN { x = 010; print x, 1e3 + 0, .5 }"], ""),
    (["BEGIN { a = 1; b = \"1\"; print (a == b) }"], ""),
    (["BEGIN { print length(12345), length(1/4) }"], ""),
    (["{ sum[$3 > \"m\"] += $2 } END { print sum[0], sum[1] }", "t1.txt"], ""),
    (["{}"], "x\n"),
    (["END {}"], "x\n"),
    (["BEGIN { printf \"no newline\" }"], ""),
]

# mawk prints some values its own way; tysh follows gawk/POSIX here
MAWK_DIFFERS: dict[str, str] = {
    "substr($1, 0, 2)": "gawk: a start below 1 is 1, length kept (substr(s, -1, 3) is 3 "
                        "characters); mawk gives 4",
    "2^53": "gawk prints integral values as integers; mawk uses OFMT beyond 2^31",
    "2**3": "** is a gawk/one-true-awk extension mawk lacks",
    "\"0x1A\"": "mawk's strtod reads hex strings; gawk and POSIX do not",
    "nums.txt": "mawk's strtod reads 0x10 as 16; gawk and POSIX do not",
    "héllo": "mawk counts bytes; gawk counts characters in a UTF-8 locale",
    "{2}": "mawk 1.3.4 has no interval expressions; gawk and POSIX do",
    "%c%c": "gawk prints U+0100 for %c 256 and nothing for an empty string; mawk a NUL",
}


def _case_id(i: int) -> str:
    return f"{i:03d}-" + "_".join(CASES[i][0])[:40]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("awkdiff")
    for name, text in FILES.items():
        (d / name).write_text(text)
    return d


@pytest.fixture(scope="module")
def kernel(workdir: Path) -> Kernel:
    return Kernel(cwd=str(workdir), limits=Limits(max_output_bytes=None))


def _quote(w: str) -> str:
    return "'" + w.replace("'", "'\\''") + "'"


@pytest.mark.parametrize("i", range(len(CASES)), ids=_case_id)
def test_awk_agrees_with_system_awk(i: int, workdir: Path, kernel: Kernel) -> None:
    args, stdin = CASES[i]
    assert AWK is not None
    ref = subprocess.run([AWK, *args], input=stdin.encode(), cwd=workdir, capture_output=True,
                         timeout=10)
    got = kernel.execute("awk " + " ".join(_quote(a) for a in args), stdin=stdin)
    why = next((w for k, w in MAWK_DIFFERS.items() if any(k in a for a in args)), None)
    if why is not None:
        assert got.code == 0 and got.err == "", got.err
        pytest.skip(f"mawk differs on purpose: {why}")
    assert got.out == ref.stdout.decode(), (got.err, ref.stderr.decode())
    assert got.code == ref.returncode, got.err
