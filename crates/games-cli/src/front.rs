//! [`Front`]: what games-cli needs to know about one game to show it to a person -- player
//! names, move notation, drawing, result wording -- and how to start a session of it. `play`,
//! `--analyze` and `--format json` are written once over this trait.

use anyhow::Result;
use search_core::{Analysis, Engine, Game, Interrupted, Limits, Player, Value};

/// The engine's position type of a front's game.
pub type Pos<F> = <<F as Front>::G as Game>::Position;
/// The engine's move type of a front's game.
pub type Move<F> = <<F as Front>::G as Game>::Move;

/// A position set up from one case of the judge's input format ([`Front::parse_setup`]).
pub struct Setup<F: Front> {
    /// A new front when the text also sets the board (the Young-diagram game's values);
    /// `None` keeps the front that parsed it.
    pub front: Option<F>,
    /// The position the text starts from.
    pub start: Pos<F>,
    /// The moves the text plays from `start`, in order (formats that record moves: Triangle
    /// War, Connect Four), so that they can be undone one by one.
    pub moves: Vec<Move<F>>,
}

/// One game as the command line (and the web page) shows it.
pub trait Front: Sized {
    /// The search-core game played in sessions (`play`).
    type G: Game;
    /// The options that set up a session (`games-cli play NAME [OPTIONS]`): board size, seed, ….
    type Options: clap::Args + std::fmt::Debug;

    /// A front for the board the options describe.
    ///
    /// # Errors
    /// Options that do not describe a playable board, with a message naming the option.
    fn new(options: &Self::Options) -> Result<Self>;

    /// A fresh solver for sessions of this game, with the game's own search options.
    fn solver(&self) -> Engine<Self::G>;

    /// The start position of a session.
    fn start(&self) -> Pos<Self>;

    /// The name of a player: `A` / `B`, `Black` / `White`, `x` / `o`.
    fn player_name(&self, player: Player) -> &'static str;

    /// A move in the judge's notation (`2-5`, `1,2`).
    fn move_text(&self, mv: &Move<Self>) -> String;

    /// A move typed by a person, checked for legality in `pos`; the error says what was
    /// expected.
    ///
    /// # Errors
    /// Text that is not a move, or a move that is not legal in `pos`.
    fn parse_move(&self, pos: &Pos<Self>, text: &str) -> Result<Move<Self>, String>;

    /// How to type a move, e.g. "a segment as two dot numbers, e.g. `2 5`".
    fn move_help(&self) -> &'static str;

    /// The position drawn as text, one or more lines each ending in `\n`.
    fn draw(&self, pos: &Pos<Self>) -> String;

    /// The score so far, in the game's words.
    fn score_text(&self, pos: &Pos<Self>) -> String;

    /// A final result (first player's side) in words, e.g. `A wins by 3`.
    fn result_text(&self, value: Value) -> String;

    /// What a value means, e.g. "A's triangles minus B's at the end".
    fn value_note(&self) -> &'static str;

    /// The position drawn for the web page: a [`crate::serve::sketch::Sketch`] as JSON, with
    /// every legal move of `pos` anchored on the board.
    fn board_json(&self, pos: &Pos<Self>) -> serde_json::Value;

    /// One case of the judge's input format (the same parser as the CLI, for this front's
    /// board options), as the position it sets up.
    ///
    /// # Errors
    /// The parser's message, with line and column.
    fn parse_setup(&self, text: &str) -> Result<Setup<Self>, String>;

    /// The position reached by `moves` from `start` (a [`Setup`]'s, or [`Front::start`]) as one
    /// case of the judge's input format, ending in a newline.
    fn setup_text(&self, start: &Pos<Self>, moves: &[Move<Self>]) -> String;

    /// [`Front::analyze`] under `limits` (the web page's budget).
    ///
    /// # Errors
    /// [`Interrupted`] when a limit stopped one of its searches. Default: `solver`'s
    /// [`Engine::try_analyze`] under `limits`.
    fn try_analyze(
        &self,
        solver: &mut Engine<Self::G>,
        pos: &Pos<Self>,
        limits: Limits,
    ) -> Result<Analysis<Move<Self>>, Interrupted> {
        solver.set_limits(limits);
        solver.try_analyze(pos)
    }

    /// The analysis of `pos` (every move's value and a principal variation, first player's
    /// side) for `hint`. Default: `solver`'s; a game with a faster dedicated solver overrides it.
    fn analyze(&self, solver: &mut Engine<Self::G>, pos: &Pos<Self>) -> Analysis<Move<Self>> {
        solver.analyze(pos)
    }

    /// The solver's move in `pos` (not finished): the first move, in generation order, of the
    /// best value for the side to move. Default: from `solver`'s move values.
    fn best_move(&self, solver: &mut Engine<Self::G>, pos: &Pos<Self>) -> Move<Self> {
        let values = solver.move_values(pos);
        let best = values.iter().map(|&(_, v)| v).max().expect("a non-terminal position has moves");
        values.into_iter().find(|&(_, v)| v == best).expect("the best value belongs to a move").0
    }

    /// [`Front::best_move`] under `limits` (`play --time-limit`). Default: from the move values
    /// of [`Front::try_analyze`] (best first, ties in generation order).
    ///
    /// # Errors
    /// [`Interrupted`] when a limit stopped the search.
    fn try_best_move(
        &self,
        solver: &mut Engine<Self::G>,
        pos: &Pos<Self>,
        limits: Limits,
    ) -> Result<Move<Self>, Interrupted> {
        solver.set_limits(limits);
        let values = solver.try_move_values(pos)?;
        let best = values.iter().map(|&(_, v)| v).max().expect("a non-terminal position has moves");
        Ok(values.into_iter().find(|&(_, v)| v == best).expect("the best value belongs to a move").0)
    }
}

/// A board size `ROWSxCOLS` (e.g. `5x4`), each at least 1.
///
/// # Errors
/// Anything else, with the text quoted.
pub fn parse_size(text: &str) -> Result<(usize, usize), String> {
    judge_text::parse_size(text, "ROWSxCOLS", "4x4")
}

/// A final margin in words: `{first} wins by N`, `{second} wins by N` or `draw`.
pub fn margin_words(value: Value, first: &str, second: &str) -> String {
    match value.signum() {
        1 => format!("{first} wins by {value}"),
        -1 => format!("{second} wins by {}", -value),
        _ => "draw".to_string(),
    }
}

/// `n` followed by `singular` or `plural` as `n` asks: `1 empty cell`, `2 empty cells`.
pub fn count(n: usize, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("5x4"), Ok((5, 4)));
        assert_eq!(parse_size("3X3"), Ok((3, 3)));
        assert!(parse_size("5").is_err());
        assert!(parse_size("ax3").is_err());
        assert!(parse_size("0x3").is_err());
    }

    #[test]
    fn plurals() {
        assert_eq!(count(1, "cell", "cells"), "1 cell");
        assert_eq!(count(0, "cell", "cells"), "0 cells");
    }
}
