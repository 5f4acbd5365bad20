#!/usr/bin/env python3
"""Synthetic test games for pgnmill report: testdata/corpus/synthetic-*.pgn.

Deterministic (fixed seed, python-chess only). The games are built to exercise
what real files rarely contain:

- synthetic-repetitions.pgn: knight and rook shuffles after random openings,
  so threefolds occur under both en-passant conventions, including shuffles
  that lose castling rights (a key must include the effective rights).
- synthetic-en-passant.pgn: positions right after a double pawn push where the
  en-passant capture is legal, pseudo-legal but illegal (pinned pawn, capture
  exposing the king along the rank), or impossible (no pawn beside), each
  followed by shuffles that bring the same board back by other routes. Where
  the capture is not legal this is a MISSED threefold: three times the same
  position under ep-if-legal, only twice under ep-always. Every game's
  intended outcome is asserted here with python-chess before it is written.
- synthetic-castling-fen.pgn: [FEN] headers whose castling field claims rights
  the board cannot support (X-FEN and Shredder-FEN, chess and Chess960).
- synthetic-chess960.pgn: Chess960 games with castling on both wings.
- synthetic-errors.pgn: illegal, ambiguous and not-SAN moves mid-game, and
  [FEN] headers that must be refused.
- synthetic-odd-style.pgn: hand-written layouts (no move numbers, UCI,
  comments and nested variations, tagless games, games not separated by blank
  lines, tags and moves on one line, % lines).
- synthetic-crlf.pgn: a few games with CRLF line ends.

Usage (from the repository root): python3 testdata/gen/make_synthetic.py
"""

import os
import random

import chess
import chess.pgn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "testdata", "corpus")
SEED = 20261129


# ---------------------------------------------------------------- helpers

def keys_report(board0, moves):
    """(threefold ply ep-always, threefold ply ep-legal) for a move list."""
    b = board0.copy(stack=False)
    seen = {"fen": {}, "legal": {}}
    first = {"fen": None, "legal": None}

    def see(ply):
        for ep in ("fen", "legal"):
            k = " ".join(b.fen(en_passant=ep).split()[:4])
            seen[ep][k] = seen[ep].get(k, 0) + 1
            if seen[ep][k] == 3 and first[ep] is None:
                first[ep] = ply

    see(0)
    for i, m in enumerate(moves, 1):
        b.push(m)
        see(i)
    return first["fen"], first["legal"]


def export(board0, moves, headers, result=None):
    """A PGN string written by python-chess's exporter."""
    game = chess.pgn.Game()
    game.setup(board0)
    for k, v in headers.items():
        game.headers[k] = v
    node = game
    b = board0.copy(stack=False)
    for m in moves:
        node = node.add_variation(m)
        b.push(m)
    game.headers["Result"] = result or b.result(claim_draw=False) if b.is_game_over() else (result or "*")
    return str(game.accept(chess.pgn.StringExporter(headers=True, variations=True, comments=True))) + "\n\n"


def san_moves(board0, sans):
    b = board0.copy(stack=False)
    out = []
    for s in sans:
        m = b.parse_san(s)
        out.append(m)
        b.push(m)
    return out


def random_moves(rng, board, n, avoid_captures=False):
    """Play up to n random legal moves on board (in place); return them."""
    played = []
    for _ in range(n):
        legal = list(board.legal_moves)
        if not legal or board.is_game_over():
            break
        if avoid_captures:
            quiet = [m for m in legal if not board.is_capture(m)]
            legal = quiet or legal
        m = rng.choice(legal)
        board.push(m)
        played.append(m)
    return played


def shuffle_pair(board, rng):
    """A reversible move for the side to move: (out, back) or None.

    Knight or rook (or king) steps to an empty square and back, no capture,
    checked for legality in both directions given that the opponent also
    shuffles (the caller verifies the whole cycle).
    """
    cands = []
    for m in board.legal_moves:
        p = board.piece_at(m.from_square)
        if p.piece_type not in (chess.KNIGHT, chess.ROOK, chess.KING, chess.BISHOP, chess.QUEEN):
            continue
        if board.is_capture(m) or board.is_castling(m):
            continue
        cands.append(m)
    rng.shuffle(cands)
    return cands


