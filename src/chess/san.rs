//! Standard algebraic notation: parsing with the tolerance of
//! `docs/chess.md` (section Movetext) and writing with minimal disambiguation.
//!
//! Parsing is on the hot path of every report, so it does not generate all
//! legal moves: it finds the pieces of the named role that attack (or, for
//! pawns, push to) the target square, and checks pins and check only for
//! those few candidates. Errors say why a token failed.

use super::attacks;
use super::bitboard::Bitboard;
use super::castling;
use super::moves::{Move, MoveKind};
use super::position::Position;
use super::square::Square;
use super::types::{Color, Role};

/// Why a move token could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    #[error("invalid SAN token {0:?}")]
    Invalid(String),
    #[error("no {role} can reach {to}", role = .role.name())]
    NoPiece { role: Role, to: Square },
    #[error("ambiguous: {count} {role}s can reach {to} ({list})", count = number(*.count), role = .role.name())]
    Ambiguous {
        count: usize,
        role: Role,
        to: Square,
        list: String,
    },
    #[error("{0} {LEAVES_CHECK}")]
    LeavesKingInCheck(String),
    #[error("illegal castling: {token}: {why}")]
    IllegalCastling { token: String, why: &'static str },
    #[error("{0}: {MISSING_PROMOTION}")]
    MissingPromotion(String),
    #[error("{0}: {BAD_PROMOTION}")]
    BadPromotion(String),
    #[error("illegal move {0}")]
    Illegal(String),
    /// `b8=K`: a promotion SAN's grammar allows (python-chess reads it and
    /// finds no such legal move), which no position does.
    #[error("{0}: {KING_PROMOTION}")]
    KingPromotion(String),
    /// `Pxd5`, `xd5`: a pawn capture without the file it comes from,
    /// which python-chess also refuses as no legal move.
    #[error("{0}: {CAPTURE_WITHOUT_FILE}")]
    PawnCaptureWithoutFile(String),
    /// A move with a full origin square (`g1h1`, `e2-e4`) whose square
    /// holds no piece of the side to move: a move, not a legal one.
    #[error("{token}: no {color} piece on {from}", color = .color.name())]
    NoPieceOn {
        token: String,
        color: Color,
        from: Square,
    },
    /// A move onto a square a piece of the side to move holds (`Ne2` from
    /// the start): said as such, not as no piece reaching it.
    #[error("{on} holds a {color} {role}", color = .color.name(), role = .role.name())]
    OwnPieceOn {
        on: Square,
        color: Color,
        role: Role,
    },
    /// A move onto the enemy king's square: possible only from a position
    /// that cannot arise in a game (a `[FEN]` that leaves the side not to
    /// move in check). python-chess plays such a capture; no rule of chess
    /// has one.
    #[error("{token}: {}", king_capture(*.color, *.on))]
    KingCapture {
        token: String,
        color: Color,
        on: Square,
    },
    /// A null move (`--`, `Z0`, `0000`, `@@@@`) given to
    /// [`Position::play_san`], which does not play it: what a pass means
    /// is the caller's to decide (the replay first looks whether the game
    /// was already over, docs/outcomes.md).
    #[error("a null move")]
    NullMove,
}

const LEAVES_CHECK: &str = "leaves the king in check";
const MISSING_PROMOTION: &str = "a pawn reaching the last rank must name its promotion piece";
const BAD_PROMOTION: &str = "only a pawn reaching the last rank can promote";
const KING_PROMOTION: &str = "a pawn cannot promote to a king";
const CAPTURE_WITHOUT_FILE: &str = "a pawn capture must name the file the pawn comes from";

