//! Piece placement: which piece stands where, as one bitboard per role and
//! one per colour (field 1 of a FEN).

use super::bitboard::Bitboard;
use super::square::Square;
use super::types::{Color, Piece, Role};

/// Piece placement. Invariants kept by every method: the role sets are
/// disjoint, the colour sets are disjoint, their unions are equal, and the
/// mailbox names the piece of every occupied square.
///
/// The bitboards answer "where are the knights"; the mailbox answers "what
/// stands on e4" with one load, which making a move asks twice (origin and
/// target) and which would otherwise be a search over six bitboards.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    /// Per square: 0 when empty, else [`Board::code`] of its piece.
    mailbox: [u8; 64],
}

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

/// The piece of each mailbox code (index 0: empty). Every byte value has
/// an entry (none past 12, which no square holds), so that the lookup,
/// made for both squares of every move, needs neither a bounds check nor
/// a clamp of the code.
static PIECE_OF_CODE: [Option<Piece>; 256] = {
    let mut t = [None; 256];
    let mut i = 0;
    while i < 12 {
        let color = if i < 6 { Color::White } else { Color::Black };
        t[i + 1] = Some(Piece {
            color,
            role: Role::ALL[i % 6],
        });
        i += 1;
    }
    t
};

impl Board {
    /// The empty board.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [0; 64],
        }
    }

    /// The standard starting placement.
    pub fn startpos() -> Board {
        let mut b = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (file, role) in back.into_iter().enumerate() {
            let f = file as u8;
            b.put(
                Square::from_coords(f, 0),
                Piece {
                    color: Color::White,
                    role,
                },
            );
            b.put(
                Square::from_coords(f, 1),
                Piece {
                    color: Color::White,
                    role: Role::Pawn,
                },
            );
            b.put(
                Square::from_coords(f, 6),
                Piece {
                    color: Color::Black,
                    role: Role::Pawn,
                },
            );
            b.put(
                Square::from_coords(f, 7),
                Piece {
                    color: Color::Black,
                    role,
                },
            );
        }
        b
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    #[inline]
    pub fn by_piece(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// Rooks and queens.
    #[inline]
    pub fn rooks_queens(&self) -> Bitboard {
        self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()]
    }

    /// Bishops and queens.
    #[inline]
    pub fn bishops_queens(&self) -> Bitboard {
        self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()]
    }

    /// The king of `color`, if there is one (the lowest, if several).
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        self.by_piece(color, Role::King).first()
    }

    /// The mailbox code of `piece`: 1 + colour * 6 + role.
    #[inline]
    const fn code(piece: Piece) -> u8 {
        1 + piece.color.index() as u8 * 6 + piece.role.index() as u8
    }

    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.piece_at(sq).map(|p| p.role)
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let code = self.mailbox[sq.index() & 63];
        PIECE_OF_CODE[usize::from(code)]
    }

    /// Puts `piece` on an empty square (use `Board::remove_known` first otherwise).
    #[inline]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role.index()] |= sq;
        self.by_color[piece.color.index()] |= sq;
        self.mailbox[sq.index() & 63] = Self::code(piece);
    }

    /// Removes a piece known to be `piece` from `sq` (no lookup).
    #[inline]
    pub(crate) fn remove_known(&mut self, sq: Square, piece: Piece) {
        let mask = !Bitboard::from_square(sq);
        self.by_role[piece.role.index()] &= mask;
        self.by_color[piece.color.index()] &= mask;
        self.mailbox[sq.index() & 63] = 0;
    }

    /// Moves `piece` from `from` to the empty square `to`: one update of
    /// each of its two bitboards instead of a removal and a put, which
    /// shortens make-move's chain of dependent memory updates.
    #[inline]
    pub(crate) fn move_piece(&mut self, from: Square, to: Square, piece: Piece) {
        let both = Bitboard::from_square(from) | to;
        self.by_role[piece.role.index()] ^= both;
        self.by_color[piece.color.index()] ^= both;
        self.mailbox[from.index() & 63] = 0;
        self.mailbox[to.index() & 63] = Self::code(piece);
    }

    /// FEN field 1. Each rank's pieces are visited from its occupancy bits,
    /// the empty runs between them counted from their files: a branch per
    /// piece, not one per square, which mispredicted on every other square
    /// (a report writes a FEN per game).
    pub fn placement(&self) -> String {
        /// The FEN letter of each mailbox code (0 is an empty square).
        const LETTER: [u8; 13] = *b".PNBRQKpnbrqk";
        /// For each occupancy of a rank (bit `f`: a piece on file `f`), the
        /// rank's text with its empty runs as digits and a zero byte where
        /// each piece goes (as a little-endian word), the text's length,
        /// and the bit shift of the byte of each file's piece in that
        /// word: a rank is one word with a letter or-ed in per piece and
        /// one 8-byte store, with no branch on the board's shape.
        struct RankText {
            text: [u64; 256],
            len: [u8; 256],
            shift: [[u8; 8]; 256],
        }
        const RANKS: RankText = {
            let mut t = RankText {
                text: [0; 256],
                len: [0; 256],
                shift: [[0; 8]; 256],
            };
            let mut o = 0;
            while o < 256 {
                let (mut n, mut run, mut file) = (0, 0, 0);
                while file < 8 {
                    if o >> file & 1 == 0 {
                        run += 1;
                    } else {
                        if run > 0 {
                            t.text[o] |= ((b'0' + run) as u64) << (8 * n);
                            n += 1;
                            run = 0;
                        }
                        t.shift[o][file] = 8 * n as u8;
                        n += 1;
                    }
                    file += 1;
                }
                if run > 0 {
                    t.text[o] |= ((b'0' + run) as u64) << (8 * n);
                    n += 1;
                }
                t.len[o] = n as u8;
                o += 1;
            }
            t
        };
        // Eight ranks of at most 8 bytes and 7 slashes: 71 bytes; each
        // rank's copy writes 8 bytes from its start (the rest is written
        // over by the next rank or cut off).
        let mut text = [0u8; 80];
        let mut n = 0usize;
        let occupied = self.occupied().0;
        for rank in (0..8u32).rev() {
            let o = ((occupied >> (8 * rank)) & 0xff) as usize;
            let (mut word, shift) = (RANKS.text[o & 255], &RANKS.shift[o & 255]);
            let mut pieces = o;
            while pieces != 0 {
                let file = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                let code = self.mailbox[(8 * rank as usize + file) & 63];
                let letter = LETTER.get(usize::from(code)).copied().unwrap_or(b'?');
                word |= u64::from(letter) << (shift[file & 7] & 63);
            }
            if let Some(dst) = text.get_mut(n..n + 8) {
                dst.copy_from_slice(&word.to_le_bytes());
            }
            n += usize::from(RANKS.len[o & 255]);
            if rank > 0 {
                if let Some(b) = text.get_mut(n) {
                    *b = b'/';
                }
                n += 1;
            }
        }
        let placement = text.get(..n).unwrap_or_default();
        let mut out = String::with_capacity(n + 24);
        // Only ASCII letters, digits and slashes were written.
        out.push_str(std::str::from_utf8(placement).unwrap_or_default());
        out
    }
}
