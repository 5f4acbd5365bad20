#!/usr/bin/env python3
"""Generate python-chess reference vectors for pgnmill's chess kernel.

Run from the repository root:  python3 testdata/gen/chess_vectors.py
Needs: pip install chess (written against python-chess 1.11.2).
Reads the shared corpus (/work/shared/corpora, or $PGNMILL_CORPORA) and
writes, gzip-compressed JSON lines, into testdata/chess/vectors/:

  positions.jsonl.gz  one sampled position per line:
      fen       python-chess fen(en_passant="fen")   (ep-always)
      fen_legal python-chess fen()                   (ep-if-legal)
      fen_xfen  python-chess fen(en_passant="xfen")
      chess960  bool
      check     board.is_check()
      moves     [[uci, san, fen_after_always, fen_after_legal_or_null], ...]
                (fen_after_legal is null when equal to fen_after_always)
      variants  [[token, uci], ...]  other spellings python-chess's
                parse_san accepts (long algebraic, UCI-like, 0-0, e8Q,
                over-specified origins) and the move they mean
  castling.jsonl.gz  one corrupted castling field per line:
      fen, chess960, invalid, effective, fen_out
      invalid/effective follow python-chess clean_castling_rights(): a
      written right is invalid when the rook square python-chess resolves it
      to is not in clean_castling_rights(); effective is the written field
      without those letters ("-" if empty); fen_out is python-chess fen().
      Spec adjustment (chess.md, castling table): in standard chess a right
      stands only with its rook on a1/h1/a8/h8, so python-chess's result is
      intersected with the corners there (python-chess alone would accept a
      K right with the rook on g1).
  games.jsonl.gz  whole games for SAN replay tests and the bench:
      fen (start, null for the standard start), chess960, sans (python-chess
      SAN of each move), final_fen (ep-always), final_fen_legal
"""

import gzip
import json
import os
import random
import sys

import chess
import chess.pgn

CORPORA = os.environ.get("PGNMILL_CORPORA", "/work/shared/corpora")
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "chess", "vectors")

SOURCES = [
    # (path, games to read, positions to sample per game, games to keep whole)
    ("chess-real/lichess-2025-05-blitz-sample.pgn", 438, 3, 150),
    ("chess-real/twic1599-sample.pgn", 1110, 1, 150),
    ("chess-real/pychess/chess960rwch.pgn", 20, 40, 20),
    ("chess-real/chesscom-cancer0707.pgn", 1667, 1, 100),
]


def read_games(path, limit):
    with open(path, encoding="utf-8", errors="replace") as f:
        n = 0
        while n < limit:
            game = chess.pgn.read_game(f)
            if game is None:
                return
            n += 1
            if game.errors:
                continue
            yield game


def variants(board, move):
    """Other spellings of `move` that python-chess's parse_san accepts."""
    out = set()
    san = board.san(move).rstrip("+#")
    cands = [board.lan(move), board.lan(move).replace("-", "", 1), board.uci(move)]
    if san.startswith("O-O"):
        cands.append(san.replace("O", "0"))
    if "=" in san:
        cands.append(san.replace("=", ""))
    piece = board.piece_at(move.from_square)
    if piece and piece.piece_type != chess.PAWN and not board.is_castling(move):
        sq = chess.square_name(move.from_square)
        to = chess.square_name(move.to_square)
        cands += [san[0] + sq + to, san[0] + sq[1] + to, san[0] + sq[0] + to]
    if board.is_en_passant(move):
        cands.append(san + "e.p.")
    for c in cands:
        if c == san:
            continue
        try:
            if board.parse_san(c) == move:
                out.add(c)
        except ValueError:
            pass
    return sorted(out)


def position_record(board):
    moves = []
    for move in sorted(board.legal_moves, key=lambda m: board.uci(m)):
        san = board.san(move)
        uci = board.uci(move)
        board.push(move)
        after = board.fen(en_passant="fen")
        after_legal = board.fen()
        board.pop()
        moves.append([uci, san, after, None if after_legal == after else after_legal])
    var = []
    for move in board.legal_moves:
        for v in variants(board, move):
            var.append([v, board.uci(move)])
    return {
        "fen": board.fen(en_passant="fen"),
        "fen_legal": board.fen(),
        "fen_xfen": board.fen(en_passant="xfen"),
        "chess960": board.chess960,
        "check": board.is_check(),
        "moves": moves,
        "variants": var,
    }


