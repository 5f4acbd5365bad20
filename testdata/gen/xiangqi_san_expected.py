#!/usr/bin/env python3
"""Expected values for xiangqi games in SAN (WinBoard's `Che2` and the 1-10
rank dialect of Fairy-Stockfish), for tests/xiangqi/xiangqi_san.rs.

Two parts, both independent of pgnmill:

1. Constructed files (testdata/xiangqi/san/): the 15 master games of
   testdata/xiangqi/corpus/wukong-xqdb15-iccs.pgn written by pyffish
   (Fairy-Stockfish 0.0.90) `get_san_moves`, which numbers the ranks 1-10 and
   writes a `P` for pawns (`xqdb15-fairy-san.pgn`), and the same text with
   every rank lowered by one, the WinBoard numbering 0-9
   (`xqdb15-ranks0-san.pgn`).

2. Expected values: every SAN game of those files and of the two real
   WinBoard games (testdata/xiangqi/corpus/wukong-winboard-san-{1,2}.pgn) is
   decoded here by the rules of docs/xiangqi-formats.md §4 (piece letter,
   origin file/rank, destination; the rank base fixed per game by a `0` or
   `10` in any token, else by the first move legal in only one base) and
   every token is matched against pyffish's legal moves (exactly one must
   fit). pyffish gives the final FEN.

Run:  python3 testdata/gen/xiangqi_san_expected.py
Writes the two constructed files and testdata/xiangqi/san-expected.json,
one entry per game: {"file", "game" (1-based), "base" (0 or 1), "plies",
"moves" (ICCS, ranks 0-9), "final_fen"}.
"""

import json
import os
import re

import pyffish

HERE = os.path.dirname(os.path.abspath(__file__))
TD = os.path.join(HERE, "..")
SAN_DIR = os.path.join(TD, "xiangqi", "san")
CORPUS = os.path.join(TD, "xiangqi", "corpus")
OUT = os.path.join(TD, "xiangqi", "san-expected.json")
START = pyffish.start_fen("xiangqi")

ROLE = {"K": "k", "A": "a", "E": "b", "B": "b", "H": "n", "N": "n", "R": "r", "C": "c", "P": "p"}
TOKEN = re.compile(r"^([KAEBHNRCP])?([a-i])?(10|\d)?(x)?([a-i])(10|\d)[+#!?]*$")


def split_games(text):
    """(tags dict, movetext) per game of a PGN text."""
    games = []
    for block in re.split(r"\n(?=\[Event )", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]', block, re.M))
        body = "\n".join(l for l in block.splitlines() if not l.startswith("["))
        games.append((tags, body))
    return games


def move_tokens(movetext):
    text = re.sub(r"\{[^}]*\}", " ", movetext)
    text = re.sub(r";[^\n]*", " ", text)
    out = []
    for t in text.split():
        t = re.sub(r"^\d+\.+", "", t)
        if not t or t in ("1-0", "0-1", "1/2-1/2", "*") or t.startswith("$"):
            continue
        out.append(t)
    return out


def piece_at(fen, sq):
    """The FEN letter on pyffish square `sq` (e.g. "h3", ranks 1-10)."""
    rows = fen.split()[0].split("/")
    f, r = ord(sq[0]) - 97, int(sq[1:])
    col = 0
    for ch in re.findall(r"\d+|.", rows[10 - r]):
        if ch.isdigit():
            col += int(ch)
            continue
        if col == f:
            return ch
        col += 1
    return None


def uci_squares(m):
    a, b = re.match(r"([a-i]\d+)([a-i]\d+)", m).groups()
    return a, b


def matches(fen, moves, token, base):
    """The legal moves (pyffish UCI) that `token` fits with ranks in `base`."""
    g = TOKEN.match(token)
    if not g:
        raise ValueError(f"not SAN: {token}")
    letter, ffile, frank, _x, tfile, trank = g.groups()
    role = ROLE[letter] if letter else "p"
    shift = 1 - base  # written rank + shift = pyffish rank (1-10)
    to = f"{tfile}{int(trank) + shift}"
    legal = pyffish.legal_moves("xiangqi", fen, moves)
    cur = pyffish.get_fen("xiangqi", fen, moves)
    out = []
    for m in legal:
        a, b = uci_squares(m)
        if b != to:
            continue
        if ffile and a[0] != ffile:
            continue
        if frank and int(a[1:]) != int(frank) + shift:
            continue
        p = piece_at(cur, a)
        if p is None or p.lower() != role:
            continue
        out.append(m)
    return out


