//! One solved case, explained: the JSON Lines record of `--format json` and the text block of
//! `--analyze`, shared by every game.

use std::io::{self, Write};

use search_core::Analysis;
use serde::Serialize;

use crate::common::{Format, OutputArgs};
use game_front::{Front, Move};

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

/// One case: the keys of a `--format json` line, in order.
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

/// One case answered without an analysis: the keys of a `--format json` line without
/// `--analyze`, in order. It costs what the judge's answer costs: no move values, no principal
/// variation.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct ValueReport<'a> {
    /// 1-based case number.
    pub case: usize,
    /// Who is to move: `"A"`/`"B"`, `"Black"`/`"White"`, `"x"`/`"o"`, `"X"`/`"O"`.
    pub to_move: &'a str,
    /// Final result under perfect play, first player's side (as [`CaseReport::value`]); absent
    /// where the judge's answer does not give it (a Find the Winning Move case with no winning
    /// move: a draw or a loss).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    /// The judge's answer text for this case.
    pub answer: &'a str,
}

/// Writes one case answered without an analysis as `output` asks: the judge's `answer` line,
/// or with `--format json` its [`ValueReport`] line.
pub fn write_answer(
    output: &OutputArgs,
    out: &mut dyn Write,
    case: usize,
    to_move: &str,
    value: Option<i64>,
    answer: &str,
) -> io::Result<()> {
    match output.format {
        Format::Judge => writeln!(out, "{answer}"),
        Format::Json => {
            serde_json::to_writer(&mut *out, &ValueReport { case, to_move, value, answer })?;
            writeln!(out)
        }
    }
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

    /// Writes the report as `output` asks: one JSON line, or the judge's answer line followed,
    /// with `--analyze`, by the text block of [`CaseReport::write_text`].
    pub fn write(
        &self,
        output: &OutputArgs,
        out: &mut dyn Write,
        board: &str,
        score: &str,
        note: &str,
    ) -> io::Result<()> {
        match output.format {
            Format::Json => self.write_json(out),
            Format::Judge => {
                writeln!(out, "{}", self.answer)?;
                if output.analyze {
                    self.write_text(out, board, score, note)?;
                }
                Ok(())
            }
        }
    }

    /// Writes the report as one JSON line.
    pub fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        serde_json::to_writer(&mut *out, self)?;
        writeln!(out)
    }

    /// Writes the `--analyze` text block: `board` (already drawn, one or more lines), who is to
    /// move, `score` (the points banked so far, in the game's words), the value, every move with
    /// its value best first, and the PV. `value_note` explains the value's sign.
    pub fn write_text(
        &self,
        out: &mut dyn Write,
        board: &str,
        score: &str,
        value_note: &str,
    ) -> io::Result<()> {
        for line in board.lines() {
            if line.is_empty() {
                writeln!(out)?;
            } else {
                writeln!(out, "    {line}")?;
            }
        }
        writeln!(out, "  to move: {}", self.to_move)?;
        writeln!(out, "  score so far: {score}")?;
        writeln!(out, "  value: {} ({value_note})", self.value)?;
        if self.moves.is_empty() {
            writeln!(out, "  moves: none (game over)")?;
        } else {
            let moves: Vec<String> = self.moves.iter().map(|m| format!("{} {:+}", m.mv, m.value)).collect();
            writeln!(out, "  moves: {}", moves.join(", "))?;
        }
        writeln!(out, "  pv: {}", if self.pv.is_empty() { "-".to_string() } else { self.pv.join(" ") })?;
        writeln!(
            out,
            "  stats: {} nodes, {} TT hits, {} us",
            self.stats.nodes, self.stats.tt_hits, self.stats.micros
        )
    }
}
