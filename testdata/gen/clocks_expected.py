#!/usr/bin/env python3
"""Expected clocks, evaluations and per-ply rows (issue 33), from python-chess 1.11.2.

Run from the repository root:

    python3 testdata/gen/clocks_expected.py
    python3 testdata/gen/clocks_expected.py --game SOURCE N   # one game's rows
    python3 testdata/gen/clocks_expected.py --dir DIR --out FILE

The last form writes the games file for every PGN file under DIR (its
`source` the path below DIR), for the ignored test `clocks_under_dir` that
checks a collection outside the repository (/work/shared/corpora/chess-real).

It writes:

1. testdata/chess/clocks-cases.pgn: constructed games, one rule each (the
   Event tag names it): hours >= 10, several comments after one move, clocks
   missing on some plies, clocks inside variations, %emt, %eval with depths
   and mates of both signs, edge spellings, games without any command,
   [TimeControl] spellings, a threefold claim, Chess960, a start with Black
   to move, en passant, a null move, a broken game. The generator asserts
   with python-chess what each game's Event claims, where that can be said in
   one line, so that the cases cannot drift.
2. testdata/expected/clocks-games.csv: one row per game of every file of
   testdata/corpus (files sorted by name) and of the cases file, games in
   file order, that python-chess reads as pgnmill does (see below): the
   `--clocks` columns, the number of plies, and `plies_crc32`, the CRC-32
   (zlib) of the game's per-ply rows written as tab-separated lines
   `ply san uci fen clock_ms emt_ms eval_cp eval_mate eval_depth repetition`
   (empty for a missing value), so that every ply of every game is compared
   without committing megabytes of FENs.
3. testdata/expected/clocks-cases-plies.csv: those rows in full for the
   cases file.

Where the values come from:
- The commands: python-chess's own `read_game` on the game's text, then
  `node.clock()`, `node.emt()`, `node.eval()` (its `white()` score: `score()`
  for centipawns, `mate()` for a mate) and `node.eval_depth()` on each
  main-line node. Seconds become milliseconds by `round(seconds * 1000)`;
  values that do not fit a 32-bit integer are written empty (pgnmill's
  documented bound: its columns are Int32).
- SAN, UCI and FEN: python-chess `Board.san()`, `Move.uci()`, `Board.fen()`
  (en passant only where a capture is legal); `repetition`: how often
  `Board._transposition_key()` (python-chess's repetition key, ep-if-legal)
  has occurred so far, the start position included.
- `time_base`, `time_increment`: python-chess's `parse_time_control`, kept
  only for one sudden-death period (no moves/seconds part, no delay) whose
  numbers are spelt as programs write them (digits, an increment with an
  optional fraction, spaces around them); see docs/pgn-dialect.md.
- The side clocks and times used follow docs/reports.md: for each clock of
  a side after its first, the clock before minus this one plus the
  increment times the moves the side made in between; empty without a
  sudden-death increment or with fewer than two clocks.
- `clock_at_threefold_claim`: the clock of ply P-1, where P is the first ply
  at which python-chess's `can_claim_threefold_repetition()` holds.

Which games and moves: the file is cut into games, and each game's main line
into move tokens, by report_expected.py (the reading the report test relies
on: a game ends at its result token or at the next tag section, never at a
blank line). python-chess's `read_game` is then given the text of that one
game, up to and including its result token, or up to the token where the
replay stops for a broken game; its blank lines outside comments are
dropped (python-chess would end the game there). A game whose python-chess
main line is not the replayed main line is left out and listed (a variation
holding a move python-chess cannot play makes python-chess lose its place,
for one); so is a game of a variant pgnmill does not play. pgnmill's rule
for the last move, that comments after the result token are not its own,
is this cut: python-chess reads on past a result.
"""

import csv
import io
import logging
import os
import re
import sys
import zlib

import chess
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import report_expected as rx  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
CORPUS = "testdata/corpus"
CASES = "testdata/chess/clocks-cases.pgn"
GAMES_OUT = "testdata/expected/clocks-games.csv"
PLIES_OUT = "testdata/expected/clocks-cases-plies.csv"

logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)

INT32 = 2**31 - 1

GAME_COLUMNS = [
    "source", "game", "plies",
    "time_base", "time_increment",
    "white_clock_first", "white_clock_last", "white_clock_min",
    "black_clock_first", "black_clock_last", "black_clock_min",
    "white_time_used", "black_time_used",
    "clock_plies", "clock_at_threefold_claim",
    "eval_plies", "eval_last_cp", "eval_last_mate",
    "plies_crc32",
]
PLY_COLUMNS = [
    "source", "game", "ply", "san", "uci", "fen", "clock_ms", "emt_ms",
    "eval_cp", "eval_mate", "eval_depth", "repetition",
]

# ------------------------------------------------------------------ cases

def case(event, movetext, **tags):
    head = [f'[Event "{event}"]', '[Site "pgnmill clocks cases"]']
    head += [f'[{k} "{v}"]' for k, v in tags.items()]
    result = movetext.split()[-1] if movetext.split() else "*"
    if result in ("1-0", "0-1", "1/2-1/2", "*"):
        head.append(f'[Result "{result}"]')
    return "\n".join(head) + "\n\n" + movetext + "\n"


START_BLACK = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
CHESS960 = "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1"

CASES_GAMES = [
    case("hours of ten and more",
         "1. e4 {[%clk 10:00:00]} 1... e5 {[%clk 10:00:25]} 2. Nf3 {[%clk 9:59:40]} "
         "2... Nc6 {[%clk 123:04:05.5]} 3. Bb5 {[%clk 10:00:10]} 1-0",
         TimeControl="36000+30"),
    case("several comments after one move",
         "1. e4 {first words} {[%clk 0:05:00]} {[%clk 0:04:00] [%eval 0.3]} "
         "1... e5 {[%eval 0.5,18]} {[%clk 0:04:59]} { } {} {[%eval 9.99]} "
         "2. Nf3 {[%clk} {0:04:58]} 2... Nc6 {[%eval} {-0.25]} *",
         TimeControl="300+0"),
    case("clocks missing on some plies",
         "1. d4 {[%clk 0:03:00]} 1... d5 {[%clk 0:03:00]} 2. c4 2... e6 {[%clk 0:02:59]} "
         "3. Nc3 {[%clk 0:02:55]} 3... Nf6 4. Bg5 4... Be7 {[%clk 0:02:40]} "
         "5. e3 {[%clk 0:02:50]} 5... O-O 1/2-1/2",
         TimeControl="180+2"),
    case("clocks inside variations",
         "1. e4 {[%clk 0:03:00]} 1... e5 (1... c5 {[%clk 0:02:00]} 2. Nf3 {[%clk 0:01:00]}) "
         "{[%clk 0:02:59]} 2. Nf3 ( {[%clk 0:00:10]} 2. d4 ) {[%clk 0:02:58]} "
         "2... Nc6 {[%clk 0:02:57]} ( ) {[%clk 0:00:01]} 3. Bb5 ( 3. Bc4 ( ) ) {[%clk 0:00:02]} "
         "3... a6 {[%clk 0:02:50]} (3... Nf6 (3... d6 {[%clk 0:00:03]}) {[%clk 0:00:04]}) "
         "{[%clk 0:02:49]} 4. Ba4 {[%clk 0:02:45]} *",
         TimeControl="180+0"),
    case("emt",
         "1. e4 {[%emt 0:00:01]} 1... c5 {[%emt 0:00:21] thinking} 2. Nf3 {[%emt 0:00:05.25]} "
         "2... d6 {[%emt 1:02:03]} 3. d4 {[%emt 0:00:05] [%clk 1:29:00]} 3... cxd4 {[%emt 0:0:7]} *"),
    case("eval depths and mates of both signs",
         "1. f3 {[%eval 0.17,20]} 1... e5 {[%eval -1.5]} 2. g4 {[%eval +.5,7]} "
         "2... Qh4# {[%eval #0]} 0-1"),
    case("mates for both sides",
         "1. e4 {[%eval #3]} 1... e5 {[%eval #-3,33]} 2. Qh5 {[%eval #+2]} 2... Nc6 {[%eval #-0]} "
         "3. Bc4 {[%eval 12.]} 3... Nf6 {[%eval 0.123] [%eval 1.25]} 4. Qxf7# {[%eval 12345678901] [%eval 3]} 1-0"),
    case("engine comments are not evals",
         "1. e4 {+0.35/20 5s} 1... e5 {-0.12/18 3s} 2. Nf3 {book} 2... Nc6 {(0.17) eval 0.2} *"),
    case("no comments at all", "1. d4 d5 2. c4 c6 3. Nc3 Nf6 *", TimeControl="600+5"),
    case("edge spellings",
         "1. e4 {[%clk 0:05]} 1... e5 {[%clk  0:05:00]} 2. Nf3 {[%clk 0:05:00 ]} "
         "2... Nc6 {[%clk\t0:04:59]} 3. Bb5 {[%clk 0:5:0]} 3... a6 {[%clk 00:04:58.]} "
         "4. Ba4 {[%clk 0:04:57.123456]} 4... Nf6 {[%CLK 0:01:00]} 5. O-O {[%clk 0:04:57,5]} "
         "5... Be7 {[ %clk 0:04:50]} 6. Re1 {[%clk 0:05] [%clk 0:04:00]} 6... b5 {[%clk 0:0400:00]} *",
         TimeControl="300+2"),
    case("unicode digits and spaces",
         "1. e4 {[%clk \uff10:\uff10\uff11:\uff10\uff10]} 1... e5 {[%clk\u00a00:01:00]} "
         "2. Nf3 {[%eval \u0660.\u0665]} 2... Nc6 {[%clk\u30000:00:59] [%eval #\u0663]} "
         "3. Bc4 {[%clk\u200b0:00:58]} *"),
    case("values too large for the columns",
         "1. e4 {[%clk 600:00:00] [%clk 0:01:00]} 1... e5 {[%clk 596:31:23.647]} "
         "2. Nf3 {[%eval #99999999999] [%eval 1.0]} 2... Nc6 {[%eval 21474836.48]} "
         "3. Bc4 {[%eval 0.5,99999999999]} 3... Bc5 {[%emt 999:00:00]} *"),
    case("commands in escapes and game comments",
         "{[%clk 0:09:00] a game comment} 1. e4 ; [%clk 0:01:00] {not closed\n"
         "%[%clk 0:02:00]\n1... e5 {[%clk 0:03:00]} *"),
    case("tenths as chess.com writes them",
         "1. e4 {[%clk 0:10:00]} 1... e6 {[%clk 0:10:00]} 2. d4 {[%clk 0:09:57.1]} "
         "2... d5 {[%clk 0:09:57.7]} 3. exd5 {[%clk 0:09:54.2]} 3... Qxd5 {[%clk 0:09:53.8]} 1-0",
         TimeControl="600"),
    case("threefold claim with clocks",
         "1. Nf3 {[%clk 0:01:00]} 1... Nf6 {[%clk 0:01:00]} 2. Ng1 {[%clk 0:00:59]} "
         "2... Ng8 {[%clk 0:00:58]} 3. Nf3 {[%clk 0:00:57]} 3... Nf6 {[%clk 0:00:56]} "
         "4. Ng1 {[%clk 0:00:55]} 4... Ng8 {[%clk 0:00:54]} 5. Nf3 {[%clk 0:00:53]} 1/2-1/2",
         TimeControl="60+0"),
    case("threefold claim without the clock",
         "1. Nf3 {[%clk 0:01:00]} 1... Nf6 {[%clk 0:01:00]} 2. Ng1 {[%clk 0:00:59]} "
         "2... Ng8 {[%clk 0:00:58]} 3. Nf3 3... Nf6 4. Ng1 4... Ng8 {[%clk 0:00:54]} 1/2-1/2",
         TimeControl="60+0"),
    case("chess960 castling",
         "1. b3 {[%clk 0:03:00]} 1... b6 {[%clk 0:03:00]} 2. Bb2 2... Bb7 "
         "3. O-O-O {[%clk 0:02:30] [%eval 0.1]} 3... O-O-O {[%clk 0:02:40]} *",
         Variant="Chess960", SetUp="1", FEN=CHESS960, TimeControl="180+0"),
    case("black moves first",
         "1... c5 {[%clk 0:05:00]} 2. Nf3 {[%clk 0:05:00]} 2... d6 {[%clk 0:04:50]} "
         "3. d4 {[%clk 0:04:40]} 3... cxd4 {[%clk 0:04:45]} *",
         SetUp="1", FEN=START_BLACK, TimeControl="300+5"),
    case("en passant written only where legal",
         "1. e4 Nc6 2. e5 d5 3. exd6 cxd6 4. h4 g5 5. hxg5 f5 6. gxf6 e5 7. d4 Qa5+ 8. c3 *"),
    case("a null move and a promotion with check",
         "1. a8=Q+ {[%eval #9]} 1... Kd7 {[%clk 0:01:00]} 2. -- {[%clk 0:00:59]} 2... Kd6 "
         "3. Qd5+ {[%eval #-0]} *", SetUp="1", FEN="4k3/P7/8/8/8/8/8/K7 w - - 0 1"),
    case("a null move in check is written -- with no suffix",
         "1. e4 f5 2. Qh5+ -- 3. -- g6 4. Qxg6+ hxg6 *"),
    case("a null move after mate is written -- with no suffix",
         "1. f3 e5 2. g4 Qh4# -- *"),
    case("a broken game keeps the commands of its replayed moves",
         "1. e4 {[%clk 0:01:00]} 1... e5 {[%clk 0:00:59]} 2. Ke3 {[%clk 0:00:58]} 2... Nc6 *",
         TimeControl="60+1"),
    case("a result glued to the last move",
         "1. e4 {[%clk 0:01:00]} 1... e5 {[%clk 0:00:59]} 2. Nf3* {[%clk 0:00:58]}",
         TimeControl="60+1"),
    case("a comment after the result is not the last move's",
         "1. e4 {[%clk 0:01:00]} 1... e5 1-0 {[%clk 0:00:30]}"),
    case("a command across a line end",
         "1. e4 {[%clk\r\n0:01:00]} 1... e5 {[%clk\n0:00:59] [%eval\r\n0.5]} *"),
    case("time control unlimited", "1. e4 {[%clk 0:01:00]} *", TimeControl="-"),
    case("time control unknown", "1. e4 {[%clk 0:01:00]} *", TimeControl="?"),
    case("time control correspondence", "1. e4 {[%clk 71:59:59]} 1... e5 {[%clk 71:00:00]} "
         "2. Nf3 {[%clk 70:00:00]} 2... Nc6 {[%clk 70:59:00]} *", TimeControl="1/259200"),
    case("time control in two periods", "1. e4 {[%clk 2:00:00]} *", TimeControl="40/7200:3600"),
    case("time control with a delay", "1. e4 {[%clk 0:05:00]} *", TimeControl="300+5d"),
    case("time control with spaces and a fraction",
         "1. e4 {[%clk 0:00:15]} 1... e5 {[%clk 0:00:15]} 2. Nf3 {[%clk 0:00:14.5]} "
         "2... Nc6 {[%clk 0:00:15.2]} 3. Bc4 {[%clk 0:00:13]} *", TimeControl=" 15 + 0.5 "),
    case("time control hourglass", "1. e4 *", TimeControl="*60"),
    case("time control garbage", "1. e4 *", TimeControl="blitz"),
    case("time control too long", "1. e4 *", TimeControl="9999999"),
    case("time control written with an underscore", "1. e4 *", TimeControl="3_00+2"),
    case("time control bare zero", "1. e4 *", TimeControl="0"),
]