impl SanError {
    /// Why, without the token, for a message that names the token already:
    /// a token that is no move at all (`foo`, `Nf9`, `P-K4`) is "not a move".
    /// Asked only when a game stops, so kept out of the replay loop.
    #[cold]
    #[inline(never)]
    pub fn reason(&self) -> std::borrow::Cow<'static, str> {
        match self {
            SanError::Invalid(_) => "not a move".into(),
            SanError::LeavesKingInCheck(_) => LEAVES_CHECK.into(),
            SanError::IllegalCastling { why, .. } => format!("illegal castling: {why}").into(),
            SanError::MissingPromotion(_) => MISSING_PROMOTION.into(),
            SanError::BadPromotion(_) => BAD_PROMOTION.into(),
            SanError::Illegal(_) => "illegal move".into(),
            SanError::KingPromotion(_) => KING_PROMOTION.into(),
            SanError::PawnCaptureWithoutFile(_) => CAPTURE_WITHOUT_FILE.into(),
            SanError::NoPieceOn { color, from, .. } => {
                format!("no {} piece on {from}", color.name()).into()
            }
            SanError::NullMove => "a null move".into(),
            SanError::KingCapture { color, on, .. } => king_capture(*color, *on).into(),
            SanError::NoPiece { .. } | SanError::Ambiguous { .. } | SanError::OwnPieceOn { .. } => {
                self.to_string().into()
            }
        }
    }
}

fn king_capture(color: Color, on: Square) -> String {
    format!(
        "the {} king on {on} cannot be captured: the position before the move cannot arise in a game",
        color.name()
    )
}

fn number(n: usize) -> String {
    match n {
        2 => "two".into(),
        3 => "three".into(),
        4 => "four".into(),
        n => n.to_string(),
    }
}

/// The parts of a SAN token after the tolerant grammar.
struct Parsed {
    role: Option<Role>,
    file: Option<u8>,
    rank: Option<u8>,
    to: Square,
    promo: Option<Role>,
}

/// Strips check marks, suffix annotations and an en-passant mark (`e.p.`,
/// `e.p`, `ep`, glued to the move, as pgn-extract reads them: python-chess's
/// PGN reader skips what follows `exd6` in `exd6ep` too) from the end. No
/// move ends in a `p` or a `.`, so nothing else is cut.
fn trim_suffixes(mut t: &[u8]) -> &[u8] {
    loop {
        match t {
            [rest @ .., b'+' | b'#' | b'!' | b'?'] => t = rest,
            [rest @ .., b'e', b'.', b'p', b'.'] => t = rest,
            [rest @ .., b'e', b'.', b'p'] | [rest @ .., b'e', b'p'] => t = rest,
            _ => return t,
        }
    }
}

/// `[NBRQKP]? [a-h]? [1-8]? [-x]? [a-h][1-8] (=?[NBRQnbrq])?`
fn parse_tokens(t: &[u8]) -> Option<Parsed> {
    let (mut body, promo) = match t {
        [rest @ .., b'=', p] => (rest, Some(promo_role(*p)?)),
        [rest @ .., f, r, p]
            if f.is_ascii_lowercase() && r.is_ascii_digit() && p.is_ascii_alphabetic() =>
        {
            (&t[..rest.len() + 2], Some(promo_role(*p)?))
        }
        _ => (t, None),
    };
    let n = body.len();
    if n < 2 {
        return None;
    }
    let to = Square::parse(&body[n - 2..])?;
    body = &body[..n - 2];
    if let [rest @ .., b'-' | b'x'] = body {
        body = rest;
    }
    let mut role = None;
    if let [c @ (b'N' | b'B' | b'R' | b'Q' | b'K' | b'P'), rest @ ..] = body {
        role = Role::from_char(*c);
        body = rest;
    }
    let mut file = None;
    if let [f @ b'a'..=b'h', rest @ ..] = body {
        file = Some(f - b'a');
        body = rest;
    }
    let mut rank = None;
    if let [r @ b'1'..=b'8', rest @ ..] = body {
        rank = Some(r - b'1');
        body = rest;
    }
    if !body.is_empty() {
        return None;
    }
    Some(Parsed {
        role,
        file,
        rank,
        to,
        promo,
    })
}

/// A move the one-pass reader resolved: a normal move (no castling, en
/// passant or promotion) with the roles make-move would otherwise look up.
struct PlainMove {
    from: Square,
    to: Square,
    role: Role,
    captured: Option<Role>,
}

