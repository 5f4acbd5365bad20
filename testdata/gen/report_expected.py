#!/usr/bin/env python3
"""Expected `pgnmill report` output for testdata/corpus, computed with python-chess.

This is the independent oracle for the differential test of issue 3. It writes
testdata/expected/games.csv (one row per game of every file in testdata/corpus,
files sorted by name, games in file order), castling.csv and totals.json.

Division of labour:
- Chess semantics come from python-chess (`pip install chess`, version recorded
  in testdata/expected/README.md): SAN/UCI move reading and legality
  (`Board.parse_san`), FEN reading (`chess.Board(fen)`), FEN writing in both
  en-passant conventions (`fen(en_passant="fen")` = ep-always, `fen()` =
  ep-if-legal), and the castling audit (`clean_castling_rights()`). The
  ep-if-legal threefold ply is also checked against python-chess's own
  `Board.is_repetition(3)` on every game (an assertion).
- Splitting a file into games and the movetext token rules follow
  shared/spec/reports.md and shared/spec/chess.md ("a game is a tag section and
  its movetext, or movetext alone"; the result token ends a game; a game that
  lacks one ends where the next tag section begins). python-chess's own
  `chess.pgn.read_game` ends a game at a blank line and scans movetext with a
  regex that silently skips unknown text; where that disagrees with the spec
  the spec wins. `--crosscheck` runs plain `chess.pgn.read_game` over every
  file and lists each game where the two readings differ (that list is copied
  into testdata/expected/README.md).

Usage (from the repository root):
    python3 testdata/gen/report_expected.py            # write expected files
    python3 testdata/gen/report_expected.py --crosscheck
"""

import csv
import json
import os
import re
import sys
from collections import Counter, OrderedDict

import chess
import chess.pgn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = "testdata/corpus"
EXPECTED = "testdata/expected"

# reports.md order (its free-text `error` column is left out: wording cannot
# be compared), then two extra columns: castling_effective, error_ply.
COLUMNS = [
    "source", "game", "offset", "line", "variant",
    "event", "site", "date", "round", "white", "black", "result", "plies",
    "start_fen", "final_fen", "final_fen_ep_legal",
    "rep_max_ep_always", "threefold_ply_ep_always",
    "rep_max_ep_legal", "threefold_ply_ep_legal",
    "missed_threefold", "castling_conflict",
    "status", "castling_effective", "error_ply",
]

CHESS_NAMES = {"", "standard", "chess", "regular", "normal", "from position"}
CHESS960_NAMES = {
    "chess960", "chess 960", "chess-960", "fischerandom", "fischerrandom",
    "fischer random", "960", "frc",
}
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


# ---------------------------------------------------------------- decoding

def decode(data):
    """Bytes -> (text, Source). UTF-8 if the bytes are valid UTF-8, else Latin-1.

    A leading UTF-8 byte order mark is dropped; CRLF and lone CR become LF.
    The Source maps positions in the returned text back to byte offsets and
    line numbers of the original bytes.
    """
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    data = data[bom:]
    try:
        orig, enc = data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        orig, enc = data.decode("latin-1"), "latin-1"
    text = orig.replace("\r\n", "\n").replace("\r", "\n")
    return text, Source(orig, text, enc, bom)


class Source:
    """Position bookkeeping: normalized text position -> (byte offset, line)."""

    def __init__(self, orig, text, enc, bom):
        self.orig, self.enc, self.bom = orig, enc, bom
        # normalized position of the k-th removed CR (the CR of a CRLF) is orig_pos - k
        self.crlf_norm = [m.start() - k for k, m in enumerate(re.finditer("\r\n", orig))]
        self.newlines = [m.start() for m in re.finditer("\n", text)]
        self._last = (0, 0)  # (orig position, byte offset) for incremental encoding

    def locate(self, pos):
        import bisect
        orig_pos = pos + bisect.bisect_right(self.crlf_norm, pos - 1)
        line = bisect.bisect_right(self.newlines, pos - 1) + 1
        last_pos, last_off = self._last
        if orig_pos < last_pos:
            last_pos, last_off = 0, 0
        off = last_off + len(self.orig[last_pos:orig_pos].encode(self.enc))
        self._last = (orig_pos, off)
        return off + self.bom, line


# ---------------------------------------------------------------- lexing

