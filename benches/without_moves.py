#!/usr/bin/env python3
"""without_moves.py: a PGN corpus with every game's movetext taken out.

Keeps each game's tag section as it is and puts the game's result (its
[Result] tag, `*` without one) where the movetext was, so that a report of
the output has the same games with no ply: what it costs is what a game
costs before its first move (splitting its tags, reading them, its row,
its final FEN), measured by `CORPUS=no-moves benches/instructions_per_ply.sh`.

A tag section is a run of lines of the shape `[Name "value"]`; every other
line is movetext (or text between games) and is dropped. The games of the
corpora this is run on begin with a tag section each, so the output has as
many games as the input; the script that runs it checks that.

Usage: benches/without_moves.py < corpus.pgn > without-moves.pgn
"""

import re
import sys

TAG_LINE = re.compile(rb'^\[[A-Za-z0-9_]+ ".*"\]$')
RESULT = re.compile(rb'^\[Result "([^"]*)"\]$')


def main():
    out = sys.stdout.buffer
    section = []
    result = b"*"

    def flush():
        if section:
            out.write(b"\n".join(section) + b"\n\n" + result + b"\n\n")

    in_tags = False
    for raw in sys.stdin.buffer:
        line = raw.rstrip(b"\r\n")
        if TAG_LINE.match(line):
            if not in_tags:
                flush()
                section, result, in_tags = [], b"*", True
            section.append(line)
            m = RESULT.match(line)
            if m:
                result = m.group(1)
        else:
            in_tags = False
    flush()


if __name__ == "__main__":
    main()