/// The role each byte names as a SAN piece letter (`N`, `B`, `R`, `Q`,
/// `K`; not the pawn, which SAN does not name), `None` for every other
/// byte.
static PIECE_LETTER: [Option<Role>; 256] = {
    let mut t = [None; 256];
    t[b'N' as usize] = Some(Role::Knight);
    t[b'B' as usize] = Some(Role::Bishop);
    t[b'R' as usize] = Some(Role::Rook);
    t[b'Q' as usize] = Some(Role::Queen);
    t[b'K' as usize] = Some(Role::King);
    t
};

/// A piece letter of SAN: one load from [`PIECE_LETTER`]. A `match` on the
/// letter compiles to a jump table, whose indirect jump mispredicts
/// whenever the kind of piece that moves changes, most plies of a game.
#[inline]
fn piece_role(c: u8) -> Option<Role> {
    PIECE_LETTER[usize::from(c)]
}

/// The origin squares a disambiguating file letter or rank digit allows.
#[inline]
fn disambiguation(c: u8) -> Option<Bitboard> {
    match c {
        b'a'..=b'h' => Some(Bitboard::file(c - b'a')),
        b'1'..=b'8' => Some(Bitboard::rank(c - b'1')),
        _ => None,
    }
}

/// The shape of a plain SAN token (`e4`, `exd5`, `Nf3`, `Nxe5`, `Nbd7`,
/// `R1xe2`, with an optional `+` or `#`): the role, the origin squares its
/// letters allow, whether it captures, and the target. Read from the ends
/// (the target is always the last two bytes, a capture's `x` the one
/// before), so that the only branch a real game makes unpredictable is
/// pawn or piece; a dispatch on the token's length mispredicted more.
#[inline(always)]
fn plain_shape(token: &[u8]) -> Option<(Role, Bitboard, bool, Square)> {
    let t = match token {
        [rest @ .., b'+' | b'#'] => rest,
        t => t,
    };
    let n = t.len();
    let [.., to_file, to_rank] = *t else {
        return None;
    };
    let (to_file, to_rank) = (to_file.wrapping_sub(b'a'), to_rank.wrapping_sub(b'1'));
    if (to_file > 7) | (to_rank > 7) {
        return None;
    }
    let to = Square::from_coords(to_file, to_rank);
    let first = t.first().copied().unwrap_or(0);
    if first.wrapping_sub(b'a') < 8 {
        let capture = n == 4;
        if !(n == 2 || (capture && t.get(1) == Some(&b'x'))) {
            return None;
        }
        return Some((Role::Pawn, Bitboard::file(first - b'a'), capture, to));
    }
    let role = piece_role(first)?;
    let capture = t.get(n.wrapping_sub(3)) == Some(&b'x');
    let from_mask = match n - usize::from(capture) {
        3 => Bitboard::ALL,
        4 => disambiguation(t.get(1).copied().unwrap_or(0))?,
        _ => return None,
    };
    Some((role, from_mask, capture, to))
}

/// The piece a promotion names; the king too, as SAN's grammar (and
/// python-chess's) allows it, for the resolver to refuse as illegal.
fn promo_role(c: u8) -> Option<Role> {
    match c {
        b'N' | b'n' => Some(Role::Knight),
        b'B' | b'b' => Some(Role::Bishop),
        b'R' | b'r' => Some(Role::Rook),
        b'Q' | b'q' => Some(Role::Queen),
        b'K' | b'k' => Some(Role::King),
        _ => None,
    }
}

fn lossy(t: &[u8]) -> String {
    String::from_utf8_lossy(t).into_owned()
}

impl Position {
    /// Resolves a SAN (or long algebraic, or UCI-like) move token to a legal
    /// move. Accepts `O-O`/`0-0`, `O-O-O`/`0-0-0`, promotions with or without
    /// `=`, `e.p.`, check and annotation suffixes, over-specified origins,
    /// `e2e4`/`e2-e4`, and the null move `--` (also `Z0`, `0000`, `@@@@`).
    pub fn parse_san(&self, token: &[u8]) -> Result<Move, SanError> {
        if let Some(p) = self.parse_plain_san(token) {
            return Ok(Move::normal(p.from, p.to));
        }
        self.parse_general_san(token)
    }