TAG_RE = re.compile(r'\[[ \t]*([A-Za-z0-9_][A-Za-z0-9_+#=:\-]*)[ \t]+"((?:[^"\\\n]|\\.)*)"[ \t]*\]')
SYMBOL_RE = re.compile(r'\*|[^\s{}\[\]();*]+')


def lex(text):
    """Yield (kind, value, position) tokens: tag, badtag, open, close, symbol.

    Comments ({...}, ; to end of line) and lines starting with % are dropped.
    """
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "%":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c == "\n":
            line_start = True
            i += 1
            continue
        line_start = False
        if c.isspace():
            i += 1
        elif c == "{":
            j = text.find("}", i + 1)
            if j < 0:
                yield ("unterminated_comment", None, i)
                return
            # a comment may span lines; a % right after a newline inside it is text
            i = j + 1
        elif c == ";":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c == "[":
            m = TAG_RE.match(text, i)
            if m:
                value = re.sub(r'\\(.)', r'\1', m.group(2))
                yield ("tag", (m.group(1), value), i)
                i = m.end()
            else:
                j = text.find("]", i)
                k = text.find("\n", i)
                end = k if k >= 0 else n
                if 0 <= j < end:
                    end = j + 1
                yield ("badtag", text[i:end], i)
                i = end
        elif c == "(":
            yield ("open", None, i)
            i += 1
        elif c == ")":
            yield ("close", None, i)
            i += 1
        elif c in "]}":
            yield ("stray", c, i)
            i += 1
        else:
            m = SYMBOL_RE.match(text, i)
            symbol = m.group(0)
            # A result typed without its space (`Qxf7#1-0`) is a move and
            # a result, as python-chess's regular expression reads it; a
            # glued `*` is already a symbol of its own.
            glued = [r for r in ("1-0", "0-1", "1/2-1/2") if symbol.endswith(r) and symbol != r]
            if glued:
                cut = len(symbol) - len(glued[0])
                yield ("symbol", symbol[:cut], i)
                yield ("symbol", glued[0], i + cut)
            else:
                yield ("symbol", symbol, i)
            i = m.end()


class RawGame:
    def __init__(self, pos):
        self.pos = pos       # position of the game's first token in the normalized text
        self.tags = OrderedDict()
        self.tag_order = []
        self.bad_tags = []
        self.movetext = []   # list of (kind, value), variations included
        self.has_movetext = False
        self.result_token = None
        self.unterminated_comment = False


def split_games(text):
    """Split decoded text into games per the spec (see module docstring)."""
    games = []
    cur = None
    depth = 0
    for kind, value, pos in lex(text):
        if kind in ("tag", "badtag"):
            if cur is None or cur.has_movetext:
                if cur is not None:
                    games.append(cur)
                cur = RawGame(pos)
                depth = 0
            if kind == "tag":
                name, val = value
                if name not in cur.tags:
                    cur.tag_order.append(name)
                cur.tags[name] = val
            else:
                cur.bad_tags.append(value)
            continue
        if kind == "unterminated_comment":
            if cur is not None:
                cur.unterminated_comment = True
            continue
        if kind == "symbol" and value in RESULTS and depth == 0:
            if cur is None:
                cur = RawGame(pos)
            cur.result_token = value
            games.append(cur)
            cur = None
            continue
        if kind == "stray":
            continue
        if cur is None:
            cur = RawGame(pos)
            depth = 0
        cur.movetext.append((kind, value))
        cur.has_movetext = True
        if kind == "open":
            depth += 1
        elif kind == "close" and depth > 0:
            depth -= 1
    if cur is not None:
        games.append(cur)
    return games


# ---------------------------------------------------------------- movetext

MOVE_NUMBER_RE = re.compile(r'^\d+\.*')
SQUARE_RE = re.compile(r'[a-h][1-8]')
NULL_MOVES = {"--", "Z0", "0000", "@@@@"}
CASTLES_RE = re.compile(r'^(?:O-O(?:-O)?|0-0(?:-0)?)$')
# The annotation glyphs of docs/pgn-dialect.md section 4, written out here
# independently of the Rust list: a standing-alone token on it is skipped.
GLYPHS = {
    "+-", "-+", "+/-", "-/+", "+/=", "=/+", "=", "+=", "=+", "inf", "=/inf", "inf/=",
    "N", "TN", "RR", "e.p.", "ep",
    "\u221e", "=/\u221e", "\u221e/=", "\u00b1", "\u2213", "\u2a72", "\u2a71", "+\u2212", "\u2212+",
    "\u25a1", "\u0394", "\u2206", "\u21c6", "\u2192", "\u2191", "\u27f3", "\u21bb", "\u2a00",
    "\u2299", "\u25cb", "\u2295", "\u2313", "\u2207",
}
SUFFIX_RE = re.compile(r'^[!?]+$')


