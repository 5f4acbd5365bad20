//! What the board says about a game's end (docs/outcomes.md): the final
//! position's state, which sides can still mate, when the draw rules of
//! the FIDE Laws first applied, and whether the recorded result
//! contradicts the board. Kept apart from the rest of [`ReplayedGame`] so
//! that the xiangqi replay can fill the variant-neutral part
//! (`termination`, `board_result`, `result_conflict`) by its own rules.
//!
//! [`ReplayedGame`]: super::ReplayedGame

use crate::pgn::lines;

/// The state of the final position, in python-chess's `outcome()` order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// Neither side can mate by python-chess's material rule (a stalemate
    /// with such material is reported as this).
    InsufficientMaterial,
    /// No legal move, not in check.
    Stalemate,
    /// The game can go on.
    None,
}

impl Termination {
    /// The word of the `termination` column.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::Stalemate => "stalemate",
            Termination::None => "none",
        }
    }
}

/// Why the Laws ended the game without a claim, in python-chess's
/// `outcome()` order (the first that applies at a ply wins).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum GameOver {
    /// The side to move is mated.
    Checkmate,
    /// Neither side can mate (python-chess's material rule).
    InsufficientMaterial,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// 75 moves of each side without a capture or pawn move (FIDE 9.6.2).
    SeventyfiveMoves,
    /// The same position for the fifth time (FIDE 9.6.1).
    FivefoldRepetition,
}

impl GameOver {
    /// The word of the `game_over` column.
    pub fn as_str(self) -> &'static str {
        match self {
            GameOver::Checkmate => "checkmate",
            GameOver::InsufficientMaterial => "insufficient_material",
            GameOver::Stalemate => "stalemate",
            GameOver::SeventyfiveMoves => "seventyfive_moves",
            GameOver::FivefoldRepetition => "fivefold_repetition",
        }
    }
}

/// Which sides still have mating material at the end.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MatingMaterial {
    /// Either side could still mate.
    Both,
    /// Only white (red) could.
    White,
    /// Only black could.
    Black,
    /// Neither could: a draw by insufficient material.
    None,
}

impl MatingMaterial {
    /// From whether each side can mate.
    pub fn of(white: bool, black: bool) -> Self {
        match (white, black) {
            (true, true) => MatingMaterial::Both,
            (true, false) => MatingMaterial::White,
            (false, true) => MatingMaterial::Black,
            (false, false) => MatingMaterial::None,
        }
    }

    /// The word of the `mating_material` column.
    pub fn as_str(self) -> &'static str {
        match self {
            MatingMaterial::Both => "both",
            MatingMaterial::White => "white",
            MatingMaterial::Black => "black",
            MatingMaterial::None => "none",
        }
    }
}

/// Which side gave check on every one of its moves of the cycle up to the
/// first threefold repetition (xiangqi's `perpetual_check` column,
/// docs/xiangqi-rules.md section 7).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PerpetualCheck {
    Red,
    Black,
    Both,
}

impl PerpetualCheck {
    /// From whether each side checked on every move of the span.
    pub fn of(red: bool, black: bool) -> Option<Self> {
        match (red, black) {
            (true, true) => Some(PerpetualCheck::Both),
            (true, false) => Some(PerpetualCheck::Red),
            (false, true) => Some(PerpetualCheck::Black),
            (false, false) => None,
        }
    }

    /// The word of the `perpetual_check` column.
    pub fn as_str(self) -> &'static str {
        match self {
            PerpetualCheck::Red => "red",
            PerpetualCheck::Black => "black",
            PerpetualCheck::Both => "both",
        }
    }
}