    /// Resolves a SAN token like [`Position::parse_san`] and plays it. The
    /// usual plain move goes straight from the reader to a make-move that
    /// already knows the moving and the captured piece: the replay loop's
    /// hot path. A null move is not played but returned as
    /// [`SanError::NullMove`]: the replay handles it out of its loop (it
    /// must look at the position before passing), so the loop asks nothing
    /// of the moves it plays.
    #[inline(always)]
    pub fn play_san(&mut self, token: &[u8]) -> Result<Move, SanError> {
        if let Some(p) = self.parse_plain_san(token) {
            self.play_normal(p.from, p.to, p.role, p.captured);
            return Ok(Move::normal(p.from, p.to));
        }
        let m = self.parse_general_san(token)?;
        if m.is_null() {
            return Err(SanError::NullMove);
        }
        self.play(m);
        Ok(m)
    }

    /// Every form [`Position::parse_san`] accepts, with its errors.
    fn parse_general_san(&self, token: &[u8]) -> Result<Move, SanError> {
        let t = trim_suffixes(token);
        match t {
            b"--" | b"Z0" | b"0000" | b"@@@@" => return Ok(Move::null()),
            b"O-O" | b"0-0" => return self.parse_castling(token, true),
            b"O-O-O" | b"0-0-0" => return self.parse_castling(token, false),
            _ => {}
        }
        let p = parse_tokens(t).ok_or_else(|| SanError::Invalid(lossy(token)))?;
        if p.promo == Some(Role::King) {
            return Err(SanError::KingPromotion(lossy(token)));
        }
        if matches!(p.role, None | Some(Role::Pawn)) && p.file.is_none() && t.contains(&b'x') {
            return Err(SanError::PawnCaptureWithoutFile(lossy(token)));
        }
        let from_mask = p.file.map_or(Bitboard::ALL, Bitboard::file)
            & p.rank.map_or(Bitboard::ALL, Bitboard::rank);
        let role = match (p.role, p.file, p.rank) {
            (Some(r), _, _) => r,
            (None, Some(f), Some(r)) => {
                // Fully specified origin: any piece, including castling.
                let from = Square::from_coords(f, r);
                if let Some(m) = self.find_move(from, p.to, p.promo) {
                    return Ok(m);
                }
                match self.board.piece_at(from) {
                    Some(piece) if piece.color == self.turn => piece.role,
                    _ => {
                        return Err(SanError::NoPieceOn {
                            token: lossy(token),
                            color: self.turn,
                            from,
                        });
                    }
                }
            }
            (None, _, _) => Role::Pawn,
        };
        let mut from_mask = from_mask;
        if role == Role::Pawn && p.file.is_none() {
            // A pawn capture must name its file; without one it is a push.
            from_mask &= Bitboard::file(p.to.file());
        }
        self.resolve(token, role, from_mask, p.to, p.promo)
    }

    /// The forms that make up nearly every move of a real game, read front
    /// to back in one pass: `e4`, `exd5`, `Nf3`, `Nxe5`, `Nbd7`, `R1e2`, with
    /// an optional `+` or `#`. Returns a move only when exactly one legal move
    /// fits; anything else (castling, promotion, en passant, an ambiguous or
    /// illegal move, other spellings) goes to the general parser, which also
    /// explains failures.
    #[inline(always)]
    fn parse_plain_san(&self, token: &[u8]) -> Option<PlainMove> {
        let (role, from_mask, capture, to) = plain_shape(token)?;
        let us = self.turn;
        let b = &self.board;
        let target = b.piece_at(to);
        match target {
            None if capture => return None,
            Some(p) if p.color == us || p.role == Role::King || !capture => return None,
            _ => {}
        }
        let ours = b.by_piece(us, role) & from_mask;
        let candidates = if role == Role::Pawn {
            let last_rank = if us == Color::White { 7 } else { 0 };
            if to.rank() == last_rank {
                return None;
            }
            if capture {
                attacks::pawn_attacks(!us, to) & ours
            } else {
                let step: i32 = if us == Color::White { -8 } else { 8 };
                let one = Square::new((to.index() as i32 + step) as u32)?;
                if ours.contains(one) {
                    Bitboard::from_square(one)
                } else {
                    let double_rank = if us == Color::White { 3 } else { 4 };
                    if to.rank() != double_rank || b.occupied().contains(one) {
                        return None;
                    }
                    let two = Square::new((one.index() as i32 + step) as u32)?;
                    ours & two
                }
            }
        } else {
            // No branch on the role, nor on the line each piece shares
            // with the target: both changed at random from ply to ply.
            attacks::pieces_reaching(role, to, ours, b.occupied())
        };
        let king = self.our_king();
        let captured = target.map(|p| p.role);
        if !candidates.more_than_one() {
            // The usual case: one piece of that role reaches the square.
            let from = candidates.first()?;
            return self
                .keeps_king_safe(role, king, from, to, None)
                .then_some(PlainMove {
                    from,
                    to,
                    role,
                    captured,
                });
        }
        let mut found = None;
        for from in candidates {
            if self.keeps_king_safe(role, king, from, to, None) {
                if found.is_some() {
                    return None;
                }
                found = Some(from);
            }
        }
        found.map(|from| PlainMove {
            from,
            to,
            role,
            captured,
        })
    }