class NotAMove(str):
    """A main-line token that is neither a move nor a known glyph: the replay
    stops there (python-chess's regex would pass over it silently)."""


def mainline_tokens(raw):
    """Main-line move tokens (variations, NAGs, numbers, annotations removed).

    Returns (moves, skipped): moves holds the move tokens in order and, where
    a token is neither a move nor a known glyph, that token as a NotAMove
    (the replay stops at it); skipped lists those tokens.
    """
    moves, skipped = [], []
    depth = 0
    for kind, value in raw.movetext:
        if kind == "open":
            depth += 1
            continue
        if kind == "close":
            if depth > 0:
                depth -= 1
            continue
        if depth > 0 or kind != "symbol":
            continue
        tok = value
        if tok.startswith("$"):
            continue
        tok = MOVE_NUMBER_RE.sub("", tok) if not tok.startswith("0-0") and tok != "0000" else tok
        if tok == "" or tok in GLYPHS or SUFFIX_RE.match(tok):
            continue
        if tok.endswith("e.p."):
            tok = tok[:-4]
        stripped = tok.rstrip("!?+#")
        if stripped.endswith("e.p."):
            stripped = stripped[:-4].rstrip("!?+#")
        if stripped in NULL_MOVES or CASTLES_RE.match(stripped) or SQUARE_RE.search(stripped):
            moves.append(stripped)
        else:
            moves.append(NotAMove(value))
            skipped.append(value)
    return moves, skipped


# ---------------------------------------------------------------- analysis

def variant_of(tags):
    """'chess', 'chess960' or 'unsupported' (castling letters checked later)."""
    if "Variant" not in tags:
        return "chess"
    v = tags["Variant"].strip().lower()
    if v in CHESS_NAMES:
        return "chess"
    if v in CHESS960_NAMES:
        return "chess960"
    return "unsupported"


def key(board, ep):
    return " ".join(board.fen(en_passant=ep).split()[:4])


def castling_audit(fen, chess960):
    """(conflict letters in field order, effective field) for a [FEN] header."""
    board = chess.Board(fen, chess960=chess960)
    cleaned = board.clean_castling_rights()
    parts = fen.split()
    field = parts[2] if len(parts) > 2 else "-"
    conflict = ""
    if field != "-":
        for letter in field:
            single = parts[:]
            single[2] = letter
            raw = chess.Board(" ".join(single), chess960=chess960).castling_rights
            if raw & cleaned == 0:
                conflict += letter
    effective = board.fen().split()[2]
    return conflict, effective


def kings_ok(board):
    return all(len(board.pieces(chess.KING, c)) == 1 for c in chess.COLORS)


