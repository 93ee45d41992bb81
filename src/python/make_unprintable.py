"""Writes unprintable.ts beside it: the code points CPython's str.isprintable() rejects, which repr() escapes.

Run with CPython 3.11 from the repository root: python3 src/python/make_unprintable.py
The table is CPython's own (Unicode 14.0 for 3.11), so repr() escapes what CPython 3.11 escapes whichever Unicode
version Node's regular expressions follow.
"""
import pathlib
import sys
import unicodedata

OUT = pathlib.Path(__file__).with_name("unprintable.ts")
LINE = 110


def ranges():
    start = None
    for code in range(sys.maxunicode + 2):
        unprintable = code <= sys.maxunicode and not chr(code).isprintable()
        if unprintable and start is None:
            start = code
        elif not unprintable and start is not None:
            yield start, code - 1
            start = None


def member(first, last):
    escape = lambda code: "\\\\u{%x}" % code
    return escape(first) if first == last else f"{escape(first)}-{escape(last)}"


def chunks(members):
    line = ""
    for item in members:
        if len(line) + len(item) > LINE:
            yield line
            line = ""
        line += item
    yield line


members = [member(first, last) for first, last in ranges()]
body = "\n".join(f'  "{chunk}",' for chunk in chunks(members))
OUT.write_text(
    f"""// The code points CPython {sys.version_info.major}.{sys.version_info.minor}'s str.isprintable() rejects (Unicode {unicodedata.unidata_version}), as one character class.
// Written by make_unprintable.py beside it: Node's own Unicode tables are newer, and repr() must escape as CPython does.

const RANGES = [
{body}
].join("");

/** Matches one code point CPython's repr() escapes: categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs, but the space. */
export const UNPRINTABLE = new RegExp(`[${{RANGES}}]`, "u");
""",
    encoding="utf-8",
)
print(f"{len(members)} ranges written to {OUT}")
