#!/usr/bin/env python3
"""Expected line keys and duplicate verdicts (docs/reports.md, `line_key`,
`--duplicates`), independent of pgnmill.

Every game is read and replayed by python-chess 1.11.2 (xiangqi games by
pyffish 0.0.90); keys are XXH3-128 from the `xxhash` package (the
reference C implementation) over the canonical string that docs/reports.md
defines, built here from python-chess's own moves and EPDs; the grouping
rules of issue 32 are written out below over whole move lists, with no
chained or 64-bit keys:

* exact: same variant, start EPD and move list as an earlier game; `dup_of`
  the first such;
* prefix: the move list (same variant and start) is a strict prefix of a
  longer game's; `dup_of` the longest, the earliest on ties;
* transposition: same variant, start EPD, final EPD and ply count as an
  earlier game; `dup_of` the first such;
* a game of fewer than 10 plies only meets games whose White, Black,
  Event, Site and Date agree (lower case, letters and digits only);
* `dup_headers` as issue 32 defines it.

A game counts (has a key) when python-chess read it without an error and
its variant is chess or Chess960.

Runs:
* testdata/duplicates/cases.pgn, written by this script: respelled names,
  truncated copies, colour-swapped engine pairs, 0-2-ply aborted games,
  the same moves from different [FEN] starts, Chess960, transpositions, an
  illegal move; -> testdata/duplicates/cases-expected.csv
* every .pgn under /work/shared/corpora/chess-real, in path order, as one
  collection -> testdata/duplicates/chess-real-expected.csv; but for
  chesscom-cancer0707.pgn, whose movetexts hold blank lines, where
  `chess.pgn.read_game` ends a game early (pgnmill follows the spec,
  testdata/gen/report_expected.py shows the difference)
* the first 150 games of each testdata/xiangqi/outcomes/wukong-*.pgn (ICCS;
  pyffish checks each line and gives the start) ->
  testdata/duplicates/xiangqi-line-keys.csv
* testdata/duplicates/xiangqi-gbk.pgn (GBK) and xiangqi-big5.pgn (Big5),
  written by this script from games 1 and 2 of wukong-hu-ronghua-1391-iccs.pgn
  with Chinese tags (traditional characters both encodings hold, so that
  they agree once decoded; pgnmill's White is [White], else [Red]): a game
  and its exact, truncated, colour-swapped and transposed copies, an
  unrelated game, aborted games; every move checked against pyffish's legal
  moves; read in that order as one collection ->
  testdata/duplicates/xiangqi-expected.csv
* testdata/duplicates/against-master.pgn then against-input.pgn, written by
  this script (`pgnmill report --against against-master.pgn
  against-input.pgn`): masters come first in input order, verdicts are over
  both files, rows only for the inputs: an exact and a truncated copy of a
  master, a game a master is a prefix of (no copy), a copy of another
  input, a transposition of a master, unrelated games ->
  testdata/duplicates/against-expected.csv

Run: python3 testdata/gen/duplicates_expected.py
"""

import csv
import glob
import io
import os
import re
import struct

import chess
import chess.pgn
import pyffish
import xxhash

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "duplicates")
REAL = "/work/shared/corpora/chess-real"
MIN_PLIES = 10


def norm(text):
    return "".join(c for c in text if c.isalnum()).lower()


def move_word(board, move):
    """The two bytes of a chess move (docs/reports.md)."""
    if move == chess.Move.null():
        return struct.pack("<H", 3 << 12)
    if board.is_castling(move):
        rook = board._to_chess960(move).to_square
        return struct.pack("<H", move.from_square | rook << 6 | 2 << 12)
    kind = 0
    if board.is_en_passant(move):
        kind = 1
    elif move.promotion:
        kind = 4 + move.promotion - chess.KNIGHT
    return struct.pack("<H", move.from_square | move.to_square << 6 | kind << 12)


