#!/usr/bin/env python3
"""Expected values for the xiangqi record files of testdata/xiangqi/records/.

Independent of pgnmill: cchess (PyPI 1.25.5, walker8088) decodes the XQF,
CBR, CBF and uncompressed CBL bytes (start board, move tree, tags); pyffish
(Fairy-Stockfish, variant "xiangqi") checks every main-line move and gives
the final FEN. cchess does not check legality (docs/xiangqi-formats.md §5)
and drops a move from an empty square silently; pyffish decides which
main-line moves are legal, and the replay stops at the first that is not.

DhtmlXQ (.ubb/.txt/.html): the PyPI cchess has no reader for it, so the
blocks are decoded here by a few lines written from the format description
(docs/xiangqi-formats.md §3: binit, movelist, move_P_S_B branches), and
pyffish again checks every move and gives the final FEN; the ply counts
agree with those stated for each file in corpora/SOURCES.md.

Side to move: cchess's boards say red; the rule of every reader (§1.6) is
the colour of the piece on the first main-line move's origin, so that is
what is written here.

Run:  python3 testdata/gen/xiangqi_records_expected.py
Writes testdata/xiangqi/records-expected.json, one entry per game:
{"file", "game" (1-based record index in its file), "start_fen" ("" for the
standard start), "main_line" (ICCS, as cchess decodes it), "lines" (main
line + variations), "plies" (legal main-line moves), "final_fen",
"status" ("ok" or "illegal_move"), "red", "black", "result",
"start_legal_moves" and "start_check" (pyffish: the legal moves of the
start position and whether its side to move is in check, for `pgnmill fen`)}.
"""

import json
import os
import re
import sys
from xml.etree import ElementTree

import cchess
import pyffish
from cchess.read_cbf import read_from_cbf
from cchess.read_cbr import read_from_cbl, read_from_cbr
from cchess.read_xqf import read_from_xqf

HERE = os.path.dirname(os.path.abspath(__file__))
DIR = os.path.join(HERE, "..", "xiangqi", "records")
OUT = os.path.join(HERE, "..", "xiangqi", "records-expected.json")
START = pyffish.start_fen("xiangqi")


def to_ffish(iccs):
    """ICCS ranks 0-9 -> pyffish ranks 1-10."""
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


def placement_side(game, main):
    """Start FEN with the side decided by the first move's piece."""
    fen = game.init_board.to_fen()
    placement = fen.split()[0]
    side = "w"
    if main:
        rows = placement.split("/")
        f, r = ord(main[0][0]) - 97, int(main[0][1])
        row = rows[9 - r]
        col = 0
        for ch in row:
            if ch.isdigit():
                col += int(ch)
                continue
            if col == f:
                side = "w" if ch.isupper() else "b"
                break
            col += 1
    return f"{placement} {side} - - 0 1"


def dhtmlxq_games(text):
    """(start FEN placement, main line, line count, red, black, result) per block."""
    starts = sorted(m.start() for m in re.finditer(r"\[DhtmlXQ(iFrame|HTML)?\]", text))
    out = []
    for k, s in enumerate(starts):
        block = text[s : starts[k + 1] if k + 1 < len(starts) else len(text)]
        tags = {}
        for m in re.finditer(r"\[DhtmlXQ_([a-z0-9_]+)\](.*?)\[/DhtmlXQ_", block, re.S):
            tags.setdefault(m.group(1), m.group(2))
        if not tags:
            continue
        board = [["."] * 9 for _ in range(10)]  # board[rank][file], rank 0 = red's side
        binit = tags.get("binit", "")
        if binit:
            letters = "RNBAKABNRCCPPPPP"
            digits = "".join(c if c.isdigit() else "9" for c in binit)
            for i in range(32):
                x, y = int(digits[2 * i]), int(digits[2 * i + 1])
                if x <= 8 and y <= 9:
                    ch = letters[i % 16]
                    board[9 - y][x] = ch if i < 16 else ch.lower()
        else:
            rows = START.split()[0].split("/")
            for line, row in enumerate(rows):
                f = 0
                for ch in row:
                    if ch.isdigit():
                        f += int(ch)
                    else:
                        board[9 - line][f] = ch
                        f += 1

        def moves(v):
            d = re.sub(r"\D", "", v)
            return [f"{'abcdefghi'[int(d[i])]}{9 - int(d[i + 1])}{'abcdefghi'[int(d[i + 2])]}{9 - int(d[i + 3])}"
                    for i in range(0, len(d) - 3, 4)]

        lines = {0: moves(tags.get("movelist", ""))}
        branches = []
        for name, v in tags.items():
            m = re.fullmatch(r"move_(\d+)_(\d+)_(\d+)", name)
            if m and int(m.group(3)) > 0:
                branches.append((int(m.group(3)), int(m.group(1)), int(m.group(2)), moves(v)))
        for b, p, st, mv in sorted(branches):
            lines[b] = lines[p][: st - 1] + mv
        every = list(lines.values())
        leaves = sum(
            1 for i, l in enumerate(every)
            if not any(j != i and len(o) > len(l) and o[: len(l)] == l for j, o in enumerate(every))
        )
        placement = "/".join(
            re.sub(r"\.+", lambda m: str(len(m.group(0))), "".join(board[r])) for r in range(9, -1, -1)
        )
        res = {"红胜": "1-0", "紅勝": "1-0", "黑胜": "0-1", "黑勝": "0-1", "和棋": "1/2-1/2"}
        out.append((placement, lines[0], leaves, tags.get("red", "").strip(),
                    tags.get("black", "").strip(), res.get(tags.get("result", "").strip(), "*")))
    return out