/// The outcome columns of one game (docs/outcomes.md). All empty (`None`)
/// for a game that was not replayed at all (status `bad_fen`,
/// `unsupported`, `damaged_input`); a game whose replay stopped, or that
/// had no move, has those of the position its replay reached. Chess games
/// leave the xiangqi columns (`perpetual_check`, `natural_limit_ply`)
/// empty; xiangqi games leave the chess-only ones empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The state of the final position: `Some(Termination::None)` when
    /// the game could go on there, `None` when nothing was replayed.
    pub termination: Option<Termination>,
    /// `1-0`, `0-1` or `1/2-1/2` when the board decides the game, else
    /// empty.
    pub board_result: &'static str,
    /// Which sides could still mate in the final position.
    pub mating_material: Option<MatingMaterial>,
    /// First ply at which some key occurred the fifth time, ep-if-legal
    /// (FIDE 9.6.1, python-chess `is_fivefold_repetition()`).
    pub fivefold_ply: Option<u32>,
    /// The same under ep-always.
    pub fivefold_ply_ep_always: Option<u32>,
    /// First ply at which python-chess's `can_claim_threefold_repetition()`
    /// holds.
    pub threefold_claim_ply: Option<u32>,
    /// First ply of `is_fifty_moves()` (clock >= 100, a legal move left).
    pub fifty_move_ply: Option<u32>,
    /// First ply of `can_claim_fifty_moves()`.
    pub fifty_move_claim_ply: Option<u32>,
    /// First ply of `is_seventyfive_moves()`.
    pub seventyfive_move_ply: Option<u32>,
    /// The first ply at which the Laws ended the game without a claim,
    /// and why.
    pub game_over: Option<(u32, GameOver)>,
    /// Empty when the recorded results agree with the board; otherwise the
    /// clauses of docs/outcomes.md joined by `"; "`.
    pub result_conflict: String,
    /// Xiangqi: the side that checked throughout the first threefold's
    /// cycle.
    pub perpetual_check: Option<PerpetualCheck>,
    /// Xiangqi: the first ply with 120 plies in a row without a capture.
    pub natural_limit_ply: Option<u32>,
}

/// The results a game records, each with the word its clauses name it
/// by: the Result tag if it is one of the four results, then the movetext
/// result token if there is one and it differs from the tag. The first
/// clause of every `result_conflict`, the tag against the token, goes to
/// `clauses`.
#[inline]
fn recorded_results<'a>(
    tag: &'a str,
    movetext: Option<&'a str>,
    clauses: &mut Vec<String>,
) -> [(&'static str, Option<&'a str>); 2] {
    let tag = lines::is_result(tag.as_bytes()).then_some(tag);
    if let (Some(t), Some(m)) = (tag, movetext)
        && t != m
    {
        clauses.push(format!("Result tag {t} but movetext result {m}"));
    }
    let token = movetext.filter(|m| Some(*m) != tag);
    [("Result", tag), ("movetext result", token)]
}

/// The `result_conflict` column (docs/outcomes.md, section 4): the Result
/// tag `tag` (as written) and the movetext result token `movetext` (if the
/// movetext has one) against the final position's `termination`;
/// `board_result` is what the board says (for a checkmate, the winner's
/// score) and `mated` names the side that is checkmated.
pub fn result_conflict(
    tag: &str,
    movetext: Option<&str>,
    termination: Termination,
    board_result: &str,
    mated: &str,
) -> String {
    let mut clauses: Vec<String> = Vec::new();
    for (source, recorded) in recorded_results(tag, movetext, &mut clauses) {
        let Some(r) = recorded else { continue };
        if r == board_result {
            continue;
        }
        match termination {
            Termination::Checkmate => {
                clauses.push(format!("{source} {r} but {mated} is checkmated"));
            }
            Termination::Stalemate => {
                clauses.push(format!("{source} {r} but the final position is stalemate"));
            }
            Termination::InsufficientMaterial => clauses.push(format!(
                "{source} {r} but the final position has insufficient material"
            )),
            Termination::None => {}
        }
    }
    clauses.join("; ")
}