def chess_line(game):
    """(header, moves as words, final EPD) of a game python-chess read
    whole, else None."""
    if game.errors:
        return None
    variant = game.headers.get("Variant", "").lower()
    if variant not in ("", "standard", "chess", "chess960", "chess 960", "fischerandom",
                       "fischerrandom", "fischer random", "fischer random chess", "frc"):
        return None
    board = game.board()
    name = "chess960" if board.chess960 else "chess"
    header = f"{name}\n{board.epd()}\n".encode()
    words = []
    for move in game.mainline_moves():
        words.append(move_word(board, move))
        board.push(move)
    return header, words, board.epd()


def keys(header, words, final_epd):
    line = header + b"".join(words)
    end = header + final_epd.encode() + b"\n" + str(len(words)).encode()
    return xxhash.xxh3_128_hexdigest(line), xxhash.xxh3_128_hexdigest(end)


def read_games(path):
    raw = open(path, "rb").read()
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("cp1252", errors="replace")
    stream = io.StringIO(text)
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            return
        yield game


def verdicts(games):
    """games: list of dicts with `line` (header, words tuple, final EPD or
    None) and `tags`. Adds dup_of (index), dup_kind, dup_headers."""
    def group(g, plies):
        return tuple(norm(g["tags"][t]) for t in ("White", "Black", "Event", "Site", "Date")) \
            if plies < MIN_PLIES else None

    first_line, first_end = {}, {}
    longest = {}  # (header, prefix words, group) -> (plies, -index)
    for i, g in enumerate(games):
        if g["line"] is None:
            continue
        header, words, final = g["line"]
        n = len(words)
        for k in range(n):  # strict prefixes of this line
            key = (header, words[:k], group(g, k))
            best = longest.get(key)
            if best is None or (n, -i) > best:
                longest[key] = (n, -i)
    for i, g in enumerate(games):
        g["dup_of"], g["dup_kind"] = None, ""
        if g["line"] is None:
            continue
        header, words, final = g["line"]
        n = len(words)
        gr = group(g, n)
        exact = first_line.setdefault((header, words, gr), i)
        trans = first_end.setdefault((header, final, n, gr), i)
        prefix = longest.get((header, words, gr))
        if exact != i:
            g["dup_of"], g["dup_kind"] = exact, "exact"
        elif prefix is not None:
            g["dup_of"], g["dup_kind"] = -prefix[1], "prefix"
        elif trans != i:
            g["dup_of"], g["dup_kind"] = trans, "transposition"
    for g in games:
        g["dup_headers"] = ""
        if g["dup_of"] is None:
            continue
        o = games[g["dup_of"]]
        w, b, ow, ob = (norm(x["tags"][t]) for x in (g, o) for t in ("White", "Black"))
        parts = []
        same = w == ow and b == ob
        swapped = w == ob and b == ow
        if swapped and not same:
            parts.append("colours_swapped")
        if not same and not swapped:
            parts.append("names_differ")
        if norm(g["tags"]["Date"]) != norm(o["tags"]["Date"]):
            parts.append("date_differs")
        if norm(g["tags"]["Event"]) != norm(o["tags"]["Event"]):
            parts.append("event_differs")
        g["dup_headers"] = ";".join(parts) or "same"


def read_chess(files, root):
    games = []
    for path in files:
        source = os.path.relpath(path, root)
        for number, game in enumerate(read_games(path), 1):
            tags = {t: game.headers.get(t, "") for t in ("White", "Black", "Event", "Site", "Date")}
            line = chess_line(game)
            if line is not None:
                line = (line[0], tuple(line[1]), line[2])
            games.append({"source": source, "game": number, "line": line, "tags": tags})
    return games