def analyse(source, index, raw):
    tags = raw.tags
    row = OrderedDict((c, "") for c in COLUMNS)
    row["source"] = source
    row["game"] = index
    for col, tag in (("event", "Event"), ("site", "Site"), ("date", "Date"), ("round", "Round")):
        row[col] = tags.get(tag, "")
    row["white"] = tags.get("White", "")
    row["black"] = tags.get("Black", "")
    row["result"] = tags.get("Result", "")
    row["start_fen"] = tags.get("FEN", "")
    row["plies"] = 0
    row["missed_threefold"] = "false"
    info = {"skipped": []}

    variant = variant_of(tags)
    fen = tags.get("FEN")
    if variant == "chess" and fen is not None:
        parts = fen.split()
        if len(parts) > 2 and set(parts[2]) <= set("KQkqABCDEFGHabcdefgh") \
                and any(ch in "ABCDEFGHabcdefgh" for ch in parts[2]):
            variant = "chess960"   # Shredder-FEN castling letters (file letters A-H/a-h)
    # The variant column holds only the three rules pgnmill plays: empty
    # for an unsupported game (its tag is quoted in the error).
    row["variant"] = "" if variant == "unsupported" else variant
    if variant == "unsupported":
        row["status"] = "unsupported"
        return row, info
    if raw.bad_tags or raw.unterminated_comment:
        row["status"] = "parse_error"
        return row, info
    is960 = variant == "chess960"

    if fen is None:
        board = chess.Board(chess960=is960)
    else:
        try:
            if len(fen.split()) < 4:
                raise ValueError("fewer than 4 FEN fields")
            board = chess.Board(fen, chess960=is960)
            if not kings_ok(board):
                raise ValueError("not exactly one king per colour")
        except ValueError as err:
            row["status"] = "bad_fen"
            info["error"] = str(err)
            return row, info
        conflict, effective = castling_audit(fen, is960)
        row["castling_conflict"] = conflict
    row["castling_effective"] = board.fen().split()[2]

    moves, skipped = mainline_tokens(raw)
    info["skipped"] = skipped
    counts = {"fen": Counter(), "legal": Counter()}
    rep_max = {"fen": 0, "legal": 0}
    first3 = {"fen": "", "legal": ""}

    history = []

    def see(ply):
        history.append(board.fen(en_passant="fen"))
        for ep in ("fen", "legal"):
            k = key(board, ep)
            counts[ep][k] += 1
            c = counts[ep][k]
            if c > rep_max[ep]:
                rep_max[ep] = c
            if c == 3 and first3[ep] == "":
                first3[ep] = ply

    see(0)
    # python-chess's own repetition detector (transposition keys, ep only if
    # legal) must find the same first threefold as the ep-if-legal key count.
    py_first = 0 if board.is_repetition(3) else ""
    status = "ok"
    plies = 0
    for tok in moves:
        if isinstance(tok, NotAMove):
            status = "parse_error"
            row["error_ply"] = plies + 1
            info["error"] = f"{tok}: not a move"
            break
        try:
            move = board.parse_san(tok)
        except chess.InvalidMoveError as err:
            # No move at all (python-chess: "invalid san"): the text cannot
            # be read, docs/pgn-dialect.md section 4.
            status = "parse_error"
            row["error_ply"] = plies + 1
            info["error"] = f"{tok}: {err}"
            break
        except ValueError as err:
            # A move the position does not allow (IllegalMoveError) or
            # that names more than one (AmbiguousMoveError).
            status = "illegal_move"
            row["error_ply"] = plies + 1
            info["error"] = f"{tok}: {err}"
            break
        board.push(move)
        plies += 1
        see(plies)
        if py_first == "" and board.is_repetition(3):
            py_first = plies

    assert py_first == first3["legal"], (source, index, py_first, first3["legal"])
    row["plies"] = plies
    row["final_fen"] = board.fen(en_passant="fen")
    row["final_fen_ep_legal"] = board.fen()
    row["rep_max_ep_always"] = rep_max["fen"]
    row["threefold_ply_ep_always"] = first3["fen"]
    row["rep_max_ep_legal"] = rep_max["legal"]
    row["threefold_ply_ep_legal"] = first3["legal"]
    row["missed_threefold"] = "true" if first3["legal"] != "" and first3["fen"] == "" else "false"
    row["status"] = status
    info["moves"] = moves[:plies]
    info["history"] = history
    return row, info


def describe_missed(row, info):
    """Where a missed threefold comes from: the ep-if-legal key that reached 3
    and the full ep-always FENs at its occurrences (the first one carries an
    en-passant square that no pawn can legally use)."""
    hist = info["history"]
    target = " ".join(chess.Board(hist[int(row["threefold_ply_ep_legal"])]).fen().split()[:4])
    plies = [i for i, f in enumerate(hist)
             if " ".join(chess.Board(f).fen().split()[:4]) == target][:3]
    moves = info["moves"]
    b = chess.Board(row["start_fen"]) if row["start_fen"] else chess.Board()
    san = []
    for i, tok in enumerate(moves[:plies[-1]]):
        m = b.parse_san(tok)
        num = b.fullmove_number
        san.append((f"{num}." if b.turn else f"{num}...") + b.san(m) if (b.turn or i == 0) else b.san(m))
        b.push(m)
    return plies, [hist[p] for p in plies], " ".join(san)


# ---------------------------------------------------------------- driver

def corpus_files():
    base = os.path.join(ROOT, CORPUS)
    return sorted(f for f in os.listdir(base) if f.endswith(".pgn"))


def read_file(name):
    with open(os.path.join(ROOT, CORPUS, name), "rb") as fh:
        return decode(fh.read())


