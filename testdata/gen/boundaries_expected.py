#!/usr/bin/env python3
"""Game boundaries and broken movetext (issues 28 and 29): small PGN files
and the rows `pgnmill report` must give for them, from python-chess 1.11.2.

Writes testdata/pgn/boundaries/*.pgn and testdata/pgn/boundaries/expected.csv
(checked by tests/report/boundaries_vs_python_chess.rs). Run from the repository root:

    python3 testdata/gen/boundaries_expected.py

Each file is built from games, each game a text of its own, joined the way
the case is about (one blank line between tag-only games, every game on one
line, CRLF, no final line end ...). python-chess reads each game's text alone
(where it reads the file as a whole differently, that is the point of the
case: it merges tag-only games separated by one blank line and reads the
games of one line as one game). For each game it gives:

- the tags (`chess.pgn.read_game` on the game's text, asserted to read one
  game; when a name repeats, python-chess keeps the last value);
- the replay: the main-line tokens (comments, variations, move numbers and
  the result left out, written simply enough in these files for a split at
  whitespace) played with `Board.parse_san` until one fails: status `ok`,
  `parse_error` for `InvalidMoveError` (no move at all), `illegal_move` for
  `IllegalMoveError`/`AmbiguousMoveError`; `plies` and the final FEN (ep
  square as python-chess writes it with `en_passant="fen"`, pgnmill's
  `final_fen`). Where every token is a move, the moves are asserted equal to
  `read_game`'s own main line.

Two kinds of rows are not python-chess's reading, and the script says so in
their `why` column: stray text (no tag pair, first token not a move) is
`parse_error` by docs/pgn-dialect.md section 4; a tag value broken across
lines is `parse_error` by section 3 (python-chess drops the tag and makes two
games of it), its tags and moves read by python-chess from the game's text
without the broken tag's lines.
"""

import csv
import io
import logging
import os
import re

import chess
import chess.pgn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "testdata", "pgn", "boundaries")
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
COLUMNS = ["file", "game", "white", "black", "event", "round", "status", "plies",
           "final_fen", "error_contains", "why"]

logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)


def tags_of(text):
    """python-chess's tags of one game's text (it must read one game). A
    line of several tags is given to it one tag a line: python-chess reads
    a tag only alone on its line."""
    text = "".join(re.sub(r"\]\s+\[", "]\n[", line) if line.startswith("[") else line
                   for line in text.splitlines(keepends=True))
    handle = io.StringIO(text)
    game = chess.pgn.read_game(handle)
    assert game is not None, text
    assert chess.pgn.read_game(handle) is None, f"python-chess reads more than one game: {text!r}"
    return game


def main_line(text):
    """The main-line tokens of a movetext written simply: comments and
    variations removed, split at whitespace, move numbers dropped, up to the
    result (also one glued to a move, `e5*`, `Qxf7#1-0`)."""
    text = re.sub(r"\{[^}]*\}", " ", text)
    while re.search(r"\([^()]*\)", text):
        text = re.sub(r"\([^()]*\)", " ", text)
    out = []
    for tok in text.split():
        tok = re.sub(r"^\d+\.+", "", tok)
        if not tok:
            continue
        if tok in RESULTS:
            break
        # python-chess's tokenizer reads `!` and `?` after a move as a NAG.
        glued = [r for r in RESULTS if tok.endswith(r)]
        if glued:
            out.append(tok[:-len(glued[0])].rstrip("!?"))
            break
        out.append(tok.rstrip("!?"))
    return out


def replay(movetext, fen=None):
    """(status, plies, final FEN, error text) of a main line, python-chess
    deciding each token."""
    board = chess.Board(fen) if fen else chess.Board()
    status, error = "ok", ""
    for tok in main_line(movetext):
        try:
            move = board.parse_san(tok)
        except chess.InvalidMoveError:
            status, error = "parse_error", "not a move"
            break
        except (chess.IllegalMoveError, chess.AmbiguousMoveError):
            status, error = "illegal_move", ""
            break
        board.push(move)
    return status, len(board.move_stack), board.fen(en_passant="fen"), error