def replay(tokens, base):
    """UCI moves of the tokens read in `base`; stops at the first that fails."""
    moves = []
    for t in tokens:
        fit = matches(START, moves, t, base)
        if len(fit) != 1:
            break
        moves.append(fit[0])
    return moves


def rank_base(tokens):
    for t in tokens:
        g = TOKEN.match(t)
        ranks = [g.group(3), g.group(6)] if g else []
        if "0" in ranks:
            return 0
        if "10" in ranks:
            return 1
    for t in tokens:
        zero = len(matches(START, [], t, 0)) == 1
        one = len(matches(START, [], t, 1)) == 1
        assert zero != one, f"first move {t} does not settle the base"
        return 0 if zero else 1
    return 0


def to_iccs(m):
    a, b = uci_squares(m)
    return f"{a[0]}{int(a[1:]) - 1}{b[0]}{int(b[1:]) - 1}"


def lower_ranks(san):
    return re.sub(r"10|\d", lambda d: str(int(d.group()) - 1), san)


def construct():
    """Writes the two constructed SAN files from the 15 ICCS games."""
    with open(os.path.join(CORPUS, "wukong-xqdb15-iccs.pgn"), encoding="utf-8") as f:
        games = split_games(f.read())
    os.makedirs(SAN_DIR, exist_ok=True)
    for name, rewrite in (("xqdb15-fairy-san.pgn", lambda s: s), ("xqdb15-ranks0-san.pgn", lower_ranks)):
        parts = []
        for tags, body in games:
            uci = []
            for t in move_tokens(body):
                uci.append(f"{t[0]}{int(t[1]) + 1}{t[2]}{int(t[3]) + 1}")
            sans = pyffish.get_san_moves("xiangqi", START, uci)
            head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
            head += '[Variant "xiangqi"]\n[Result "*"]\n'
            words = []
            for i, s in enumerate(sans):
                if i % 2 == 0:
                    words.append(f"{i // 2 + 1}.")
                words.append(rewrite(s))
            words.append("*")
            lines, line = [], ""
            for w in words:
                if len(line) + len(w) + 1 > 79:
                    lines.append(line)
                    line = w
                else:
                    line = f"{line} {w}" if line else w
            lines.append(line)
            parts.append(head + "\n" + "\n".join(lines) + "\n")
        with open(os.path.join(SAN_DIR, name), "w", encoding="utf-8") as f:
            f.write("\n".join(parts))


def main():
    construct()
    files = [
        (os.path.join(CORPUS, "wukong-winboard-san-1.pgn"), "wukong-winboard-san-1.pgn"),
        (os.path.join(CORPUS, "wukong-winboard-san-2.pgn"), "wukong-winboard-san-2.pgn"),
        (os.path.join(SAN_DIR, "xqdb15-fairy-san.pgn"), "xqdb15-fairy-san.pgn"),
        (os.path.join(SAN_DIR, "xqdb15-ranks0-san.pgn"), "xqdb15-ranks0-san.pgn"),
    ]
    out = []
    for path, name in files:
        with open(path, encoding="utf-8") as f:
            games = split_games(f.read())
        for k, (_tags, body) in enumerate(games, 1):
            tokens = move_tokens(body)
            base = rank_base(tokens)
            moves = replay(tokens, base)
            assert len(moves) == len(tokens), f"{name}#{k}: stops at {tokens[len(moves)]}"
            out.append(
                {
                    "file": name,
                    "game": k,
                    "base": base,
                    "plies": len(moves),
                    "moves": [to_iccs(m) for m in moves],
                    "final_fen": pyffish.get_fen("xiangqi", START, moves),
                }
            )
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=0, ensure_ascii=False)
        f.write("\n")
    print(f"{len(out)} games -> {OUT}")


if __name__ == "__main__":
    main()