/// The `result_conflict` column of a xiangqi game (docs/xiangqi-rules.md,
/// section 7): the clauses of [`result_conflict`] in the same order, with
/// the xiangqi wording (stalemate loses, like checkmate), then for each
/// recorded result the perpetual-check clause. `to_move` is the side to
/// move in the final position (`Red` or `Black`): on checkmate or
/// stalemate it is the loser, and `board_result` is the winner's score.
pub fn xiangqi_result_conflict(
    tag: &str,
    movetext: Option<&str>,
    termination: Termination,
    board_result: &str,
    to_move: &str,
    perpetual: Option<PerpetualCheck>,
) -> String {
    let mut clauses: Vec<String> = Vec::new();
    for (source, recorded) in recorded_results(tag, movetext, &mut clauses) {
        let Some(r) = recorded else { continue };
        if r != board_result {
            match termination {
                Termination::Checkmate => {
                    clauses.push(format!("{source} {r} but {to_move} is checkmated"));
                }
                Termination::Stalemate => clauses.push(format!(
                    "{source} {r} but {to_move} is stalemated (a loss in xiangqi)"
                )),
                Termination::InsufficientMaterial | Termination::None => {}
            }
        }
        match (perpetual, r) {
            (Some(PerpetualCheck::Red), "1-0") => {
                clauses.push(format!("{source} {r} but Red gave perpetual check"));
            }
            (Some(PerpetualCheck::Black), "0-1") => {
                clauses.push(format!("{source} {r} but Black gave perpetual check"));
            }
            _ => {}
        }
    }
    clauses.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The examples of docs/outcomes.md, section 4, word for word.
    #[test]
    fn wording_and_clause_order_follow_the_spec() {
        let mate = Termination::Checkmate;
        assert_eq!(
            result_conflict("*", None, mate, "0-1", "White"),
            "Result * but White is checkmated"
        );
        assert_eq!(
            result_conflict(
                "1-0",
                Some("1-0"),
                Termination::InsufficientMaterial,
                "1/2-1/2",
                ""
            ),
            "Result 1-0 but the final position has insufficient material"
        );
        assert_eq!(
            result_conflict("1-0", Some("*"), mate, "1-0", "Black"),
            "Result tag 1-0 but movetext result *; movetext result * but Black is checkmated"
        );
        assert_eq!(
            result_conflict("1-0", None, Termination::Stalemate, "1/2-1/2", ""),
            "Result 1-0 but the final position is stalemate"
        );
        // Disagreeing results on an open board: only the first clause.
        assert_eq!(
            result_conflict("1-0", Some("0-1"), Termination::None, "", ""),
            "Result tag 1-0 but movetext result 0-1"
        );
        // A tag that is no result is left out; the token still counts.
        assert_eq!(
            result_conflict("?", Some("1-0"), mate, "0-1", "White"),
            "movetext result 1-0 but White is checkmated"
        );
        assert_eq!(result_conflict("", None, mate, "0-1", "White"), "");
        assert_eq!(
            result_conflict("0-1", Some("0-1"), mate, "0-1", "White"),
            ""
        );
    }

    /// docs/xiangqi-rules.md section 7: stalemate loses, and a perpetual
    /// checker recorded as the winner is a conflict; a draw or `*` never is.
    #[test]
    fn xiangqi_wording_and_clause_order() {
        let stale = Termination::Stalemate;
        let none = Termination::None;
        let red = Some(PerpetualCheck::Red);
        assert_eq!(
            xiangqi_result_conflict("1/2-1/2", None, stale, "1-0", "Black", None),
            "Result 1/2-1/2 but Black is stalemated (a loss in xiangqi)"
        );
        assert_eq!(
            xiangqi_result_conflict(
                "1-0",
                Some("*"),
                Termination::Checkmate,
                "1-0",
                "Black",
                red
            ),
            "Result tag 1-0 but movetext result *; Result 1-0 but Red gave perpetual check; \
             movetext result * but Black is checkmated"
        );
        assert_eq!(
            xiangqi_result_conflict("1-0", None, none, "", "Red", red),
            "Result 1-0 but Red gave perpetual check"
        );
        for r in ["0-1", "1/2-1/2", "*", ""] {
            assert_eq!(xiangqi_result_conflict(r, None, none, "", "Red", red), "");
        }
        assert_eq!(
            xiangqi_result_conflict("1-0", None, none, "", "Red", Some(PerpetualCheck::Both)),
            ""
        );
    }
}