def try_cycle(board, w_out, b_out, cycles):
    """Play (w_out, b_out, w_back, b_back) * cycles if all legal. Returns moves or None."""
    b = board.copy(stack=False)
    moves = []
    w_back = chess.Move(w_out.to_square, w_out.from_square)
    b_back = chess.Move(b_out.to_square, b_out.from_square)
    for _ in range(cycles):
        for m in (w_out, b_out, w_back, b_back):
            if m not in b.legal_moves:
                return None
            b.push(m)
            moves.append(m)
    return moves


# ---------------------------------------------------------------- files

def repetitions(rng):
    out = []
    n = 0
    # Random openings followed by a two-piece shuffle, sometimes twice.
    attempts = 0
    while n < 40 and attempts < 2000:
        attempts += 1
        board = chess.Board()
        moves = random_moves(rng, board, rng.randint(2, 30), avoid_captures=True)
        if board.is_game_over() or board.turn != chess.WHITE:
            continue
        w_cands = shuffle_pair(board, rng)
        if not w_cands:
            continue
        ok = None
        for w_out in w_cands[:6]:
            b1 = board.copy(stack=False)
            b1.push(w_out)
            for b_out in shuffle_pair(b1, rng)[:6]:
                cyc = try_cycle(board, w_out, b_out, rng.choice([1, 2, 2, 3]))
                if cyc:
                    ok = cyc
                    break
            if ok:
                break
        if not ok:
            continue
        for m in ok:
            board.push(m)
        moves += ok
        moves += random_moves(rng, board, rng.randint(0, 12))
        n += 1
        out.append(export(chess.Board(), moves, {
            "Event": "synthetic repetition", "Site": "make_synthetic.py",
            "Round": str(n), "White": f"shuffle-w-{n}", "Black": f"shuffle-b-{n}"}))

    # Rook shuffles from endgame FENs, with and without a castling right that
    # the first rook move destroys (the start position can then never recur).
    for i, (fen, sans) in enumerate([
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Rb1 Kd8 Ra1 Ke8 Rb1 Kd8 Ra1 Ke8 Rb1 Kd8"),
        ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "Rb1 Kd8 Ra1 Ke8 Rb1 Kd8 Ra1 Ke8 Rb1 Kd8 Ra1 Ke8"),
        ("r3k3/8/8/8/8/8/8/R3K3 b Qq - 4 30", "Rb8 Rb1 Ra8 Ra1 Rb8 Rb1 Ra8 Ra1 Rb8"),
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 40", "Rd2 Kf8 Rd1 Kg8 Rd2 Kf8 Rd1 Kg8"),
    ], 1):
        board0 = chess.Board(fen)
        out.append(export(board0, san_moves(board0, sans.split()), {
            "Event": "synthetic rook shuffle", "Site": "make_synthetic.py", "Round": str(i),
            "White": "rook-w", "Black": "rook-b"}))
    return out