def write_rows(games, out, rows=None):
    """Verdicts over all `games` (in order); rows for those whose source is
    in `rows` (all when None)."""
    verdicts(games)
    shown = [g for g in games if rows is None or g["source"] in rows]
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["source", "game", "line_key", "end_key", "dup_of", "dup_kind", "dup_headers"])
        for g in shown:
            line_key = end_key = ""
            if g["line"] is not None:
                line_key, end_key = keys(g["line"][0], list(g["line"][1]), g["line"][2])
            dup_of = ""
            if g["dup_of"] is not None:
                o = games[g["dup_of"]]
                dup_of = f"{o['source']}:{o['game']}"
            w.writerow([g["source"], g["game"], line_key, end_key, dup_of, g["dup_kind"],
                        g["dup_headers"]])
    kinds = {}
    for g in shown:
        kinds[g["dup_kind"]] = kinds.get(g["dup_kind"], 0) + 1
    print(out, len(shown), "games", kinds)


def run(files, root, out):
    write_rows(read_chess(files, root), out)


def pgn(tags, moves, fen=None):
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
    if fen:
        head += f'[SetUp "1"]\n[FEN "{fen}"]\n'
    board = chess.Board(fen) if fen else chess.Board()
    return head + "\n" + moves + " *\n\n"


def tags(white, black, event="London", site="London ENG", date="1883.05.01", **more):
    t = {"Event": event, "Site": site, "Date": date, "Round": "?", "White": white, "Black": black,
         "Result": "*"}
    t.update(more)
    return t


RUY = ("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O "
       "9. h3 Nb8 10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 15. a4 c5 "
       "16. d5 c4 17. Bg5 h6")


def first_plies(text, n):
    tokens = [t for t in text.split() if not re.match(r"^\d+\.$", t)]
    out = []
    for i, t in enumerate(tokens[:n]):
        out.append(f"{i // 2 + 1}. {t}" if i % 2 == 0 else t)
    return " ".join(out)