    fn resolve(
        &self,
        token: &[u8],
        role: Role,
        from_mask: Bitboard,
        to: Square,
        promo: Option<Role>,
    ) -> Result<Move, SanError> {
        let us = self.turn;
        let b = &self.board;
        let occ = b.occupied();
        let ours = b.by_piece(us, role) & from_mask;
        let theirs = b.by_color(!us);
        let last_rank = match us {
            Color::White => 7,
            Color::Black => 0,
        };
        let no_piece = SanError::NoPiece { role, to };
        if let Some(own) = b.piece_at(to).filter(|p| p.color == us) {
            return Err(SanError::OwnPieceOn {
                on: to,
                color: us,
                role: own.role,
            });
        }
        if b.by_piece(!us, Role::King).contains(to) {
            return Err(SanError::KingCapture {
                token: lossy(token),
                color: !us,
                on: to,
            });
        }
        let mut ep = false;
        let candidates = match role {
            Role::Pawn => {
                if theirs.contains(to) {
                    attacks::pawn_attacks(!us, to) & ours
                } else if self.ep == Some(to) {
                    ep = true;
                    attacks::pawn_attacks(!us, to) & ours
                } else {
                    let back = |sq: Square| match us {
                        Color::White => Square::new((sq.index() as u32).wrapping_sub(8)),
                        Color::Black => Square::new(sq.index() as u32 + 8),
                    };
                    let double_rank = match us {
                        Color::White => 3,
                        Color::Black => 4,
                    };
                    match back(to) {
                        Some(one) if ours.contains(one) => Bitboard::from_square(one),
                        Some(one) if !occ.contains(one) && to.rank() == double_rank => {
                            back(one).map_or(Bitboard::EMPTY, |two| ours & two)
                        }
                        _ => Bitboard::EMPTY,
                    }
                }
            }
            _ => attacks::attacks(role, !us, to, occ) & ours,
        };
        if candidates.is_empty() {
            return Err(no_piece);
        }
        if role == Role::Pawn && to.rank() == last_rank {
            if promo.is_none() {
                return Err(SanError::MissingPromotion(lossy(token)));
            }
        } else if promo.is_some() {
            return Err(SanError::BadPromotion(lossy(token)));
        }
        let king = self.our_king();
        let victim = if ep { Some(self.ep_victim(to)) } else { None };
        let mut legal = Bitboard::EMPTY;
        for from in candidates {
            if self.keeps_king_safe(role, king, from, to, victim) {
                legal |= from;
            }
        }
        let make = |from: Square| {
            if ep {
                Move::en_passant(from, to)
            } else if let Some(r) = promo {
                Move::promotion(from, to, r)
            } else {
                Move::normal(from, to)
            }
        };
        match legal.first() {
            None => Err(SanError::LeavesKingInCheck(lossy(token))),
            Some(from) if !legal.more_than_one() => Ok(make(from)),
            Some(_) => {
                let list: Vec<String> = legal.map(|f| self.san(make(f))).collect();
                Err(SanError::Ambiguous {
                    count: list.len(),
                    role,
                    to,
                    list: list.join(", "),
                })
            }
        }
    }

