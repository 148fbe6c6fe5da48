#![doc = include_str!("../README.md")]

mod params;
mod problem;
pub mod report;
mod session;
pub mod sketch;
mod solvable;

pub use params::{check_int, parse_size, ParamError, ParamSpec, Params};
pub use problem::{
    read_lines, Explained, Features, LongDone, LongJob, LongMove, Numbered, OptionSpec, Problem,
    ProblemOptions, Reply, Request, Tables, ValueCheck, VisitProblem,
};
pub use report::CaseReport;
pub use session::Session;
pub use sketch::Sketch;
pub use solvable::{NoLongSolve, Solvable};

use search_core::{Analysis, Engine, Game, Interrupted, Limits, Player, SearchOptions, Value};

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

    /// A fresh solver for sessions of this game, with the game's own search options and a TT
    /// of the game's default size, at most `2^max_tt_bits` entries when given (a web request
    /// under a small budget needs no large table).
    fn solver(&self, max_tt_bits: Option<u32>) -> Engine<Self::G>;

    /// A fresh solver as [`Front::solver`] makes it, searching as `settings` say (threads, TT
    /// size in bytes); [`SolverSettings::default`] gives [`Front::solver`]`(None)`'s. Default:
    /// that solver rebuilt with the settings' options ([`Engine::rebuilt`]); a front whose
    /// values come from another engine (Connect Four's fast solver) overrides it.
    fn solver_with(&self, settings: SolverSettings) -> Engine<Self::G> {
        let engine = match settings.tt_bytes {
            // The game's own size only when no budget is given: no table built twice.
            None => self.solver(None),
            Some(_) => self.solver(Some(0)),
        };
        let options = settings.apply(engine.options(), Engine::<Self::G>::tt_bits_within);
        // The budget sized for the table these options build (their one-thread table).
        let options = match settings.tt_bytes {
            Some(bytes) => {
                SearchOptions { tt_bits: Engine::<Self::G>::table_bits_within(bytes, &options), ..options }
            }
            None => options,
        };
        if options == engine.options() {
            engine
        } else {
            engine.rebuilt(options)
        }
    }

    /// The start position of a session.
    fn start(&self) -> Pos<Self>;

    /// Every legal move of the non-terminal `pos`, in generation order. Default: `solver`'s
    /// [`Game::generate_moves`]; a game whose engine prunes moves (proven dominated) overrides
    /// it with the rules' full list.
    fn legal_moves(&self, solver: &Engine<Self::G>, pos: &Pos<Self>) -> Vec<Move<Self>> {
        let mut moves = Vec::new();
        solver.game().generate_moves(pos, &mut moves);
        moves
    }

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

    /// [`Front::analyze`] under `limits` (the web page's budget, `play --time-limit`).
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

    /// The exact value of the non-terminal `pos` for its side to move, in the points of
    /// [`Front::analyze`] (banked points counted as there), from one search under `limits`
    /// (no move values, no principal variation). Default: `solver`'s [`Engine::try_solve`]
    /// plus the points [`Game::banked`] before `pos`.
    ///
    /// # Errors
    /// [`Interrupted`] when a limit stopped the search, with the bounds proven on that value
    /// (a side with nothing proven stays at `-INFINITY / 2` or `INFINITY / 2`).
    fn try_value(
        &self,
        solver: &mut Engine<Self::G>,
        pos: &Pos<Self>,
        limits: Limits,
    ) -> Result<Value, Interrupted> {
        solver.set_limits(limits);
        let own = solver.game().to_move(pos).sign() * solver.game().banked(pos);
        let shift = |b: Value| if b.abs() >= search_core::INFINITY / 2 { b } else { b + own };
        match solver.try_solve(pos) {
            Ok(v) => Ok(v + own),
            Err(e) => Err(Interrupted { lo: shift(e.lo), hi: shift(e.hi) }),
        }
    }

    /// The analysis of `pos` (every move's value and a principal variation, first player's
    /// side). Default: `solver`'s; a game with a faster dedicated solver overrides it.
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

    /// [`Front::best_move`] under `limits`. Default: from the move values of `solver` (best
    /// value, ties in generation order).
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

/// How a session's solver searches ([`Front::solver_with`]): the number of threads and the TT
/// size, each the game's own when not given. Never changes a value, only the time and memory
/// a solve takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolverSettings {
    /// Search threads (lazy SMP above 1); `None`: the game's default.
    pub threads: Option<usize>,
    /// The TT's budget in bytes: the largest power of two of entries that fits in it
    /// ([`Engine::tt_bits_within`]); `None`: the game's default size.
    pub tt_bytes: Option<u64>,
}

impl SolverSettings {
    /// `options` with these settings applied, the TT size from the budget by `tt_bits_within`
    /// (bytes, threads) of the engine that will search.
    #[must_use]
    pub fn apply(self, options: SearchOptions, tt_bits_within: fn(u64, usize) -> u32) -> SearchOptions {
        let threads = self.threads.unwrap_or(options.threads).max(1);
        let tt_bits = self.tt_bytes.map_or(options.tt_bits, |b| tt_bits_within(b, threads));
        SearchOptions { threads, tt_bits, ..options }
    }
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
    fn solver_settings_replace_only_what_they_give() {
        let game = SearchOptions { tt_bits: 22, threads: 1, ..SearchOptions::DEFAULT };
        let bits = |bytes: u64, threads: usize| (bytes >> 20) as u32 + threads as u32;
        assert_eq!(SolverSettings::default().apply(game, bits), game);
        let two = SolverSettings { threads: Some(2), tt_bytes: None }.apply(game, bits);
        assert_eq!((two.threads, two.tt_bits), (2, 22));
        let sized = SolverSettings { threads: Some(3), tt_bytes: Some(10 << 20) }.apply(game, bits);
        assert_eq!((sized.threads, sized.tt_bits, sized.driver), (3, 13, game.driver));
        let zero = SolverSettings { threads: Some(0), tt_bytes: None }.apply(game, bits);
        assert_eq!(zero.threads, 1);
    }

    #[test]
    fn plurals_and_margins() {
        assert_eq!(count(1, "cell", "cells"), "1 cell");
        assert_eq!(count(0, "cell", "cells"), "0 cells");
        assert_eq!(margin_words(3, "A", "B"), "A wins by 3");
        assert_eq!(margin_words(-2, "A", "B"), "B wins by 2");
        assert_eq!(margin_words(0, "A", "B"), "draw");
    }
}
