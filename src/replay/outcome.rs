//! What the board says about a game's end (docs/outcomes.md): the final
//! position's state, which sides can still mate, when the draw rules of
//! the FIDE Laws first applied, and whether the recorded result
//! contradicts the board. Kept apart from the rest of [`GameRecord`] so
//! that the xiangqi replay can fill the variant-neutral part
//! (`termination`, `board_result`, `result_conflict`) by its own rules.
//!
//! [`GameRecord`]: super::GameRecord

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
    Checkmate,
    InsufficientMaterial,
    Stalemate,
    SeventyfiveMoves,
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
    Both,
    White,
    Black,
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

/// The outcome columns of one game. All empty (`None`) for a game that was
/// not replayed, and for now for xiangqi games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    pub termination: Option<Termination>,
    /// `1-0`, `0-1` or `1/2-1/2` when the board decides the game, else
    /// empty.
    pub board_result: &'static str,
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
}

/// The four results a Result tag or a movetext result token can hold.
fn is_result(text: &str) -> bool {
    matches!(text, "1-0" | "0-1" | "1/2-1/2" | "*")
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
    let tag = is_result(tag).then_some(tag);
    if let (Some(t), Some(m)) = (tag, movetext)
        && t != m
    {
        clauses.push(format!("Result tag {t} but movetext result {m}"));
    }
    let token = movetext.filter(|m| Some(*m) != tag);
    for (source, recorded) in [("Result", tag), ("movetext result", token)] {
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
}