def write_cases():
    text = "\n".join(CASES_GAMES)
    with open(os.path.join(ROOT, CASES), "w", newline="") as f:
        f.write(text)


def check_cases():
    """Each case shows what its Event says, where that is one line."""
    games = {}
    with open(os.path.join(ROOT, CASES)) as f:
        while (g := chess.pgn.read_game(f)) is not None:
            games[g.headers["Event"]] = g

    def nodes(event):
        return list(games[event].mainline())

    assert nodes("hours of ten and more")[3].clock() == 123 * 3600 + 4 * 60 + 5.5
    several = nodes("several comments after one move")
    assert several[0].clock() == 300 and several[0].eval().white().score() == 30
    assert several[1].eval_depth() == 18 and several[2].clock() == 298
    assert several[3].eval().white().score() == -25
    variations = nodes("clocks inside variations")
    assert [n.clock() for n in variations] == [180, 179, 178, 177, None, 170, 165]
    assert nodes("emt")[2].emt() == 5.25
    mates = nodes("mates for both sides")
    assert [n.eval().white().mate() for n in mates[:4]] == [3, -3, 2, 0]
    assert mates[5].eval().white().score() == 125 and mates[6].eval().white().score() == 300
    assert all(n.eval() is None for n in nodes("engine comments are not evals"))
    edge = nodes("edge spellings")
    assert [n.clock() for n in edge] == [
        None, None, None, 299, 300, 298, 297.123456, None, None, None, 240, 24000]
    uni = nodes("unicode digits and spaces")
    assert [n.clock() for n in uni[:2]] == [60, 60] and uni[2].eval().white().score() == 50
    assert uni[3].clock() == 59 and uni[3].eval().white().mate() == 3 and uni[4].clock() is None
    assert all(n.clock() is None for n in nodes("commands in escapes and game comments")[:1])
    assert nodes("a command across a line end")[1].eval().white().score() == 50