def write_cases(path):
    sw, zu = "Steinitz, William", "Zukertort, Johannes"
    games = [
        # 1-2: a game and its copy with a name respelled.
        pgn(tags(sw, zu), first_plies(RUY, 30)),
        pgn(tags("Steinitz, Wilhelm", zu), first_plies(RUY, 30)),
        # 3: truncated copy (26 plies), names written otherwise.
        pgn(tags("STEINITZ William", "zukertort johannes"), first_plies(RUY, 26)),
        # 4: an engine pair, then 5: the same game with colours swapped.
        pgn(tags("Stockfish 16", "Komodo 14", event="TCEC", site="?", date="2024.01.01"),
            "1. d4 Nf6 2. c4 e6 3. Nf3 d5 4. Nc3 Be7 5. Bf4 O-O 6. e3 c5"),
        pgn(tags("Komodo 14", "Stockfish 16", event="TCEC", site="?", date="2024.01.01"),
            "1. d4 Nf6 2. c4 e6 3. Nf3 d5 4. Nc3 Be7 5. Bf4 O-O 6. e3 c5"),
        # 6: a longer copy of game 1, later: games 1 and 3 are its prefixes.
        pgn(tags(sw, zu, date="1883.05.02"), first_plies(RUY, 34)),
        # 7-12: aborted games (0-2 plies): only those with the same five tags meet.
        pgn(tags("Anna", "Bert", event="Arena", site="lichess", date="2025.05.01"), "1. e4"),
        pgn(tags("Carl", "Dora", event="Arena", site="lichess", date="2025.05.01"), "1. e4"),
        pgn(tags("Anna", "Bert", event="Arena", site="lichess", date="2025.05.01"), "1. e4"),
        pgn(tags("Anna", "Bert", event="Arena", site="lichess", date="2025.05.01"), "1. e4 e5"),
        pgn(tags("Emil", "Fred", event="Arena", site="lichess", date="2025.05.01"), ""),
        pgn(tags("Gina", "Hugo", event="Arena", site="lichess", date="2025.05.01"), ""),
        # 13-14: the same moves from two different [FEN] starts: never grouped.
        pgn(tags("I", "J"), "1. Kd2 Kd7 2. Ke3 Ke7 3. Kf4 Kf6 4. Kg4 Kg6 5. Kh4 Kh6 6. Kg4 Kg6",
            fen="4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        pgn(tags("I", "J"), "1. Kd2 Kd7 2. Ke3 Ke7 3. Kf4 Kf6 4. Kg4 Kg6 5. Kh4 Kh6 6. Kg4 Kg6",
            fen="4k3/p7/8/8/8/8/P7/4K3 w - - 0 1"),
        # 15-17: Chess960 from the standard array, then chess with the same
        # moves (another variant: not grouped), then the Chess960 game again.
        pgn(tags("K", "L", Variant="Chess960"), first_plies(RUY, 12),
            fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        pgn(tags("K", "L"), first_plies(RUY, 12),
            fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        pgn(tags("K", "L", Variant="Chess960"), first_plies(RUY, 12),
            fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        # 18-19: a transposition (12 plies, other move order).
        pgn(tags("M", "N"), "1. Nf3 Nf6 2. Nc3 Nc6 3. e3 e6 4. Be2 Be7 5. O-O O-O 6. d3 d6"),
        pgn(tags("O", "P"), "1. Nc3 Nc6 2. Nf3 Nf6 3. d3 d6 4. e3 e6 5. Be2 Be7 6. O-O O-O"),
        # 20: game 18's first 10 plies, then an illegal move: no key.
        pgn(tags("M", "N"), "1. Nf3 Nf6 2. Nc3 Nc6 3. e3 e6 4. Be2 Be7 5. O-O O-O 6. Ke2"),
        # 21: a transposition of 19 that is also a prefix of 22: prefix wins.
        pgn(tags("Q", "R"), "1. Nf3 Nc6 2. Nc3 Nf6 3. e3 e6 4. d3 d6 5. Be2 Be7 6. O-O O-O"),
        pgn(tags("Q", "R"), "1. Nf3 Nc6 2. Nc3 Nf6 3. e3 e6 4. d3 d6 5. Be2 Be7 6. O-O O-O 7. a3"),
        # 23-24: short transpositions: with the same tags (grouped), and 25
        # with other tags (not).
        pgn(tags("S", "T"), "1. Nf3 Nf6 2. Nc3 Nc6"),
        pgn(tags("S", "T"), "1. Nc3 Nc6 2. Nf3 Nf6"),
        pgn(tags("U", "V"), "1. Nc3 Nf6 2. Nf3 Nc6"),
        # 26: en passant and a promotion, copied in 27 by another name.
        pgn(tags("W", "X"), "1. e4 d5 2. e5 f5 3. exf6 gxf6 4. d4 Bg7 5. Nf3 Bh6 6. Bxh6 Nxh6 "
                            "7. Bd3 Kf7 8. O-O Rg8 9. Qe2 Rg6 10. Bxg6+ hxg6 11. a4 Nc6 12. a5 "
                            "Nxa5 13. Rxa5 b6 14. Ra3 c5 15. Rb3 c4 16. Rb4 c3 17. Nbd2 cxd2 "
                            "18. Nxd2 Qc7 19. Qf3 Qxc2"),
        pgn(tags("W.", "X"), "1. e4 d5 2. e5 f5 3. exf6 gxf6 4. d4 Bg7 5. Nf3 Bh6 6. Bxh6 Nxh6 "
                             "7. Bd3 Kf7 8. O-O Rg8 9. Qe2 Rg6 10. Bxg6+ hxg6 11. a4 Nc6 12. a5 "
                             "Nxa5 13. Rxa5 b6 14. Ra3 c5 15. Rb3 c4 16. Rb4 c3 17. Nbd2 cxd2 "
                             "18. Nxd2 Qc7 19. Qf3 Qxc2"),
        pgn(tags("Y", "Z", FEN="8/P6k/8/8/8/8/8/K7 w - - 0 1", SetUp="1"), "1. a8=N Kg6 2. Nb6 Kf5"),
        # 29: Chess960 without [FEN] (the standard array), castling: game
        # 15 again, not game 16 (chess).
        pgn(tags("K", "L", Variant="Chess960"), first_plies(RUY, 12)),
    ]
    with open(path, "w") as f:
        f.write("".join(games))


def xiangqi_keys(out):
    start = pyffish.start_fen("xiangqi")
    move = re.compile(r"^[a-i][0-9][a-i][0-9]$")
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["source", "game", "line_key", "end_key"])
        for path in sorted(glob.glob(os.path.join(HERE, "..", "xiangqi", "outcomes", "wukong-*.pgn"))):
            text = open(path, encoding="utf-8").read()
            games = [g for g in re.split(r"\n\s*\n(?=\[)", text) if g.strip()]
            for number, game in enumerate(games[:150], 1):
                body = "\n".join(l for l in game.splitlines() if not l.startswith("["))
                moves = [t for t in body.split() if move.match(t)]
                ffish = [m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1) for m in moves]
                try:
                    final = pyffish.get_fen("xiangqi", start, ffish)
                except Exception:
                    continue  # an illegal move: no key
                words = b"".join(
                    bytes([ord(m[0]) - 97 + 9 * int(m[1]), ord(m[2]) - 97 + 9 * int(m[3])])
                    for m in moves)
                epd = lambda fen: " ".join(fen.split()[:4])
                header = f"xiangqi\n{epd(start)}\n".encode()
                line = header + words
                end = header + epd(final).encode() + b"\n" + str(len(moves)).encode()
                w.writerow([os.path.basename(path), number, xxhash.xxh3_128_hexdigest(line),
                            xxhash.xxh3_128_hexdigest(end)])


XQ_MOVE = re.compile(r"^[a-i][0-9][a-i][0-9]$")
WUKONG_HU = os.path.join(HERE, "..", "xiangqi", "outcomes", "wukong-hu-ronghua-1391-iccs.pgn")


def xiangqi_line(moves):
    """(header, moves as byte pairs, final EPD) of an ICCS move list from
    the standard start, each move checked against pyffish's legal moves;
    None at an illegal move."""
    start = pyffish.start_fen("xiangqi")
    ffish = [m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1) for m in moves]
    for i, m in enumerate(ffish):
        if m not in pyffish.legal_moves("xiangqi", start, ffish[:i]):
            return None
    final = pyffish.get_fen("xiangqi", start, ffish)
    epd = lambda fen: " ".join(fen.split()[:4])
    header = f"xiangqi\n{epd(start)}\n".encode()
    words = tuple(bytes([ord(m[0]) - 97 + 9 * int(m[1]), ord(m[2]) - 97 + 9 * int(m[3])])
                  for m in moves)
    return header, words, epd(final)