def resolve_bit(board_fen, chess960, ch):
    """The rook square (bitboard) python-chess gives one castling letter."""
    b = chess.Board(None, chess960=chess960)
    b.set_board_fen(board_fen)
    b.set_castling_fen(ch)
    return b.castling_rights


def castling_record(board_fen, turn, chess960, field, rng):
    fen = f"{board_fen} {turn} {field} - 0 1"
    b = chess.Board(fen, chess960=chess960)
    clean = b.clean_castling_rights()
    if not chess960:
        clean &= chess.BB_A1 | chess.BB_H1 | chess.BB_A8 | chess.BB_H8
    invalid, effective, seen = "", "", 0
    if field != "-":
        for ch in field:
            bit = resolve_bit(board_fen, chess960, ch)
            if bit & seen:
                return None  # two letters for one rook: skip ambiguous cases
            seen |= bit
            if bit and (bit & clean) == bit:
                effective += ch
            else:
                invalid += ch
    b.castling_rights = clean
    return {
        "fen": fen,
        "chess960": chess960,
        "invalid": invalid,
        "effective": effective or "-",
        "fen_out": b.fen(),
    }


def random_field(rng, shredder):
    if shredder:
        white = rng.sample("ABCDEFGH", rng.randint(0, 2))
        black = rng.sample("abcdefgh", rng.randint(0, 2))
    else:
        white = rng.sample("KQ", rng.randint(0, 2))
        black = rng.sample("kq", rng.randint(0, 2))
    white.sort(key=lambda c: "KQABCDEFGH".index(c))
    black.sort(key=lambda c: "kqabcdefgh".index(c))
    field = "".join(white + black)
    return field or "-"


def main():
    rng = random.Random(20261129)
    os.makedirs(OUT, exist_ok=True)
    positions, games_out, boards = [], [], []
    for rel, limit, per_game, whole in SOURCES:
        path = os.path.join(CORPORA, rel)
        kept = 0
        for game in read_games(path, limit):
            board = game.board()
            start_fen = None if board.fen() == chess.STARTING_FEN else board.fen(en_passant="fen")
            chess960 = board.chess960
            mainline = list(game.mainline_moves())
            if not mainline:
                continue
            plies = set(rng.sample(range(len(mainline) + 1), min(per_game, len(mainline) + 1)))
            sans = []
            for ply, move in enumerate(mainline):
                if ply in plies:
                    positions.append(position_record(board))
                    boards.append((board.board_fen(), "w" if board.turn else "b", chess960))
                sans.append(board.san(move))
                board.push(move)
            if len(mainline) in plies:
                positions.append(position_record(board))
            if kept < whole:
                kept += 1
                games_out.append({
                    "source": rel,
                    "fen": start_fen,
                    "chess960": chess960,
                    "sans": sans,
                    "final_fen": board.fen(en_passant="fen"),
                    "final_fen_legal": board.fen(),
                })
        print(f"{rel}: {len(positions)} positions so far", file=sys.stderr)

    # Chess960 start positions (Stockfish FRC book) for castling corruption.
    with open(os.path.join(CORPORA, "chess-fen/stockfish-books-FRC_openings.epd")) as f:
        for line in f:
            parts = line.split()
            if parts:
                boards.append((parts[0], parts[1], True))

    castling = []
    for board_fen, turn, chess960 in boards:
        for _ in range(2):
            shredder = chess960 and rng.random() < 0.5
            field = random_field(rng, shredder)
            try:
                rec = castling_record(board_fen, turn, chess960, field, rng)
            except ValueError:
                continue
            if rec:
                castling.append(rec)
        # Standard mode also sees some file letters (Shredder fields).
        if not chess960 and rng.random() < 0.05:
            rec = castling_record(board_fen, turn, False, random_field(rng, True), rng)
            if rec:
                castling.append(rec)

    for name, rows in [("positions", positions), ("castling", castling), ("games", games_out)]:
        with gzip.open(os.path.join(OUT, f"{name}.jsonl.gz"), "wt", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, separators=(",", ":")) + "\n")
        print(f"{name}: {len(rows)}", file=sys.stderr)


if __name__ == "__main__":
    main()