    /// Whether moving our `role` from `from` to `to` leaves our king (on
    /// `king`) safe: one attack test on the king's square with the move
    /// made. Out of check a pin test would do, but knowing that we are out
    /// of check takes a check test after every move, which costs more
    /// (`Position::checkers`).
    #[inline(always)]
    fn keeps_king_safe(
        &self,
        role: Role,
        king: Square,
        from: Square,
        to: Square,
        victim: Option<Square>,
    ) -> bool {
        if role == Role::King {
            return !self.king_attacked_after(to, from, to, None);
        }
        !self.king_attacked_after(king, from, to, victim)
    }

    fn parse_castling(&self, token: &[u8], h_side: bool) -> Result<Move, SanError> {
        let us = self.turn;
        let king = self.our_king();
        let back = Bitboard::rank(us.back_rank());
        let rights = self.castling & back & self.board.by_piece(us, Role::Rook);
        let rook = if h_side {
            rights.last().filter(|r| r.file() > king.file())
        } else {
            rights.first().filter(|r| r.file() < king.file())
        };
        let fail = |why: &'static str| SanError::IllegalCastling {
            token: lossy(token),
            why,
        };
        let Some(rook) = rook else {
            return Err(fail("no castling right on that side"));
        };
        if self.is_check() {
            return Err(fail("the king is in check"));
        }
        if !self.castling_allowed(king, rook) {
            let (kto, rto) = castling::destinations(king, rook);
            let both = Bitboard::from_square(king) | rook;
            let path =
                (attacks::between(king, kto) | kto | attacks::between(rook, rto) | rto) & !both;
            if (self.board.occupied() & path).nonempty() {
                return Err(fail("pieces stand between king and rook"));
            }
            return Err(fail("the king would cross or land on an attacked square"));
        }
        Ok(Move::castle(king, rook))
    }

    /// The SAN of a legal move, with minimal disambiguation and `+`/`#`;
    /// a null move is `--` whatever it leaves (python-chess writes no
    /// suffix after a pass, which gives no check of its own).
    pub fn san(&self, m: Move) -> String {
        if m.is_null() {
            return "--".to_string();
        }
        let mut out = self.san_plain(m);
        let mut after = *self;
        after.play(m);
        if after.is_check() {
            out.push(if after.legal_moves().is_empty() {
                '#'
            } else {
                '+'
            });
        }
        out
    }

    /// SAN without the check suffix.
    fn san_plain(&self, m: Move) -> String {
        let mut out = String::with_capacity(8);
        let from = m.from();
        let to = m.to();
        match m.kind() {
            MoveKind::Null => return "--".to_string(),
            MoveKind::Castle => {
                return if to.file() > from.file() {
                    "O-O"
                } else {
                    "O-O-O"
                }
                .to_string();
            }
            _ => {}
        }
        let Some(role) = self.board.role_at(from) else {
            return "--".to_string();
        };
        let capture = m.kind() == MoveKind::EnPassant || self.board.occupied().contains(to);
        if role == Role::Pawn {
            if capture {
                out.push(from.file_char());
                out.push('x');
            }
        } else {
            out.push(role.upper_char());
            let mut others = Bitboard::EMPTY;
            for o in self.legal_moves().iter() {
                if o.to() == to
                    && o.from() != from
                    && !o.is_castle()
                    && self.board.by_role(role).contains(o.from())
                {
                    others |= o.from();
                }
            }
            if others.nonempty() {
                let same_rank = (others & Bitboard::rank(from.rank())).nonempty();
                let same_file = (others & Bitboard::file(from.file())).nonempty();
                if same_rank || !same_file {
                    out.push(from.file_char());
                }
                if same_file {
                    out.push(from.rank_char());
                }
            }
            if capture {
                out.push('x');
            }
        }
        out.push_str(&to.to_string());
        if let Some(r) = m.promotion_role() {
            out.push('=');
            out.push(r.upper_char());
        }
        out
    }
}