def wukong_moves(number):
    """The ICCS moves of game `number` (1-based) of wukong-hu-ronghua."""
    text = open(WUKONG_HU, encoding="utf-8").read()
    game = [g for g in re.split(r"\n\s*\n(?=\[)", text) if g.strip()][number - 1]
    body = "\n".join(l for l in game.splitlines() if not l.startswith("["))
    return [t for t in body.split() if XQ_MOVE.match(t)]


def iccs_text(moves):
    return " ".join(f"{i // 2 + 1}. {m}" if i % 2 == 0 else m for i, m in enumerate(moves))


def xq_game(tags, moves):
    head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
    return head + "\n" + iccs_text(moves) + " *\n\n"


def xq_tags(red, black, event="全國象棋個人賽", site="上海", date="1995.05.01",
            opening="仙人指路對卒底炮"):
    return {"Game": "Chinese Chess", "Event": event, "Site": site, "Date": date,
            "Red": red, "Black": black, "Result": "*", "Opening": opening}


def write_xiangqi_dups(gbk_path, big5_path):
    """Two files of the same games in GBK and in Big5 (tags in traditional
    characters that both encodings hold, so that they agree once decoded)."""
    a = wukong_moves(1)   # 65 plies, 1. g0e2 b9c7 2. g3g4 c6c5 ...
    b = wukong_moves(2)   # 63 plies, 1. h2e2 h9g7 ...
    hu, liu = "胡榮華", "柳大華"
    gbk = [
        # gbk 1: game A; gbk 2: an unrelated game B (simplified tags).
        xq_game(xq_tags(hu, liu), a),
        xq_game(xq_tags("许银川", "吕钦", event="全国象棋团体赛", site="广州", date="1998.04.10",
                        opening="中炮对屏风马"), b),
    ]
    big5 = [
        # big5 1: game A, same tags (exact of gbk 1, same).
        xq_game(xq_tags(hu, liu), a),
        # big5 2: A's first 24 plies, another date (prefix of gbk 1).
        xq_game(xq_tags(hu, liu, date="1995.05.02"), a[:24]),
        # big5 3: A with Red and Black swapped (exact of gbk 1, colours_swapped).
        xq_game(xq_tags(liu, hu), a),
        # big5 4: aborted (2 plies, B's first two) by other players: meets
        # no game (B's tags differ); big5 5: 1 ply, the same five tags:
        # prefix of big5 4.
        xq_game(xq_tags("王天一", "鄭惟桐", event="全國象棋甲級聯賽", site="臺北",
                        date="2020.01.01", opening="中炮對屏風馬"), b[:2]),
        xq_game(xq_tags("王天一", "鄭惟桐", event="全國象棋甲級聯賽", site="臺北",
                        date="2020.01.01", opening="中炮對屏風馬"), b[:1]),
        # big5 6: A with Red's first two moves in the other order: same
        # final position and plies (transposition of gbk 1).
        xq_game(xq_tags("趙國榮", "徐天紅", date="1996.01.01"), [a[2], a[1], a[0]] + a[3:]),
    ]
    for path, enc, games in ((gbk_path, "gbk", gbk), (big5_path, "big5", big5)):
        with open(path, "wb") as f:
            f.write("".join(games).encode(enc))


