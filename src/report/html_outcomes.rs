//! report.html's outcome section: how the games ended on the board and
//! which draw rules they reached, for chess and for xiangqi, each shown
//! only when the report has such games. The counts are `summary.json`'s
//! (docs/outcomes.md, section 6; docs/xiangqi-rules.md, section 7) and
//! the threefolds of [`HtmlStats`]; the table beside each chart says which
//! column of games.csv a row counts, so that a reader finds the games.

use super::html_chart::{Bar, ChartText, Scale, chart_with_table};
use super::html_stats::{Family, HtmlStats};
use super::summary::OutcomeSummary;
use crate::replay::{PerpetualCheck, Termination};

/// One row of an outcome chart: the games it is about, its label, its
/// count, and what it counts.
type Row = (Family, &'static str, u64, &'static str);

/// Every row, chess's then xiangqi's.
fn rows(o: &OutcomeSummary, stats: &HtmlStats) -> [Row; 17] {
    use Family::{Chess, Xiangqi};
    [
        (
            Chess,
            "checkmate",
            o.chess_termination(Termination::Checkmate),
            "termination = checkmate: the final position is checkmate",
        ),
        (
            Chess,
            "stalemate",
            o.chess_termination(Termination::Stalemate),
            "termination = stalemate",
        ),
        (
            Chess,
            "insufficient material",
            o.chess_termination(Termination::InsufficientMaterial),
            "termination = insufficient_material: neither side can mate",
        ),
        (
            Chess,
            "threefold repetition",
            stats.chess.threefolds,
            "threefold_ply_ep_legal set: a position occurred three times (a draw the player to move may claim)",
        ),
        (
            Chess,
            "fivefold repetition",
            o.fivefolds_ep_legal,
            "fivefold_ply set: a position occurred five times (drawn without a claim)",
        ),
        (
            Chess,
            "fifty-move rule",
            o.past_fifty_moves,
            "fifty_move_ply set: 50 moves each without a capture or pawn move (a draw the player to move may claim)",
        ),
        (
            Chess,
            "seventy-five-move rule",
            o.past_seventyfive_moves,
            "seventyfive_move_ply set: 75 moves each (drawn without a claim)",
        ),
        (
            Chess,
            "played on after the end",
            o.played_on_after_game_over,
            "game_over_ply < plies: moves recorded after the Laws had ended the game",
        ),
        (
            Chess,
            "result conflict",
            o.result_conflicts
                .saturating_sub(o.xiangqi_result_conflicts),
            "result_conflict not empty: the recorded result contradicts the board",
        ),
        (
            Xiangqi,
            "checkmate",
            o.xiangqi_termination(Termination::Checkmate),
            "termination = checkmate: the side to move loses",
        ),
        (
            Xiangqi,
            "stalemate",
            o.xiangqi_termination(Termination::Stalemate),
            "termination = stalemate: no legal move, which loses in xiangqi",
        ),
        (
            Xiangqi,
            "threefold repetition",
            stats.xiangqi.threefolds,
            "threefold_ply_ep_legal set: a position occurred three times",
        ),
        (
            Xiangqi,
            "perpetual check by red",
            o.perpetual_check(PerpetualCheck::Red),
            "perpetual_check = red: red checked on every move of the first threefold",
        ),
        (
            Xiangqi,
            "perpetual check by black",
            o.perpetual_check(PerpetualCheck::Black),
            "perpetual_check = black",
        ),
        (
            Xiangqi,
            "perpetual check by both",
            o.perpetual_check(PerpetualCheck::Both),
            "perpetual_check = both",
        ),
        (
            Xiangqi,
            "natural limit",
            o.past_natural_limit,
            "natural_limit_ply set: 120 plies in a row without a capture",
        ),
        (
            Xiangqi,
            "result conflict",
            o.xiangqi_result_conflicts,
            "result_conflict not empty: the recorded result contradicts the board",
        ),
    ]
}

/// The section: a chart and a table for each family the report has games
/// of; nothing when it has neither.
pub fn outcome_section(out: &mut String, o: &OutcomeSummary, stats: &HtmlStats) {
    let families = [
        (Family::Chess, "chess", stats.chess.games),
        (Family::Xiangqi, "xiangqi", stats.xiangqi.games),
    ];
    if families.iter().all(|f| f.2 == 0) {
        return;
    }
    out.push_str(
        "<h2>How the games ended</h2><p class=\"note\">Counted on the replayed main line; a \
         game counts in every row that applies to it.</p>",
    );
    let rows = rows(o, stats);
    for (family, name, games) in families {
        if games == 0 {
            continue;
        }
        let mine: Vec<&Row> = rows.iter().filter(|r| r.0 == family).collect();
        let bars: Vec<Bar> = mine.iter().map(|r| Bar::count(r.1, r.2)).collect();
        let cells: Vec<Vec<String>> = mine
            .iter()
            .map(|r| vec![r.1.to_string(), r.2.to_string(), r.3.to_string()])
            .collect();
        chart_with_table(
            out,
            &ChartText {
                id: &format!("outcomes-{name}"),
                title: &format!("Outcomes and draw rules, {name} games"),
                axis: &format!("{name} games with this outcome or rule, of {games}"),
            },
            Scale::counts(bars.iter().map(|b| b.value)),
            &bars,
            &["outcome", "games", "what is counted"],
            &cells,
        );
    }
}
