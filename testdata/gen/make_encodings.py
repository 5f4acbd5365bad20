#!/usr/bin/env python3
"""Inputs in the text encodings that fool a guesser: testdata/encodings/.

Each file is written here with Python's own codecs, game by game, and
expected.json gives, per file, the encoding a reader must settle on and,
per game, its tags (under games.csv's column names) as Python decodes them
with the codec the game was written in, and its plies (python-chess for chess, the move tokens of the
main line for the Chinese xiangqi games). The shapes:

- latin1-portuguese.pgn: a ChessBase-style windows-1252 export whose only
  non-ASCII letters come two together (`ÇÃ` of CONFEDERAÇÃO), both bytes
  of which lie in GBK's GB2312 block, and a comment
  ending in `é}`, whose `}` a GBK reading would swallow.
- utf8-with-one-latin1-game.pgn: a UTF-8 collection (accented names) with
  one game pasted in from a windows-1252 file; the UTF-8 games must stay
  UTF-8 and the pasted one be read as windows-1252.
- gbk-chess-names.pgn: chess games with players' names in Chinese, in GBK,
  no xiangqi character among them.
- utf16le-nobom-chinese.pgn: the first five wukong games in Chinese
  notation (testdata/xiangqi/corpus/wukong-xqdb15-chinese.pgn), UTF-16LE
  without a byte order mark: most characters have no zero byte.
- utf16le-nobom-cyrillic.pgn: chess games with Russian names and comments,
  UTF-16LE without a byte order mark.

The chess games are the first games of
testdata/corpus/pgn2tex-london1851.pgn, their tags replaced.

Needs: python3 with chess==1.11.2.
Usage (from the repository root): python3 testdata/gen/make_encodings.py
"""

import io
import json
import os
import re

import chess.pgn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "testdata", "encodings")
LONDON = os.path.join(ROOT, "testdata", "corpus", "pgn2tex-london1851.pgn")
WUKONG = os.path.join(ROOT, "testdata", "xiangqi", "corpus", "wukong-xqdb15-chinese.pgn")


def london_games(count):
    with open(LONDON, encoding="latin-1") as f:
        games = []
        while len(games) < count:
            game = chess.pgn.read_game(f)
            assert game is not None and not game.errors
            games.append(game)
    return games


def chess_text(game, tags, comment=None):
    """The game with only `tags` (in order) and, if given, a comment after
    its first move, exported by python-chess."""
    game = game.__class__.from_board(game.end().board())
    for name in list(game.headers):
        del game.headers[name]
    for name, value in tags:
        game.headers[name] = value
    if comment:
        game.next().comment = comment
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=True)
    return game.accept(exporter) + "\n\n"


def chess_expected(text, tag_names):
    game = chess.pgn.read_game(io.StringIO(text))
    assert not game.errors, game.errors
    tags = {name.lower(): game.headers.get(name, "") for name in tag_names}
    return {"tags": tags, "plies": len(list(game.mainline_moves()))}


def write(name, parts, encoding, expected, games):
    raw = b"".join(text.encode(codec) for text, codec in parts)
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(raw)
    expected[name] = {"encoding": encoding, "games": games}


def main():
    os.makedirs(OUT, exist_ok=True)
    expected = {}
    base = london_games(30)

    # windows-1252, accented letters only two together.
    parts, games = [], []
    for i, g in enumerate(base[:20]):
        tags = [
            ("Event", "CAMPEONATO DA CONFEDERAÇÃO BRASILEIRA"),
            ("White", "Silva"),
            ("Black", "Souza"),
            ("Result", g.headers["Result"]),
        ]
        text = chess_text(g, tags, "Excelente lance de José" if i == 1 else None)
        parts.append((text, "cp1252"))
        games.append(chess_expected(text, ["Event", "White", "Black"]))
    write("latin1-portuguese.pgn", parts, "windows-1252", expected, games)

    # UTF-8 with one windows-1252 game.
    parts, games = [], []
    for i, g in enumerate(base[:30]):
        tags = [
            ("Event", "Großmeisterturnier"),
            ("White", "Müller"),
            ("Black", "Ólafsson"),
            ("Result", g.headers["Result"]),
        ]
        text = chess_text(g, tags)
        codec = "cp1252" if i == 25 else "utf-8"
        parts.append((text, codec))
        games.append(chess_expected(text, ["Event", "White", "Black"]))
    write("utf8-with-one-latin1-game.pgn", parts, "UTF-8", expected, games)

    # GBK, Chinese names, no xiangqi character.
    parts, games = [], []
    for g in base[:12]:
        tags = [
            ("Event", "中国国际联赛"),
            ("Site", "北京"),
            ("White", "丁立人"),
            ("Black", "居文君"),
            ("Result", g.headers["Result"]),
        ]
        text = chess_text(g, tags)
        parts.append((text, "gbk"))
        games.append(chess_expected(text, ["Event", "Site", "White", "Black"]))
    write("gbk-chess-names.pgn", parts, "GB18030", expected, games)

    # UTF-16LE without a BOM: Russian names and comments.
    parts, games = [], []
    for g in base[:10]:
        tags = [
            ("Event", "Чемпионат СССР"),
            ("White", "Карпов"),
            ("Black", "Каспаров"),
            ("Result", g.headers["Result"]),
        ]
        # Enough Russian that most characters of the start have no zero byte.
        comment = " ".join(["Сильный ход белых, после которого чёрным трудно."] * 6)
        text = chess_text(g, tags, comment)
        parts.append((text, "utf-16-le"))
        games.append(chess_expected(text, ["Event", "White", "Black"]))
    write("utf16le-nobom-cyrillic.pgn", parts, "UTF-16LE", expected, games)

    # UTF-16LE without a BOM: xiangqi games in Chinese notation.
    with open(WUKONG, encoding="utf-8") as f:
        texts = re.split(r"\n\s*\n(?=\[)", f.read().strip())[:5]
    parts, games = [], []
    for text in texts:
        text = text.strip() + "\n\n"
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', text, re.M))
        movetext = "\n".join(l for l in text.splitlines() if not l.startswith("["))
        tokens = movetext.split()
        moves = [
            t for t in tokens if not re.fullmatch(r"\d+\.+|1-0|0-1|1/2-1/2|\*", t)
        ]
        parts.append((text, "utf-16-le"))
        games.append(
            {
                # games.csv's columns: a xiangqi game's Red is its white
                # (docs/reports.md).
                "tags": {
                    "event": tags.get("Event", ""),
                    "white": tags.get("Red", ""),
                    "black": tags.get("Black", ""),
                },
                "plies": len(moves),
            }
        )
    write("utf16le-nobom-chinese.pgn", parts, "UTF-16LE", expected, games)

    with open(os.path.join(OUT, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(expected, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
