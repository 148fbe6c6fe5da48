#![doc = include_str!("../README.md")]

mod params;
mod problem;
pub mod report;
mod session;
pub mod sketch;
mod solvable;
mod solver;

pub use params::{check_int, parse_size, ParamError, ParamSpec, Params};
pub use problem::{
    read_lines, Explained, Features, LongDone, LongJob, LongMove, Numbered, OptionSpec, Problem,
    ProblemOptions, Reply, Request, Tables, ValueCheck, VisitProblem,
};
pub use report::CaseReport;
pub use session::Session;
pub use sketch::Sketch;
pub use solvable::{NoLongSolve, Solvable};
pub use solver::{PrunedEngine, Solver, SolverSettings};

#[cfg(doc)]
use search_core::Engine;
use search_core::{Book, BookError, Game, Player, Value};

/// The engine's position type of a front's game.
pub type Pos<F> = <<F as Front>::G as Game>::Position;
/// The engine's move type of a front's game.
pub type Move<F> = <<F as Front>::G as Game>::Move;

/// A position set up from one case of the judge's input format ([`Front::parse_setup`]).
pub struct JudgeCase<F: Front> {
    /// A new front when the text also sets the board (the Young-diagram game's values);
    /// `None` keeps the front that parsed it.
    pub front: Option<F>,
    /// The position the text starts from.
    pub start: Pos<F>,
    /// The moves the text plays from `start`, in order (formats that record moves: Triangle
    /// War, Connect Four), so that they can be undone one by one.
    pub moves: Vec<Move<F>>,
}

/// One game as a person sees it, whatever the front end.
pub trait Front: Sized + Send + 'static {
    /// The search-core game played in sessions (`Send`, so that a session can move to another
    /// thread: a Python module releases the GIL while it solves).
    type G: Game + Send;
    /// The solver of its sessions: [`Engine`] of `G`, or the game crate's own [`Solver`].
    type Solver: Solver<Self::G>;

    /// The game's name in every front end: `games-cli play NAME`, the web page's `game`.
    const NAME: &'static str;
    /// The title shown, e.g. `Triangle War`.
    const TITLE: &'static str;
    /// The board parameters ([`Front::new`] reads them), e.g. `side`.
    const PARAMS: &'static [ParamSpec];
    /// Parameters to show as an example, as command-line words: `--side 3`.
    const EXAMPLE: &'static str;

    /// A front for the board `params` describe.
    ///
    /// # Errors
    /// [`ParamError::Board`] when the values do not make a board together.
    fn new(params: &Params) -> Result<Self, ParamError>;

    /// A fresh solver for sessions of this game, with the game's own search options changed
    /// by `settings` ([`SolverSettings::default`]: the game's own threads and TT size, no
    /// book); a book [`Front::check_book`] refuses is not read.
    fn solver(&self, settings: SolverSettings) -> Self::Solver;

    /// Whether the solver of this front's board reads `book` ([`SolverSettings::book`]): a
    /// book of this game, board and key scheme, every value possible. Front ends call it on
    /// a book file before they hand the book over, to report a refused one. Default: no game
    /// of this front has books.
    ///
    /// # Errors
    /// [`BookError::Unsupported`] (the default), or what [`Book::check`] finds.
    fn check_book(&self, book: &Book) -> Result<(), BookError> {
        let _ = book;
        Err(BookError::Unsupported { game: Self::TITLE.to_string() })
    }

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

    /// The position drawn for the web page: a [`Sketch`] as JSON, with every legal move of
    /// `pos` anchored on the board.
    fn board_json(&self, pos: &Pos<Self>) -> serde_json::Value;

    /// One case of the judge's input format (the same parser as the judge subcommand, for
    /// this front's board), as the position it sets up.
    ///
    /// # Errors
    /// The parser's message, with line and column.
    fn parse_setup(&self, text: &str) -> Result<JudgeCase<Self>, String>;

    /// The position reached by `moves` from `start` (a [`JudgeCase`]'s, or [`Front::start`]) as one
    /// case of the judge's input format, ending in a newline; where the format cannot express
    /// that position (the Young-diagram game's board values, a UVa 10111 case with o to move),
    /// the case of `start`, from which the moves replay. Points already banked are not always
    /// carried (a DBN string has no owners).
    fn setup_text(&self, start: &Pos<Self>, moves: &[Move<Self>]) -> String;
}

/// Generic code run on the front a registry picked by name ([`Visit::visit`] is called with
/// the concrete front), so that one function serves every game without a trait object.
pub trait Visit {
    /// What the visit returns.
    type Output;
    /// Runs on `front`.
    fn visit<F: Front>(self, front: F) -> Self::Output;
}

/// A final margin in words: `{first} wins by N`, `{second} wins by N` or `draw`.
#[must_use]
pub fn margin_words(value: Value, first: &str, second: &str) -> String {
    match value.signum() {
        1 => format!("{first} wins by {value}"),
        -1 => format!("{second} wins by {}", -value),
        _ => "draw".to_string(),
    }
}

/// `n` followed by `singular` or `plural` as `n` asks: `1 empty cell`, `2 empty cells`.
#[must_use]
pub fn count(n: usize, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_and_margins() {
        assert_eq!(count(1, "cell", "cells"), "1 cell");
        assert_eq!(count(0, "cell", "cells"), "0 cells");
        assert_eq!(margin_words(3, "A", "B"), "A wins by 3");
        assert_eq!(margin_words(-2, "A", "B"), "B wins by 2");
        assert_eq!(margin_words(0, "A", "B"), "draw");
    }
}