# ------------------------------------------------------------------ reading

def millis(seconds):
    if seconds is None:
        return None
    ms = round(seconds * 1000)
    return ms if abs(ms) <= INT32 else None


def in_range(value):
    return value if value is not None and abs(value) <= INT32 else None


def commands(node):
    """(clock_ms, emt_ms, eval_cp, eval_mate, eval_depth) of a node."""
    pov = node.eval()
    cp = mate = depth = None
    if pov is not None:
        white = pov.white()
        if white.is_mate():
            mate = in_range(white.mate())
        else:
            cp = in_range(white.score())
        if cp is not None or mate is not None:
            depth = in_range(node.eval_depth())
    return (millis(node.clock()), millis(node.emt()), cp, mate, depth)


SPELLING = re.compile(r"[ \t]*[0-9]+[ \t]*(\+[ \t]*([0-9]+\.?[0-9]*|\.[0-9]+)[ \t]*)?")


def time_control(value):
    """(base_ms, increment_ms) of a one-period sudden-death control."""
    if value is None or not SPELLING.fullmatch(value):
        return None, None
    try:
        tc = chess.pgn.parse_time_control(value)
    except ValueError:
        return None, None
    if len(tc.parts) != 1 or tc.parts[0].moves or tc.parts[0].delay:
        return None, None
    part = tc.parts[0]
    base, inc = part.time * 1000, round(part.increment * 1000)
    if base > INT32 or inc > INT32:
        return None, None
    return base, inc