def compute():
    rows, infos = [], []
    for name in corpus_files():
        text, src = read_file(name)
        source = f"{CORPUS}/{name}"
        for i, raw in enumerate(split_games(text), 1):
            row, info = analyse(source, i, raw)
            row["offset"], row["line"] = src.locate(raw.pos)
            info["raw"] = raw
            rows.append(row)
            infos.append(info)
    return rows, infos


def write_outputs(rows, infos):
    out = os.path.join(ROOT, EXPECTED)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "games.csv"), "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(COLUMNS)
        for r in rows:
            w.writerow([r[c] for c in COLUMNS])
    with open(os.path.join(out, "castling.csv"), "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["source", "game", "offset", "line", "fen", "castling", "invalid", "effective"])
        for r in rows:
            if r["castling_conflict"]:
                w.writerow([r["source"], r["game"], r["offset"], r["line"], r["start_fen"], r["start_fen"].split()[2],
                            r["castling_conflict"], r["castling_effective"]])
    by_status = Counter(r["status"] for r in rows)
    totals = OrderedDict()
    totals["python_chess_version"] = chess.__version__
    totals["inputs"] = len(corpus_files())
    totals["games"] = len(rows)
    totals["by_status"] = OrderedDict((s, by_status.get(s, 0)) for s in
                                      ["ok", "illegal_move", "bad_fen", "parse_error", "unsupported"])
    totals["threefolds_ep_always"] = sum(1 for r in rows if r["threefold_ply_ep_always"] != "")
    totals["threefolds_ep_legal"] = sum(1 for r in rows if r["threefold_ply_ep_legal"] != "")
    totals["missed_threefolds"] = sum(1 for r in rows if r["missed_threefold"] == "true")
    totals["castling_conflicts"] = sum(1 for r in rows if r["castling_conflict"])
    files = OrderedDict()
    for name in corpus_files():
        files[f"{CORPUS}/{name}"] = OrderedDict(
            games=0, ok=0, illegal_move=0, bad_fen=0, parse_error=0, unsupported=0,
            threefolds_ep_always=0, threefolds_ep_legal=0, missed_threefolds=0, castling_conflicts=0)
    for r in rows:
        f = files[r["source"]]
        f["games"] += 1
        f[r["status"]] += 1
        f["threefolds_ep_always"] += r["threefold_ply_ep_always"] != ""
        f["threefolds_ep_legal"] += r["threefold_ply_ep_legal"] != ""
        f["missed_threefolds"] += r["missed_threefold"] == "true"
        f["castling_conflicts"] += bool(r["castling_conflict"])
    totals["per_file"] = files
    with open(os.path.join(out, "totals.json"), "w", encoding="utf-8") as fh:
        json.dump(totals, fh, indent=2)
        fh.write("\n")
    return totals


def check_invariants(rows):
    for r in rows:
        if r["status"] in ("ok", "illegal_move") or r["error_ply"] != "":
            assert r["rep_max_ep_always"] <= r["rep_max_ep_legal"], r
        missed = r["threefold_ply_ep_legal"] != "" and r["threefold_ply_ep_always"] == ""
        assert (r["missed_threefold"] == "true") == missed, r


# ---------------------------------------------------------------- cross-check

def python_chess_reading(name):
    """Plain chess.pgn.read_game over the whole file (what python-chess alone says)."""
    path = os.path.join(ROOT, CORPUS, name)
    with open(path, "rb") as fh:
        data = fh.read()
    try:
        data.decode("utf-8")
        enc = "utf-8-sig"
    except UnicodeDecodeError:
        enc = "latin-1"
    import logging
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    out = []
    with open(path, encoding=enc, newline=None) as fh:
        while True:
            try:
                g = chess.pgn.read_game(fh)
            except Exception as err:  # python-chess itself fails on this input
                out.append(dict(crash=f"read_game raised {type(err).__name__} after {len(out)} games"))
                break
            if g is None:
                break
            moves = list(g.mainline_moves())
            try:
                b = g.board()
                for m in moves:
                    b.push(m)
                final = b.fen()
            except Exception:
                final = ""
            out.append(dict(white=g.headers.get("White", ""), plies=len(moves),
                            errors=[str(e) for e in g.errors], final=final))
    return out


def crosscheck(rows):
    by_file = OrderedDict()
    for r in rows:
        by_file.setdefault(r["source"], []).append(r)
    lines = []
    for name in corpus_files():
        source = f"{CORPUS}/{name}"
        mine = by_file.get(source, [])
        theirs = python_chess_reading(name)
        if theirs and "crash" in theirs[-1]:
            lines.append(f"{source}: {theirs[-1]['crash']}")
            continue
        if len(mine) != len(theirs):
            lines.append(f"{source}: spec splitter {len(mine)} games, read_game {len(theirs)} games")
            continue
        for r, t in zip(mine, theirs):
            if r["status"] in ("unsupported",):
                continue
            diffs = []
            if r["plies"] != t["plies"]:
                diffs.append(f"plies {r['plies']} vs read_game {t['plies']}")
            if r["status"] == "ok" and t["errors"]:
                diffs.append(f"read_game errors {t['errors']}")
            if r["status"] != "ok" and not t["errors"]:
                diffs.append(f"status {r['status']} but read_game saw no error")
            if r["final_fen_ep_legal"] and t["final"] and r["final_fen_ep_legal"] != t["final"]:
                diffs.append("final FEN differs")
            if diffs:
                lines.append(f"{source} game {r['game']}: " + "; ".join(diffs))
    return lines


def main():
    os.chdir(ROOT)
    rows, infos = compute()
    check_invariants(rows)
    if "--crosscheck" in sys.argv:
        for line in crosscheck(rows):
            print(line)
        return
    totals = write_outputs(rows, infos)
    print(f"python-chess {chess.__version__}: {totals['games']} games, "
          f"{dict(totals['by_status'])}, threefolds ep-always {totals['threefolds_ep_always']}, "
          f"ep-legal {totals['threefolds_ep_legal']}, missed {totals['missed_threefolds']}, "
          f"castling conflicts {totals['castling_conflicts']}")
    table = ["| file | games | ok | illegal_move | bad_fen | parse_error | unsupported | threefolds ep-always "
             "| threefolds ep-legal | missed threefolds | castling conflicts |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for src, f in totals["per_file"].items():
        table.append(f"| {src.split('/')[-1]} | {f['games']} | {f['ok']} | {f['illegal_move']} | {f['bad_fen']} | "
                     f"{f['parse_error']} | {f['unsupported']} | {f['threefolds_ep_always']} | "
                     f"{f['threefolds_ep_legal']} | {f['missed_threefolds']} | {f['castling_conflicts']} |")
    bs = totals["by_status"]
    table.append(f"| **total** | {totals['games']} | {bs['ok']} | {bs['illegal_move']} | {bs['bad_fen']} | "
                 f"{bs['parse_error']} | {bs['unsupported']} | {totals['threefolds_ep_always']} | "
                 f"{totals['threefolds_ep_legal']} | {totals['missed_threefolds']} | {totals['castling_conflicts']} |")
    missed = ["", "Missed threefolds (threefold under ep-if-legal, none under ep-always):", ""]
    for r in rows:
        if r["missed_threefold"] == "true":
            missed.append(f"- {r['source'].split('/')[-1]} game {r['game']}: {r['white']} - {r['black']}, "
                          f"threefold (ep-if-legal) at ply {r['threefold_ply_ep_legal']}, "
                          f"rep_max ep-always {r['rep_max_ep_always']}")
            if "synthetic" not in r["source"]:
                info = infos[rows.index(r)]
                plies, fens, san = describe_missed(r, info)
                missed.append(f"  - same position at plies {plies}; ep-always FENs: "
                              + "; ".join(f"`{f}`" for f in fens))
                missed.append(f"  - moves to ply {plies[-1]}: {san}")
    block = "\n".join(table + missed)
    print(block)
    readme = os.path.join(ROOT, EXPECTED, "README.md")
    if os.path.exists(readme):
        text = open(readme, encoding="utf-8").read()
        a, b = "<!-- counts:begin -->", "<!-- counts:end -->"
        if a in text and b in text:
            head, rest = text.split(a, 1)
            _, tail = rest.split(b, 1)
            with open(readme, "w", encoding="utf-8") as fh:
                fh.write(head + a + "\n" + block + "\n" + b + tail)
    for r, info in zip(rows, infos):
        if r["missed_threefold"] == "true":
            print("MISSED", r["source"], r["game"], r["white"], "-", r["black"], "ply", r["threefold_ply_ep_legal"])
        if info.get("skipped"):
            print("NOT-A-MOVE", r["source"], r["game"], info["skipped"][:8])


if __name__ == "__main__":
    main()