def movetext_of(text):
    """The game's text after its tag section (lines up to the first that
    is neither a tag, blank, nor an escape)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        s = line.strip()
        if s and not s.startswith("[") and not line.startswith(("%", ";")):
            return "\n".join(lines[i:])
    return ""


def row(name, index, text, why="", status=None, error=""):
    """The expected row of game `index` of file `name`, whose own text is
    `text` (as the dialect splits the file)."""
    game = tags_of(text)
    h = game.headers
    moves = movetext_of(text)
    st, plies, fen, err = replay(moves, h.get("FEN"))
    if st == "ok" and moves.strip():
        # python-chess's own reading of the same main line.
        assert [m.uci() for m in game.mainline_moves()] == \
            [m.uci() for m in replay_moves(moves, h.get("FEN"))], text
    raw = text.lstrip()
    return {
        "file": name, "game": index,
        "white": h.get("White", "") if "[White" in text else "",
        "black": h.get("Black", "") if "[Black" in text else "",
        "event": h.get("Event", "") if "[Event" in raw else "",
        "round": h.get("Round", "") if "[Round" in raw else "",
        "status": status or st, "plies": plies, "final_fen": fen,
        "error_contains": error or err, "why": why,
    }


def replay_moves(movetext, fen):
    board = chess.Board(fen) if fen else chess.Board()
    out = []
    for tok in main_line(movetext):
        move = board.parse_san(tok)
        board.push(move)
        out.append(move)
    return out


def own_lines(piece):
    """A game written on one line, its tags each on a line of their own and
    a blank line before the movetext, as python-chess reads tags."""
    m = re.match(r'^((?:\[[^\]]*\]\s*)*)(.*)$', piece, re.S)
    tags = re.findall(r'\[[^\]]*\]', m.group(1))
    return "".join(t + "\n" for t in tags) + ("\n" if tags else "") + m.group(2) + "\n"


def tag_only(event, white, black, rnd, result="*"):
    head = f'[Event "{event}"]\n' if event else ""
    return (f'{head}[Round "{rnd}"]\n[White "{white}"]\n[Black "{black}"]\n'
            f'[Result "{result}"]\n')


def cases():
    """(file name, bytes of the file, expected rows)."""
    out = []

    # A lichess broadcast export: only the first game has [Event]; the
    # others are only tags, one blank line between games; the last game has
    # moves. python-chess, which allows one blank line between tags, reads
    # the whole file as one game.
    games = [tag_only("Broadcast R1", "Aa", "Ba", "1.1")]
    games += [tag_only("", f"A{c}", f"B{c}", f"1.{i}") for i, c in enumerate("bcde", 2)]
    games.append('[Round "1.6"]\n[White "Af"]\n[Black "Bf"]\n[Result "1-0"]\n\n'
                 '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n')
    text = "\n".join(games)
    out.append(("broadcast-tag-only.pgn", text,
                [row("broadcast-tag-only.pgn", i, g) for i, g in enumerate(games, 1)]))

    # The same with CRLF, and the tag-only game last in the file, without
    # a final line end.
    text = "\n".join(games[1:] + [games[0].rstrip("\n")]).replace("\n", "\r\n")
    rows = [row("tag-only-crlf-last.pgn", i, g)
            for i, g in enumerate(games[1:] + games[:1], 1)]
    out.append(("tag-only-crlf-last.pgn", text, rows))

    # The repeated name is not the section's first tag: `[Round]` comes
    # second in game 1 and first in game 2; game 3's line of two tags
    # repeats `White` only in its second tag.
    g1 = '[Event "e"]\n[Round "1"]\n[White "w1"]\n'
    g2 = '[Round "2"]\n[Black "b2"]\n'
    g3 = '[Site "s"] [Black "b3"]\n[White "w3"]\n'
    g4 = '[White "w4"]\n\n1. d4 d5 *\n'
    text = g1 + "\n" + g2 + "\n" + g3 + "\n" + g4
    out.append(("tag-only-repeat-later-tag.pgn", text,
                [row("tag-only-repeat-later-tag.pgn", i, g) for i, g in enumerate([g1, g2, g3, g4], 1)]))

    # Two blank lines between tag-only games: python-chess reads the file
    # as it is, game for game (a check of the oracle itself).
    text = tag_only("T", "w1", "b1", "1") + "\n\n" + tag_only("T", "w2", "b2", "2") + "\n\n"
    out.append(("tag-only-two-blank-lines.pgn", text, [
        row("tag-only-two-blank-lines.pgn", i, g)
        for i, g in enumerate([tag_only("T", "w1", "b1", "1"), tag_only("T", "w2", "b2", "2")], 1)]))

    # A name that repeats without a blank line: one game, the last value
    # used (python-chess reads this file as it is, as one game).
    text = ('[Event "first"]\n[White "w1"]\n[Event "second"]\n[White "w2"]\n[Black "b"]\n\n'
            '1. e4 c5 *\n')
    out.append(("tag-repeated-without-blank-line.pgn", text,
                [row("tag-repeated-without-blank-line.pgn", 1, text)]))

    # A blank line then tags of new names stays in the tag section
    # (ChessBase); python-chess reads it as it is.
    text = '[Event "cb"]\n[White "w"]\n\n[Black "b"]\n[Annotator "x"]\n\n1. c4 e5 1/2-1/2\n'
    out.append(("tag-section-with-blank-line.pgn", text,
                [row("tag-section-with-blank-line.pgn", 1, text)]))

    # Tagless games on one line, with every result token, a result glued to
    # a move, comments holding result tokens, a comment after a result and
    # one across lines between a result and the next game; a result inside
    # a variation does not end its game.
    pieces = ["1. e4 e5 *", "1. d4 d5 1/2-1/2", "1. c4 0-1", "1. Nf3 Nf6 2. g3 1-0",
              "1. e4 c5*", "1. d4 {1-0} Nf6 {*} 2. c4 1-0 {done}",
              "1. e4 (1. d4 1-0) e6 0-1 {over\ntwo lines}", "1. b3 e5 *"]
    text = " ".join(pieces) + "\n"
    rows = [row("tagless-one-line.pgn", i, p) for i, p in enumerate(pieces, 1)]
    out.append(("tagless-one-line.pgn", text, rows))

    # The same with tags between some of the games on the line.
    pieces = ['[White "x"] 1. e4 e5 1-0', "1. d4 *", '[White "y"] [Black "z"] 1. c4 c5 0-1',
              "1. g3 1/2-1/2"]
    text = " ".join(pieces) + "\r\n"
    rows = [row("tags-and-tagless-one-line.pgn", i, own_lines(p)) for i, p in enumerate(pieces, 1)]
    out.append(("tags-and-tagless-one-line.pgn", text, rows))

    # Tokens that are no move at all are parse_error, moves that cannot be
    # played illegal_move (python-chess's InvalidMoveError, IllegalMoveError,
    # AmbiguousMoveError); stray text before the first game is no game.
    games = [
        '[Event "words"]\n\n1. pawn goes to e4 *\n',
        '[Event "typo"]\n\n1. e4 e5 2. Nf9 Nc6 *\n',
        '[Event "german"]\n\n1. d4 Sf6 *\n',
        '[Event "illegal"]\n\n1. e4 e5 2. Ke3 *\n',
        '[Event "ambiguous"]\n[FEN "4k3/8/8/8/8/8/8/2N1K1N1 w - - 0 1"]\n\n1. Ne2 *\n',
        '[Event "descriptive"]\n\n1. P-K4 P-K4 *\n',
        '[Event "uci, no piece there"]\n\n1. e2e4 e7e5 2. g1f3 b8c6 3. g1h1 *\n',
    ]
    stray = "Downloaded from a club page\n\n"
    text = stray + "\n".join(games)
    rows = [{"file": "not-a-move.pgn", "game": 1, "white": "", "black": "", "event": "",
             "round": "", "status": "parse_error", "plies": 0,
             "final_fen": chess.STARTING_FEN,
             "error_contains": 'line 1: stray text (no tag pair, and "Downloaded" is not a move)',
             "why": "docs/pgn-dialect.md section 4: stray text is no game"}]
    rows += [row("not-a-move.pgn", i, g) for i, g in enumerate(games, 2)]
    out.append(("not-a-move.pgn", text, rows))

    # Tag values broken across lines. python-chess drops the broken tag and
    # reads its second line as movetext of a game of its own; the dialect
    # keeps one game, parse_error, its moves replayed. Its expected tags and
    # moves are python-chess's reading of the game without the broken tag's
    # lines.
    broken = [
        ('[Event "Linebreak"]\n[Site "Somewhere\non the Earth"]\n[White "w1"]\n\n1. e4 e5 *\n',
         '[Event "Linebreak"]\n[White "w1"]\n\n1. e4 e5 *\n', 2,
         "the tag at line 2 has no closing quote: its value was ended at the line end, "
         "and line 3 that goes on with it was not read"),
        ('[Event "Three\nline\nvalue"]\n[White "w2"]\n[Result "1-0"]\n\n1. d4 1-0\n',
         '[White "w2"]\n[Result "1-0"]\n\n1. d4 1-0\n', 8,
         "the tag at line 8 has no closing quote: its value was ended at the line end, "
         "and lines 9-10 that go on with it were not read"),
        ('[Event "No continuation]\n[White "w3"]\n\n1. c4 *\n',
         '[White "w3"]\n\n1. c4 *\n', 16,
         "the tag at line 16 has no closing quote: its value was ended at the line end"),
        ('[White "w4"]\n[Annotator "Open\n1. Nf3 *\n',
         '[White "w4"]\n\n1. Nf3 *\n', 22,
         "the tag at line 22 has no closing quote: its value was ended at the line end"),
    ]
    text = "\n".join(b[0] for b in broken)
    rows = []
    for i, (_, clean, _, err) in enumerate(broken, 1):
        r = row("broken-tag-value.pgn", i, clean, status="parse_error", error=err,
                why="docs/pgn-dialect.md section 3: a tag value broken across lines")
        rows.append(r)
    # The events of games 1 and 3 are the broken values cut at the line end.
    rows[0]["event"] = "Linebreak"
    rows[1]["event"] = "Three"
    rows[2]["event"] = "No continuation]"
    out.append(("broken-tag-value.pgn", text, rows))
    out.append(("broken-tag-value-crlf.pgn", text.replace("\n", "\r\n"),
                [dict(r, file="broken-tag-value-crlf.pgn") for r in rows]))

    # Quotes written inside a tag value without their backslash, as real
    # files have them: wukong-liu-dahua-1125-iccs.pgn line 4543 (the first
    # game's event, copied), and CCPD's Big5 middlegames whose events quote
    # a cup's name (the third, written here in UTF-8). python-chess reads a
    # value up to the last quote before the line's `]`; so does the dialect,
    # which ends a value at the first quote that a `]` or the line's end
    # follows (docs/pgn-dialect.md section 3).
    quoted = [
        '[Event ""Huangshan Cup" National GM,CM Tournament 2002"]\n[White "XU YinChuan"]\n'
        '[Black "LIU DaHua"]\n[Round "1"]\n\n1. e4 e5 *\n',
        '[Event "Titled Arena"]\n[White "Carlsen, Magnus "DrNykterstein""]\n[Black "O"Brien"]\n'
        '[Round "2"2"]\n\n1. d4 d5 *\n',
        '[Event "首屆"味極王杯"象棋精英賽 004"]\n[White "He said "no""]\n[Black ""quoted at the start"]\n'
        '[Round "two "" quotes"]\n\n1. c4 *\n',
        '[Event """]\n[White "]"]\n[Black "a "b" c"]\n\n1. Nf3 *\n',
    ]
    text = "\n".join(quoted)
    out.append(("unescaped-quotes.pgn", text,
                [row("unescaped-quotes.pgn", i, g) for i, g in enumerate(quoted, 1)]))

    # Files joined with `cat` after a Windows tool saved each with a byte
    # order mark: a BOM before the second and third games' first tag line.
    # Movetext copied from a web page, with no-break spaces (U+00A0) where
    # spaces belong, in a game with no tag that names its variant.
    # python-chess reads each game alike with or without its BOM (asserted),
    # and splits the movetext at the no-break spaces, as Python's split()
    # does in main_line.
    games = ['[Event "a"]\n[White "w1"]\n\n1. e4 e5 *\n',
             '[Event "b"]\n[White "w2"]\n\n1. d4 d5 2. c4 *\n',
             '[Event "c"]\n[White "w3"]\n\n1.\u00a0Nf3\u00a0d5 2.\u00a0g3\u00a0\u00a0c5 *\n',
             '[Event "d"]\n\n1.\u00a0e4\u00a0e5 2.\u00a0Nf3 *\n']
    for g in games:
        assert dict(tags_of("\ufeff" + g).headers) == dict(tags_of(g).headers), g
    text = games[0] + "\n" + "\n".join("\ufeff" + g for g in games[1:3]) + "\n" + games[3]
    out.append(("bom-and-no-break-space.pgn", text,
                [row("bom-and-no-break-space.pgn", i, g) for i, g in enumerate(games, 1)]))

    # Results typed without the space before them, glued to the last move:
    # python-chess's tokenizer reads the move and then the result (its
    # main line is asserted equal to the one read here), and the result
    # ends the game for the next one on the same line or the next.
    # `x1-0` glues a result to a token that is no move.
    games = ['[Event "g1"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#1-0\n',
             '[Event "g2"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4#0-1\n',
             '[Event "g3"]\n[Result "1/2-1/2"]\n\n1. e4 e5 2. Nf3 Nc6 3. Ng1 Nb8 4. Nf3!1/2-1/2\n']
    pieces = ["1. d4 d5 2. c4 e6 3. Nc3 Nf61-0", "1. e4 c5 2. Nf3 d6 0-1"]
    lines = ["1. c4 e50-1", "1. Nf3 Nf6 2. g3 1/2-1/2", "1. e4 x1-0", "1. d4 *"]
    text = "\n".join(games) + "\n" + " ".join(pieces) + "\n" + "\n".join(lines) + "\n"
    rows = [row("results-glued-to-moves.pgn", i, g)
            for i, g in enumerate(games + pieces + lines, 1)]
    out.append(("results-glued-to-moves.pgn", text, rows))
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    all_rows = []
    for name, text, rows in cases():
        with open(os.path.join(OUT, name), "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        all_rows += rows
    with open(os.path.join(OUT, "expected.csv"), "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(COLUMNS)
        for r in all_rows:
            w.writerow([r[c] for c in COLUMNS])
    print(f"python-chess {chess.__version__}: {len(all_rows)} rows in {OUT}")


if __name__ == "__main__":
    main()