def side_clocks(clocks, increment):
    """first, last, min and time used of one side's [(ply, clock_ms)]."""
    if not clocks:
        return [None, None, None, None]
    values = [c for _, c in clocks]
    used = None
    if increment is not None and len(clocks) >= 2:
        used = 0
        for (p0, c0), (p1, c1) in zip(clocks, clocks[1:]):
            used += c0 - c1 + increment * ((p1 - p0) // 2)
        used = in_range(used)
    return [values[0], values[-1], min(values), used]


def fmt(value):
    return "" if value is None else str(value)


def cut_text(text, raw, next_pos, stop_at_move):
    """The game's movetext from its first token to its result token
    (included), or to its main-line move token number `stop_at_move`
    (1-based, excluded) when the replay stops there; after the tags
    python-chess needs for the board, one a line (a game may have its tags
    and moves on one line, which python-chess does not read)."""
    end = len(text) if next_pos is None else next_pos
    whole = text[raw.pos:end]
    start = next((pos for kind, _, pos in rx.lex(whole) if kind not in ("tag", "badtag")),
                 len(whole))
    head = "".join(f'[{name} "{raw.tags[name]}"]\n' for name in ("Variant", "SetUp", "FEN")
                   if name in raw.tags)
    return head + "\n" + movetext_until(whole[start:], stop_at_move)


def movetext_until(piece, stop_at_move):
    """`piece` up to its result token or its move token `stop_at_move`."""
    depth = 0
    moves = 0
    for kind, value, pos in rx.lex(piece):
        if kind == "open":
            depth += 1
        elif kind == "close" and depth > 0:
            depth -= 1
        elif kind == "symbol" and depth == 0:
            if value in rx.RESULTS:
                return piece[:pos + len(value)]
            if is_main_line_move(value):
                moves += 1
                if moves == stop_at_move:
                    return piece[:pos]
    return piece


def is_main_line_move(token):
    """Whether report_expected.mainline_tokens keeps this symbol as a move
    token (or a NotAMove that stops the replay)."""
    if token.startswith("$"):
        return False
    tok = rx.MOVE_NUMBER_RE.sub("", token) if not token.startswith("0-0") and token != "0000" else token
    return not (tok == "" or tok in rx.GLYPHS or rx.SUFFIX_RE.match(tok))


def drop_blank_lines(text):
    """Blank lines outside comments removed: python-chess ends a game at one."""
    out, depth_comment = [], False
    for line in text.split("\n"):
        if not depth_comment and line.strip() == "" and out and not out[-1].startswith("["):
            continue
        # track whether the line ends inside a {...} comment (';' ignored)
        i = 0
        while i < len(line):
            c = line[i]
            if depth_comment:
                j = line.find("}", i)
                if j < 0:
                    break
                depth_comment = False
                i = j + 1
            elif c == "{":
                depth_comment = True
                i += 1
            elif c == ";":
                break
            else:
                i += 1
        out.append(line)
    return "\n".join(out)


def game_values(source, index, raw, next_pos, text):
    """(game row, ply rows) of one game, or (None, reason) when python-chess
    does not read it as pgnmill does."""
    row, info = rx.analyse(source, index, raw)
    tags = raw.tags
    base, inc = time_control(tags.get("TimeControl"))
    values = {c: "" for c in GAME_COLUMNS}
    values.update(source=source, game=index, plies=row["plies"],
                  time_base=fmt(base), time_increment=fmt(inc),
                  clock_plies=0, eval_plies=0)
    plies = int(row["plies"])
    status = row["status"]
    if status in ("unsupported", "bad_fen") or (plies == 0 and status != "ok"):
        values["plies_crc32"] = format(zlib.crc32(b""), "08x")
        return values, []
    stop = plies + 1 if status != "ok" else None
    piece = drop_blank_lines(cut_text(text, raw, next_pos, stop))
    game = chess.pgn.read_game(io.StringIO(piece))
    nodes = list(game.mainline())[:plies] if game is not None else []

    fen = tags.get("FEN")
    is960 = row["variant"] == "chess960"
    board = chess.Board(fen, chess960=is960) if fen is not None else chess.Board(chess960=is960)
    moves = rx.mainline_tokens(raw)[0][:plies]
    if len(nodes) != plies:
        return None, f"python-chess reads {len(nodes)} of {plies} plies"
    seen = {board._transposition_key(): 1}
    ply_rows, clocks = [], {chess.WHITE: [], chess.BLACK: []}
    evals = []
    claim_ply = None
    want_claim = any(n.clock() is not None for n in nodes)
    if want_claim and board.can_claim_threefold_repetition():
        claim_ply = 0
    for i, (token, node) in enumerate(zip(moves, nodes), start=1):
        move = board.parse_san(token)
        san = board.san(move)
        if node.move != move:
            try:
                theirs = board.san(node.move)
            except (ValueError, AssertionError):
                theirs = node.move.uci()
            if theirs != san:
                return None, f"ply {i}: python-chess's main line plays {theirs}, the replay {san}"
        mover = board.turn
        board.push(move)
        key = board._transposition_key()
        seen[key] = seen.get(key, 0) + 1
        clock, emt, cp, mate, depth = commands(node)
        if clock is not None:
            clocks[mover].append((i, clock))
        if cp is not None or mate is not None:
            evals.append((cp, mate))
        if want_claim and claim_ply is None and board.can_claim_threefold_repetition():
            claim_ply = i
        ply_rows.append([i, san, move.uci(), board.fen(), clock, emt, cp, mate, depth, seen[key]])
    white = side_clocks(clocks[chess.WHITE], inc)
    black = side_clocks(clocks[chess.BLACK], inc)
    for side, vals in (("white", white), ("black", black)):
        for name, v in zip(("clock_first", "clock_last", "clock_min", "time_used"), vals):
            values[f"{side}_{name}"] = fmt(v)
    values["clock_plies"] = len(clocks[chess.WHITE]) + len(clocks[chess.BLACK])
    if claim_ply is not None and claim_ply >= 2:
        values["clock_at_threefold_claim"] = fmt(ply_rows[claim_ply - 2][4])
    values["eval_plies"] = len(evals)
    if evals:
        values["eval_last_cp"], values["eval_last_mate"] = map(fmt, evals[-1])
    lines = "".join("\t".join(fmt(v) for v in r) + "\n" for r in ply_rows)
    values["plies_crc32"] = format(zlib.crc32(lines.encode()), "08x")
    return values, ply_rows


def read_file(path, source):
    with open(path, "rb") as f:
        text, _ = rx.decode(f.read())
    games = rx.split_games(text)
    for index, raw in enumerate(games, start=1):
        next_pos = games[index].pos if index < len(games) else None
        yield index, game_values(source, index, raw, next_pos, text)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--game":
        source, wanted = sys.argv[2], int(sys.argv[3])
        path = CASES if source == os.path.basename(CASES) else os.path.join(CORPUS, source)
        for index, (values, rows) in read_file(os.path.join(ROOT, path), source):
            if index == wanted:
                print(values)
                for r in rows if values else []:
                    print("\t".join(fmt(v) for v in r))
        return
    if len(sys.argv) == 5 and sys.argv[1] == "--dir" and sys.argv[3] == "--out":
        top = sys.argv[2]
        names = sorted(os.path.relpath(os.path.join(d, n), top)
                       for d, _, ns in os.walk(top) for n in ns if n.endswith(".pgn"))
        write_games([(os.path.join(top, n), n) for n in names], sys.argv[4], None)
        return
    write_cases()
    check_cases()
    files = [(os.path.join(CORPUS, n), n) for n in sorted(os.listdir(os.path.join(ROOT, CORPUS)))
             if n.endswith(".pgn")]
    files.append((CASES, os.path.basename(CASES)))
    write_games([(os.path.join(ROOT, path), source) for path, source in files],
                os.path.join(ROOT, GAMES_OUT), os.path.join(ROOT, PLIES_OUT))


def write_games(files, games_out, plies_out):
    """The games file of `files` ([(path, source)]) and, when `plies_out`
    is given, the full rows of the cases file."""
    left_out = []
    with open(games_out, "w", newline="") as g, \
            open(plies_out or os.devnull, "w", newline="") as p:
        games = csv.writer(g, lineterminator="\n")
        plies = csv.writer(p, lineterminator="\n")
        games.writerow(GAME_COLUMNS)
        plies.writerow(PLY_COLUMNS)
        for path, source in files:
            for index, (values, rows) in read_file(path, source):
                if values is None:
                    left_out.append((source, index, rows))
                    continue
                games.writerow([values[c] for c in GAME_COLUMNS])
                if path.endswith(CASES):
                    for r in rows:
                        plies.writerow([source, index] + [fmt(v) for v in r])
    for source, index, why in left_out:
        print(f"left out: {source} game {index}: {why}")
    print(f"{len(left_out)} games left out")


if __name__ == "__main__":
    main()
