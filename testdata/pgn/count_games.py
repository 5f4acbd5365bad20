#!/usr/bin/env python3
"""Counts the games in each file of corpus/ with python-chess's read_game.

Writes game_counts.csv with two counts per file:
  python_chess  - chess.pgn.read_game on the file as it is;
  expected      - chess.pgn.read_game on the file after the normalisation
                  below, which spells out pgnmill's deliberate differences
                  from python-chess (see src/pgn/split.rs):
    1. a line starting with '[' (after optional whitespace) that follows
       movetext starts a new game: a blank line is inserted before it;
    2. a line holding only a result token after blank lines in movetext
       belongs to the game: the blank lines before it are removed;
    3. after a blank line in a tag section, a tag line whose first tag has
       the name of the game's first tag starts a new game: a second blank
       line is inserted before it;
    4. a tag line that carries movetext after its tags is split in two, and
       leading whitespace before a tag line is removed (python-chess only
       recognises tags at the start of a line).
Comments ({...} across lines, ';' to end of line, '%' lines) are tracked so
that nothing inside a comment is changed.

Where no normalisation can make python-chess read a file as the spec says,
SPEC_COUNTS gives the count by hand, with the reason.

Run: pip install chess==1.11.2 && python3 count_games.py > game_counts.csv
"""
import io
import os
import re
import sys

import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
TAG = re.compile(r'\s*\[[^"\]\n]*(?:"(?:[^"\\\n]|\\.)*"?)?[^\]\n]*\]?')


def encoding_of(name):
    if name.endswith("-gbk.pgn"):
        return "gb18030"
    if "big5" in name:
        return "big5hkscs"
    if name == "dortmund.pgn":
        return "latin-1"
    return "utf-8-sig"


class Counter(chess.pgn.BaseVisitor):
    """Walks every game like the default GameBuilder, minus building a tree
    (which crashes on some malformed files), and ignores errors."""

    def handle_error(self, error):
        pass

    def result(self):
        return True


def python_chess_count(text):
    handle = io.StringIO(text)
    n = 0
    while chess.pgn.read_game(handle, Visitor=Counter) is not None:
        n += 1
    return n


def scan_comment_state(line, in_comment):
    """Returns whether a '{' comment is still open at the end of `line`."""
    i = 0
    while i < len(line):
        c = line[i]
        if in_comment:
            if c == "}":
                in_comment = False
        elif c == "{":
            in_comment = True
        elif c == ";":
            break
        i += 1
    return in_comment


# Counts checked by hand where python-chess's reading cannot be normalised.
SPEC_COUNTS = {
    # Blank lines inside movetext and inside variations (the Paulsen-Morphy
    # game, the long/short comment game) do not end a game (spec: a game
    # without a result ends where the next tag section begins): 15 games, one
    # per [Event]. python-chess ends games at blank lines, finds 34 pieces and
    # then raises IndexError; testdata/expected/README.md agrees on 15.
    "kokopu-misc.pgn": 15,
    # A comment that never closes runs across a blank line into the next
    # game's tag: docs/pgn-dialect.md §2 rule 5 ends the broken game there,
    # so the valid game after it is a row of its own (issue 13).
    "kokopu-syntactic-error-4.pgn": 2,
}


def tag_name(line):
    """The name of the first tag on a line that starts with '['."""
    m = re.match(r'\[\s*([^\s"\]]*)', line)
    return m.group(1) if m else ""


def normalise(text):
    lines = io.StringIO(text).readlines()
    out = []
    in_comment = False
    phase = "none"  # none, headers, movetext, blank-after-movetext
    first_tag = None
    blank_in_headers = False
    for line in lines:
        if in_comment:
            out.append(line)
            in_comment = scan_comment_state(line, True)
            continue
        blank = line.isspace() or line == ""
        if phase in ("movetext", "mtblank"):
            if blank:
                phase = "mtblank"
                out.append(line)
                continue
            if phase == "mtblank":
                if line.strip() in RESULTS:
                    while out and out[-1].isspace():
                        out.pop()
                    out.append(line)
                    phase = "movetext"
                    continue
                phase = "none"
            elif line.startswith("%"):
                out.append(line)
                continue
            elif line.lstrip().startswith("["):
                out.append("\n")
                phase = "none"
            else:
                out.append(line)
                in_comment = scan_comment_state(line, False)
                continue
        if blank or line.startswith(("%", ";")):
            if blank and phase == "headers":
                blank_in_headers = True
            out.append(line)
            continue
        if line.lstrip().startswith("["):
            line = line.lstrip()
            name = tag_name(line)
            if phase == "headers" and blank_in_headers and name.lower() == (first_tag or "").lower() and first_tag:
                out.append("\n")
                phase = "none"
            if phase != "headers":
                first_tag = name
            blank_in_headers = False
            m = TAG.match(line)
            end = 0
            while m and m.end() > end and line[m.start():].lstrip().startswith("["):
                end = m.end()
                m = TAG.match(line, end)
            rest = line[end:]
            if rest.strip():
                out.append(line[:end] + "\n")
                out.append(rest)
                phase = "movetext"
                in_comment = scan_comment_state(rest, False)
            else:
                out.append(line)
                phase = "headers"
            continue
        out.append(line)
        phase = "movetext"
        in_comment = scan_comment_state(line, False)
    return "".join(out)


def main():
    w = sys.stdout
    w.write("file,python_chess,expected\n")
    for name in sorted(os.listdir(CORPUS)):
        path = os.path.join(CORPUS, name)
        with open(path, encoding=encoding_of(name), errors="replace", newline=None) as f:
            text = f.read()
        expected = SPEC_COUNTS.get(name)
        if expected is None:
            expected = python_chess_count(normalise(text))
        w.write("%s,%d,%d\n" % (name, python_chess_count(text), expected))


if __name__ == "__main__":
    main()
