//! One solved case, explained ([`CaseReport`]): the keys of a `--format json --analyze` line and
//! the text block of `--analyze`, shared by every game and front end.

use search_core::Analysis;
use serde::Serialize;

use crate::{Front, Move};

/// The value of one legal move, in the judge's move notation.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct MoveReport {
    /// The move, e.g. `"2-5"` (segment) or `"0,1"` (cell, 0-based row and column).
    #[serde(rename = "move")]
    pub mv: String,
    /// Final result after this move and perfect play, first player's side.
    pub value: i64,
}

/// Search statistics as printed.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatsReport {
    /// Positions visited.
    pub nodes: u64,
    /// TT look-ups that found an entry.
    pub tt_hits: u64,
    /// Wall-clock microseconds.
    pub micros: u64,
}

/// One case: the keys of a `--format json --analyze` line, in order.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct CaseReport {
    /// 1-based case number.
    pub case: usize,
    /// Who is to move: `"A"`/`"B"`, `"Black"`/`"White"`, `"x"`/`"o"`.
    pub to_move: String,
    /// Final result under perfect play, first player's side.
    pub value: i64,
    /// The judge's answer text for this case.
    pub answer: String,
    /// Every legal move with its value, best first for the player to move.
    pub moves: Vec<MoveReport>,
    /// Principal variation: moves to the end of the game.
    pub pv: Vec<String>,
    /// Search statistics of the analysis.
    pub stats: StatsReport,
}

impl CaseReport {
    /// Builds the report of case `case` from a search-core analysis, in `front`'s notation.
    pub fn new<F: Front>(front: &F, case: usize, answer: String, analysis: &Analysis<Move<F>>) -> Self {
        Self::with_notation(case, answer, analysis, |p| front.player_name(p), |m| front.move_text(m))
    }

    /// Builds the report of case `case` from a search-core analysis, writing players with
    /// `player_name` and moves with `move_text`.
    pub fn with_notation<M>(
        case: usize,
        answer: String,
        analysis: &Analysis<M>,
        player_name: impl Fn(search_core::Player) -> &'static str,
        move_text: impl Fn(&M) -> String,
    ) -> Self {
        CaseReport {
            case,
            to_move: player_name(analysis.to_move).to_string(),
            value: analysis.value,
            answer,
            moves: analysis
                .moves
                .iter()
                .map(|m| MoveReport { mv: move_text(&m.mv), value: m.value })
                .collect(),
            pv: analysis.pv.iter().map(&move_text).collect(),
            stats: StatsReport {
                nodes: analysis.stats.nodes,
                tt_hits: analysis.stats.tt_hits,
                micros: u64::try_from(analysis.stats.elapsed.as_micros()).unwrap_or(u64::MAX),
            },
        }
    }

    /// The `--analyze` text block: `board` (already drawn, one or more lines), who is to move,
    /// `score` (the points banked so far, in the game's words), the value, every move with its
    /// value best first, and the PV; `value_note` explains the value's sign. Each line ends in
    /// `\n`.
    #[must_use]
    pub fn text_block(&self, board: &str, score: &str, value_note: &str) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        for line in board.lines() {
            if line.is_empty() {
                s.push('\n');
            } else {
                let _ = writeln!(s, "    {line}");
            }
        }
        let _ = writeln!(s, "  to move: {}", self.to_move);
        let _ = writeln!(s, "  score so far: {score}");
        let _ = writeln!(s, "  value: {} ({value_note})", self.value);
        if self.moves.is_empty() {
            s.push_str("  moves: none (game over)\n");
        } else {
            let moves: Vec<String> = self.moves.iter().map(|m| format!("{} {:+}", m.mv, m.value)).collect();
            let _ = writeln!(s, "  moves: {}", moves.join(", "));
        }
        let pv = if self.pv.is_empty() { "-".to_string() } else { self.pv.join(" ") };
        let _ = writeln!(s, "  pv: {pv}");
        let _ = writeln!(
            s,
            "  stats: {} nodes, {} TT hits, {} us",
            self.stats.nodes, self.stats.tt_hits, self.stats.micros
        );
        s
    }
}