# Each entry: (description, FEN or None, SAN moves, expect missed threefold?)
EP_GAMES = [
    # chess.md's two routes to one board, then back a third time.
    ("two routes from chess.md", None,
     "a4 h6 a5 h5 Nf3 e5 Ng1 Nc6 Nf3 Nb8 Ng1 Nc6 Nf3 Nb8", True),
    # No pawn beside the pushed pawn: 1.e4 then shuffles.
    ("no adjacent pawn after 1.e4", None,
     "e4 Nf6 Nf3 Ng8 Ng1 Nf6 Nf3 Ng8 Ng1", True),
    ("no adjacent pawn after 1.d4 d5", None,
     "d4 d5 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8", True),
    # Legal en passant: exd6 is possible right after ...d5, so the position
    # with the ep square is a different position under BOTH conventions.
    ("ep capture legal", None,
     "e4 Nf6 e5 d5 Nf3 Nc6 Ng1 Nb8 Nf3 Nc6 Ng1 Nb8 Nf3 Nc6 Ng1 Nb8", False),
    # Legal en passant taken.
    ("ep capture legal and played", None,
     "e4 a6 e5 d5 exd6 e.p. Nf6 Nf3 Ng8 Ng1 Nf6 Nf3 Ng8 Ng1", False),
    # Pinned pawn: exd6 would leave the e-file and expose the king on e1 to
    # the rook on e8.
    ("pinned pawn, file pin", "4r1k1/3p4/8/4P3/8/8/8/n3K1N1 b - - 0 1",
     "d5 Nf3 Nb3 Ng1 Na1 Nf3 Nb3 Ng1 Na1", True),
    # Pinned pawn on a diagonal: white pawn e5 pinned by the bishop on h8
    # against the king on a1; exd6 would leave the diagonal.
    ("pinned pawn, diagonal pin", "4k2b/3p4/8/4P3/8/8/8/K5N1 b - - 0 1",
     "d5 Nf3 Kf8 Ng1 Ke8 Nf3 Kf8 Ng1 Ke8", True),
    # Capturing would expose the king along the rank: king a5, pawns b5/c5,
    # rook h5 (the ep capture removes both pawns from the fifth rank).
    ("ep exposes king on the rank", "4k1n1/2p5/8/KP5r/8/8/8/6N1 b - - 0 1",
     "c5 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8", True),
    # ...d5 uncovers a check along the 7th rank (rook a7, king g7): exd6 does
    # not answer the check, so the ep capture is illegal (no repetition here).
    ("discovered check, ep cannot help", "4k3/r2p2K1/8/4P3/8/8/8/6N1 b - - 0 1",
     "d5 Kg6 Kd8 Kf5", None),
    # Black side: white double push with a black pawn beside that can take.
    ("black ep legal", "4k1n1/8/8/8/3p4/8/4P3/4K1N1 w - - 0 1",
     "e4 Nf6 Nf3 Ng8 Ng1 Nf6 Nf3 Ng8 Ng1", False),
    # Black side: black pawn beside but pinned on the rank (king h4, rook a4).
    ("black ep exposes king", "6n1/8/8/8/R2p3k/8/4P3/1N2K3 w - - 0 1",
     "e4 Nf6 Nc3 Ng8 Nb1 Nf6 Nc3 Ng8 Nb1", True),
    # Two pawns beside the pushed pawn, one pinned (e5, rook e8 vs king e1),
    # one free (c5): the ep capture stays legal, so no miss.
    ("two capturers, one pinned", "4r1k1/3p4/8/2P1P3/8/8/8/4K1N1 b - - 0 1",
     "d5 Nf3 Kh8 Ng1 Kg8 Nf3 Kh8 Ng1 Kg8", False),
]


def en_passant():
    out = []
    for i, (desc, fen, sans, missed) in enumerate(EP_GAMES, 1):
        board0 = chess.Board(fen) if fen else chess.Board()
        moves = san_moves(board0, [s for s in sans.split() if s != "e.p."])
        always, legal = keys_report(board0, moves)
        got = legal is not None and always is None
        if missed is not None:
            assert got == missed, (desc, always, legal)
        out.append(export(board0, moves, {
            "Event": f"synthetic en passant: {desc}", "Site": "make_synthetic.py",
            "Round": str(i), "White": "ep-w", "Black": "ep-b"}))
    return out


def missed_random(rng):
    """Random games forced into a missed threefold or its legal-ep twin.

    After a random opening, the side to move makes a double pawn push. If no
    enemy pawn can legally take en passant afterwards, two knight/king/rook
    shuffle cycles bring the board back twice without the ep square: a missed
    threefold. The assertion below checks each game with python-chess.
    """
    out = []
    attempts = 0
    made = {True: 0, False: 0}
    while (made[True] < 12 or made[False] < 4) and attempts < 5000:
        attempts += 1
        board = chess.Board()
        moves = random_moves(rng, board, rng.randint(1, 24), avoid_captures=True)
        if board.is_game_over():
            continue
        doubles = [m for m in board.legal_moves
                   if board.piece_type_at(m.from_square) == chess.PAWN
                   and abs(m.to_square - m.from_square) == 16]
        if not doubles:
            continue
        dp = rng.choice(doubles)
        board.push(dp)
        moves.append(dp)
        ep_legal = board.has_legal_en_passant()
        want = not ep_legal
        if made[want] >= (12 if want else 4):
            continue
        first = shuffle_pair(board, rng)
        cyc = None
        for a in first[:8]:
            b1 = board.copy(stack=False)
            b1.push(a)
            for b in shuffle_pair(b1, rng)[:8]:
                cyc = try_cycle(board, a, b, 2)
                if cyc:
                    break
            if cyc:
                break
        if not cyc:
            continue
        for m in cyc:
            board.push(m)
        moves += cyc
        moves += random_moves(rng, board, rng.randint(0, 6))
        always, legal = keys_report(chess.Board(), moves)
        missed = legal is not None and always is None
        if missed != want:
            continue
        made[want] += 1
        out.append(export(chess.Board(), moves, {
            "Event": "synthetic random double push + shuffles" + (" (missed threefold)" if want else " (ep legal)"),
            "Site": "make_synthetic.py", "Round": str(len(out) + 1),
            "White": "dp-w", "Black": "dp-b"}))
    return out