def read_xiangqi(path, enc, source):
    """Games of a file this script wrote, decoded; pgnmill's White is
    [White], else [Red]."""
    text = open(path, "rb").read().decode(enc)
    games = []
    for number, game in enumerate((g for g in re.split(r"\n\s*\n(?=\[)", text) if g.strip()), 1):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', game, re.M))
        body = "\n".join(l for l in game.splitlines() if not l.startswith("["))
        moves = [t for t in body.split() if XQ_MOVE.match(t)]
        t = {k: tags.get(k, "") for k in ("Black", "Event", "Site", "Date")}
        t["White"] = tags.get("White", tags.get("Red", ""))
        games.append({"source": source, "game": number, "line": xiangqi_line(moves), "tags": t})
    return games


# 38 plies with en passant and a promotion; a French of 20 plies.
EP_PROMOTION = ("1. e4 d5 2. e5 f5 3. exf6 gxf6 4. d4 Bg7 5. Nf3 Bh6 6. Bxh6 Nxh6 7. Bd3 Kf7 "
                "8. O-O Rg8 9. Qe2 Rg6 10. Bxg6+ hxg6 11. a4 Nc6 12. a5 Nxa5 13. Rxa5 b6 "
                "14. Ra3 c5 15. Rb3 c4 16. Rb4 c3 17. Nbd2 cxd2 18. Nxd2 Qc7 19. Qf3 Qxc2")
FRENCH = ("1. e4 e6 2. d4 d5 3. Nc3 Nf6 4. e5 Nfd7 5. f4 c5 6. Nf3 Nc6 7. Be3 cxd4 8. Nxd4 Bc5 "
          "9. Qd2 O-O 10. O-O-O a6")

AGAINST_MASTER = [
    # master 1: the Ruy Lopez line, 34 plies.
    pgn(tags("Steinitz, William", "Zukertort, Johannes"), first_plies(RUY, 34)),
    # master 2: 12 plies of a Queen's Gambit Declined.
    pgn(tags("Stockfish 16", "Komodo 14", event="TCEC", site="?", date="2024.01.01"),
        "1. d4 Nf6 2. c4 e6 3. Nf3 d5 4. Nc3 Be7 5. Bf4 O-O 6. e3 c5"),
    # master 3: en passant and a promotion, 38 plies.
    pgn(tags("W", "X"), EP_PROMOTION),
    # master 4: a Najdorf, 20 plies.
    pgn(tags("Fischer, Robert James", "Spassky, Boris V", event="Match", site="Reykjavik",
             date="1972.07.11"),
        "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 Be6 8. f3 Be7 "
        "9. Qd2 O-O 10. O-O-O Nbd7"),
]