class Decoded:
    """A DhtmlXQ block in the shape entry() reads from cchess games."""

    def __init__(self, placement, main, leaves, red, black, result):
        self.placement, self.main, self.leaves = placement, main, leaves
        self.info = {"red": red, "black": black, "result": result}

    def dump_iccs_moves(self):
        return [self.main] + [[]] * (self.leaves - 1)


def side_of(placement, main):
    if not main:
        return "w"
    rows = placement.split("/")
    f, r = ord(main[0][0]) - 97, int(main[0][1])
    col = 0
    for ch in rows[9 - r]:
        if ch.isdigit():
            col += int(ch)
            continue
        if col == f:
            return "w" if ch.isupper() else "b"
        col += 1
    return "w"


def entry(name, index, game):
    lines = game.dump_iccs_moves()
    main = lines[0] if lines else []
    if isinstance(game, Decoded):
        fen = f"{game.placement} {side_of(game.placement, main)} - - 0 1"
    else:
        fen = placement_side(game, main)
    played = []
    status = "ok"
    for mv in main:
        if to_ffish(mv) not in pyffish.legal_moves("xiangqi", fen, played):
            status = "illegal_move"
            break
        played.append(to_ffish(mv))
    final = pyffish.get_fen("xiangqi", fen, played)
    info = game.info
    return {
        "file": name,
        "game": index,
        "start_fen": "" if fen == START else fen,
        "main_line": main,
        "lines": max(len(lines), 1),
        "plies": len(played),
        "final_fen": final,
        "status": status,
        "red": info.get("red") or "",
        "black": info.get("black") or "",
        "result": info.get("result") or "*",
        "start_legal_moves": len(pyffish.legal_moves("xiangqi", fen, [])),
        "start_check": pyffish.gives_check("xiangqi", fen, []),
    }


def main():
    out = []
    for name in sorted(os.listdir(DIR)):
        path = os.path.join(DIR, name)
        ext = name.lower().rsplit(".", 1)[-1]
        if ext == "xqf":
            game = read_from_xqf(path)
            if game is not None:
                out.append(entry(name, 1, game))
        elif ext == "cbr":
            out.append(entry(name, 1, read_from_cbr(path)))
        elif ext == "cbf":
            # cchess returns no tags for CBF: they come from the XML itself.
            game = read_from_cbf(path)
            head = ElementTree.parse(path).getroot().find("Head")
            text = lambda tag: (head.findtext(tag) or "").strip()
            game.info = {
                "red": text("Red"),
                "black": text("Black"),
                "result": {"1": "1-0", "2": "0-1", "3": "1/2-1/2", "4": "1/2-1/2"}.get(
                    text("RecordResult"), "*"),
            }
            out.append(entry(name, 1, game))
        elif ext in ("ubb", "txt", "html", "htm"):
            with open(path, encoding="utf-8-sig") as f:
                for i, g in enumerate(dhtmlxq_games(f.read())):
                    out.append(entry(name, i + 1, Decoded(*g)))
        elif ext == "cbl":
            with open(path, "rb") as f:
                if not f.read(16).startswith(b"CCBridgeLibrary\0"):
                    continue  # the packed container: cchess cannot read it
            lib = read_from_cbl(path)
            for i, game in enumerate(lib["games"]):
                out.append(entry(name, i + 1, game))
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=0)
        f.write("\n")
    print(f"{len(out)} games -> {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