CASTLING_FENS = [
    # (variant tag or None, FEN, SAN moves)
    (None, "4k3/8/8/8/8/8/4P3/4K3 w KQkq - 0 1", "e4 Kd7 Kd2 Ke6"),
    (None, "4k3/8/8/8/8/8/4P3/4K3 w KQkq - 0 1", "Kd2 Kd7 Ke1 Ke8 Kd2 Kd7 Ke1 Ke8"),
    (None, "r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1", "O-O-O Rf8 Rh1 Rf7"),
    (None, "r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1", "O-O O-O"),
    (None, "r3k2r/8/8/8/8/8/8/R2K3R w KQkq - 0 1", "Kc2 O-O-O Rxh8 Rxh8"),
    (None, "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O"),
    (None, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqKQ - 0 1", None),
    (None, "1r2k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "O-O O-O-O Rbd8 Rhe1"),
    (None, "1r2k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "O-O-O"),
    (None, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "Ra2 Ra7 Ra1 Ra8 Ra2 Ra7 Ra1 Ra8 Ra2 Ra7 Ra1 Ra8"),
    (None, "4k3/8/8/8/8/8/8/4K3 b kq - 0 0", "Kd7 Kd2 Ke8 Ke1 Kd7 Kd2 Ke8 Ke1"),
    (None, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", "e4 e5 Nf3 Nf6 Bc4 Bc5 O-O O-O"),
    (None, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w GBgb - 0 1", "e4 e5"),
    ("Chess960", "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w HAha - 0 1", "e3 e6 O-O"),
    ("Chess960", "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1", "f4 f5 Nf2 Nf7 O-O O-O"),
    ("Chess960", "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1", "Ng3 Ng6 Nd3 Nd6 O-O O-O"),
    ("Chess960", "bqnbrk1n/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1", "Ng3 Ng6 O-O O-O"),
    ("chess 960", "rkrbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RKRBBNNQ w CAca - 0 1", "b3 b6 Nh3 Nh6"),
    ("Chess960", "rkrbbnnq/pppppppp/8/8/8/8/PPPPPPPP/RKRBBNNQ w HAha - 0 1", "b3 b6"),
    ("Fischerandom", "nrbbkrqn/pppppppp/8/8/8/8/PPPPPPPP/1RBBKRQN w FBfb - 0 1", "Ng3 Ng6"),
    ("Chess960", "1rbbkrqn/pppppppp/8/8/8/8/PPPPPPPP/NRBBKRQN b FBfb - 0 1", "Ng6 Ng3"),
    ("Chess960", "rk5r/8/8/8/8/8/8/R5KR w KQkq - 0 1", "Ra2 Rh7 Ra1 Rh8 Ra2 Rh7 Ra1 Rh8 Ra2 Rh7 Ra1 Rh8"),
    ("Chess960", "rk5r/8/8/8/8/8/8/R5KR w AHah - 0 1", "O-O-O O-O-O"),
    (None, "rk5r/8/8/8/8/8/8/R5KR w HAha - 0 1", "O-O O-O-O"),
    ("Chess960", "rk3r2/8/8/8/8/8/8/R5KR w HAha - 0 1", "Ra2 Kc7 Ra1 Kb8 Ra2 Kc7 Ra1 Kb8 Ra2 Kc7 Ra1 Kb8"),
]


def castling_fen():
    out = []
    for i, (variant, fen, sans) in enumerate(CASTLING_FENS, 1):
        is960 = variant is not None or any(c not in "KQkq-" for c in fen.split()[2])
        headers = {"Event": "synthetic castling field", "Site": "make_synthetic.py",
                   "Round": str(i), "White": "castle-w", "Black": "castle-b"}
        # Written by hand: the exporter would rewrite the FEN with cleaned rights.
        lines = [f'[{k} "{v}"]' for k, v in headers.items()]
        lines.append('[Result "*"]')
        if variant:
            lines.append(f'[Variant "{variant}"]')
        lines.append('[SetUp "1"]')
        lines.append(f'[FEN "{fen}"]')
        movetext = ""
        try:
            board = chess.Board(fen, chess960=is960)
        except ValueError:
            board = None
        if board is not None and sans:
            toks = []
            b = board.copy()
            for s in sans.split():
                if b.turn == chess.WHITE:
                    toks.append(f"{b.fullmove_number}. {s}")
                elif not toks:
                    toks.append(f"{b.fullmove_number}... {s}")
                else:
                    toks.append(s)
                try:
                    b.push_san(s)
                except ValueError:
                    break  # the rest is written but will not be replayed
            written = " ".join(toks)
            rest = sans.split()[len(toks):]
            movetext = " ".join([written] + rest)
        out.append("\n".join(lines) + "\n\n" + (movetext + " *").strip() + "\n\n")
    return out


def chess960(rng):
    out = []
    n = 0
    attempts = 0
    while n < 24 and attempts < 3000:
        attempts += 1
        pos = rng.randrange(960)
        board0 = chess.Board.from_chess960_pos(pos)
        board = board0.copy()
        moves = []
        castled = set()
        for _ in range(rng.randint(20, 70)):
            legal = list(board.legal_moves)
            if not legal:
                break
            castles = [m for m in legal if board.is_castling(m)]
            if castles and rng.random() < 0.9:
                m = rng.choice(castles)
                castled.add((board.turn, board.is_kingside_castling(m)))
            else:
                quiet = [m for m in legal if not board.is_capture(m)] or legal
                # favour developing moves so castling becomes possible
                m = rng.choice(quiet)
            board.push(m)
            moves.append(m)
            if board.is_game_over():
                break
        if len(castled) < 2:
            continue
        n += 1
        headers = {"Event": "synthetic chess960", "Site": "make_synthetic.py",
                   "Round": str(n), "White": f"960-w-{pos}", "Black": f"960-b-{pos}"}
        out.append(export(board0, moves, headers))
    # Position 518 (the standard array) with [Variant "Chess960"] and no FEN.
    board0 = chess.Board(chess960=True)
    moves = san_moves(board0, "e4 e5 Nf3 Nf6 Bc4 Bc5 O-O O-O Re1 Re8 Rf1 Rf8 Re1 Re8 Rf1 Rf8".split())
    game = export(board0, moves, {"Event": "synthetic chess960 start 518", "Site": "make_synthetic.py",
                                  "Round": "99", "White": "518-w", "Black": "518-b"})
    out.append(game)
    return out


ERRORS = r'''[Event "illegal move mid-game"]
[White "err-w"]
[Black "err-b"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Ke3 Nf6 *

[Event "ambiguous move"]
[White "err-w"]
[Black "err-b"]
[Result "*"]

1. Nf3 Nf6 2. Nc3 Nc6 3. d3 d6 4. Ne4 Ne5 5. Nd2 Nd7 6. Nf3 *

[Event "move leaves the king in check"]
[White "err-w"]
[Black "err-b"]
[Result "*"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7+ Kxf7 5. Bxg8 Ke8 *

[Event "not a move"]
[White "err-w"]
[Black "err-b"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 Sf6 4. O-O *

[Event "castling through check"]
[White "err-w"]
[Black "err-b"]
[Result "*"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1"]

1. O-O *

[Event "illegal move after repetition"]
[White "err-w"]
[Black "err-b"]
[Result "*"]

1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Ke2 Ke7 6. Kd8 *

[Event "rank covers 7 squares"]
[White "fen-w"]
[Black "fen-b"]
[Result "*"]
[SetUp "1"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1"]

1. e4 *

[Event "two white kings"]
[White "fen-w"]
[Black "fen-b"]
[Result "*"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/K3K3 w - - 0 1"]

1. Ka2 *

[Event "no black king"]
[White "fen-w"]
[Black "fen-b"]
[Result "*"]
[SetUp "1"]
[FEN "8/8/8/8/8/8/8/4K3 w - - 0 1"]

1. Ke2 *

[Event "bad side to move"]
[White "fen-w"]
[Black "fen-b"]
[Result "*"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/4K3 x - - 0 1"]

1. Ke2 *

[Event "bad piece letter"]
[White "fen-w"]
[Black "fen-b"]
[Result "*"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/4K2X w - - 0 1"]

1. Ke2 *

[Event "only three fields"]
[White "fen-w"]
[Black "fen-b"]
[Result "*"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/4K3 w -"]

1. Ke2 *

[Event "malformed castling field"]
[White "fen-w"]
[Black "fen-b"]
[Result "*"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/4K3 w XYZ - 0 1"]

1. Ke2 *

[Event "fields 5 and 6 missing"]
[White "fen-w"]
[Black "fen-b"]
[Result "*"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/4K3 w - -"]

1. Ke2 Ke7 *

'''


ODD = (
    # no move numbers, UCI-like and long algebraic moves
    '[Event "no move numbers"]\n[White "odd"]\n[Black "odd"]\n[Result "*"]\n\n'
    'e4 e5 Nf3 Nc6 Bb5 a6 *\n\n'
    '[Event "long algebraic"]\n[White "odd"]\n[Black "odd"]\n[Result "*"]\n\n'
    '1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. g1h1?? *\n\n'
    '[Event "uci"]\n[White "odd"]\n[Black "odd"]\n[Result "*"]\n\n'
    'g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 *\n\n'
    # comments spanning lines, nested variations, NAGs, annotations
    '[Event "comments and nested variations"]\n[White "odd"]\n[Black "odd"]\n[Result "1/2-1/2"]\n\n'
    '1. e4 {a comment\nover two lines ( with a paren } e5 $1 (1... c5 2. Nf3 (2. c3 {x} d5) d6) '
    '2. Nf3!? Nf6?! (2... Nc6 3. Bb5 (3. Bc4 Bc5) a6) 3. Ng1!! Ng8?? 4. Nf3 Nf6 5. Ng1 Ng8 '
    '; rest-of-line comment 6. e4\n1/2-1/2\n\n'
    # two games with no blank line between them
    '[Event "glued 1"]\n[White "odd"]\n[Black "odd"]\n[Result "1-0"]\n'
    '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'
    '[Event "glued 2"]\n[White "odd"]\n[Black "odd"]\n[Result "0-1"]\n'
    '1. f3 e5 2. g4 Qh4# 0-1\n'
    # tag and movetext on one line; several tags on one line
    '[Event "one line"] [White "odd"] [Black "odd"] [Result "*"] 1. d4 d5 2. c4 e6 *\n\n'
    # % escape line and a tagless game
    '% an escape line that must be ignored\n'
    '1. d4 Nf6 2. Nf3 Ng8 3. Ng1 Nf6 4. Nf3 Ng8 5. Ng1 *\n\n'
    # tagless game with ep-legal then shuffles; then blank line inside movetext
    '1. e4 d5 2. e5 f5 3. Nf3 Nc6\n\n4. Ng1 Nb8 5. Nf3 Nc6 6. Ng1 Nb8 *\n\n'
    # escaped quote in a tag, Black-to-move start written "1..."
    '[Event "escaped \\"quote\\" and backslash \\\\"]\n[White "O\'Kelly, \\"Alberic\\""]\n[Black "odd"]\n'
    '[Result "*"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1"]\n\n'
    '1. d4 exd3 e.p. 2. Kd2 Kd7 3. Kxd3 Kd6 *\n\n'
    # promotions with and without '=', null moves
    '[Event "promotions and null moves"]\n[White "odd"]\n[Black "odd"]\n[Result "*"]\n[SetUp "1"]\n'
    '[FEN "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1"]\n\n'
    '1. b8=Q+ Kd7 2. g8N g1=R+ 3. Kd2 -- 4. -- b1Q 5. Z0 Kc6 *\n\n'
)


CRLF = (
    '[Event "crlf 1"]\r\n[White "crlf"]\r\n[Black "crlf"]\r\n[Result "*"]\r\n\r\n'
    '1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\r\n\r\n'
    '[Event "crlf 2"]\r\n[White "crlf"]\r\n[Black "crlf"]\r\n[Result "*"]\r\n\r\n'
    '1. e4 Nf6 2. Nf3 Ng8 3. Ng1 Nf6\r\n4. Nf3 Ng8 5. Ng1 *\r\n'
)


def main():
    rng = random.Random(SEED)
    files = {
        "synthetic-repetitions.pgn": "".join(repetitions(rng)),
        "synthetic-en-passant.pgn": "".join(en_passant() + missed_random(rng)),
        "synthetic-castling-fen.pgn": "".join(castling_fen()),
        "synthetic-chess960.pgn": "".join(chess960(rng)),
        "synthetic-errors.pgn": ERRORS,
        "synthetic-odd-style.pgn": ODD,
    }
    for name, text in files.items():
        with open(os.path.join(OUT, name), "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
    with open(os.path.join(OUT, "synthetic-crlf.pgn"), "wb") as fh:
        fh.write(CRLF.encode("ascii"))
    for name in sorted(list(files) + ["synthetic-crlf.pgn"]):
        print(name, os.path.getsize(os.path.join(OUT, name)))


if __name__ == "__main__":
    main()