AGAINST_INPUT = [
    # input 1: master 3 with the names respelled (exact).
    pgn(tags("W.", "X."), EP_PROMOTION),
    # input 2: master 1's first 26 plies (prefix of master 1).
    pgn(tags("STEINITZ William", "zukertort johannes", date="1883.05.03"), first_plies(RUY, 26)),
    # input 3: master 2 played on: master 2 is its prefix, it is no copy.
    pgn(tags("Stockfish 16", "Komodo 14", event="TCEC", site="?", date="2024.01.02"),
        "1. d4 Nf6 2. c4 e6 3. Nf3 d5 4. Nc3 Be7 5. Bf4 O-O 6. e3 c5 7. dxc5 Bxc5 "
        "8. Qc2 Nc6 9. a3 Qa5 10. Rd1 Re8"),
    # input 4: an unrelated French; input 5: its copy with colours swapped.
    pgn(tags("Carlsen, Magnus", "Nakamura, Hikaru", event="Blitz", site="Oslo", date="2023.03.03"),
        FRENCH),
    pgn(tags("Nakamura, Hikaru", "Carlsen, Magnus", event="Blitz", site="Oslo", date="2023.03.03"),
        FRENCH),
    # input 6: master 4 with White's first two moves swapped (transposition).
    pgn(tags("Anonymous", "Unknown", event="Club", site="?", date="????.??.??"),
        "1. Nf3 c5 2. e4 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 Be6 8. f3 Be7 "
        "9. Qd2 O-O 10. O-O-O Nbd7"),
    # input 7: an unrelated English.
    pgn(tags("Kasparov, Garry", "Karpov, Anatoly", event="World Championship", site="Seville",
             date="1987.10.12"),
        "1. c4 e5 2. Nc3 Nf6 3. Nf3 Nc6 4. g3 Bb4 5. Bg2 O-O 6. O-O e4 7. Ng5 Bxc3 "
        "8. bxc3 Re8 9. f3 exf3 10. Nxf3 d5"),
]


def main():
    os.makedirs(OUT, exist_ok=True)
    cases = os.path.join(OUT, "cases.pgn")
    write_cases(cases)
    run([cases], OUT, os.path.join(OUT, "cases-expected.csv"))
    real = sorted(p for p in glob.glob(os.path.join(REAL, "**", "*.pgn"), recursive=True)
                  if not p.endswith("chesscom-cancer0707.pgn"))
    run(real, REAL, os.path.join(OUT, "chess-real-expected.csv"))
    xiangqi_keys(os.path.join(OUT, "xiangqi-line-keys.csv"))
    gbk, big5 = os.path.join(OUT, "xiangqi-gbk.pgn"), os.path.join(OUT, "xiangqi-big5.pgn")
    write_xiangqi_dups(gbk, big5)
    write_rows(read_xiangqi(gbk, "gbk", "xiangqi-gbk.pgn")
               + read_xiangqi(big5, "big5", "xiangqi-big5.pgn"),
               os.path.join(OUT, "xiangqi-expected.csv"))
    master, inputs = os.path.join(OUT, "against-master.pgn"), os.path.join(OUT, "against-input.pgn")
    for path, games in ((master, AGAINST_MASTER), (inputs, AGAINST_INPUT)):
        with open(path, "w") as f:
            f.write("".join(games))
    write_rows(read_chess([master, inputs], OUT), os.path.join(OUT, "against-expected.csv"),
               rows={"against-input.pgn"})


if __name__ == "__main__":
    main()
