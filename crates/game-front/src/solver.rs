//! [`Solver`]: what a session asks of a game's solver (the exact value, the analysis, the
//! best move of a position, each under [`Limits`]), and [`SolverSettings`], how the solver a
//! front makes searches. [`Engine`] is the solver of every game that needs nothing else; a game
//! crate with its own questions (every legal move valued where its pruning searches one, a
//! faster engine for values) implements the trait on its own type.

use search_core::{Analysis, Engine, Game, Interrupted, Limits, SearchOptions, Value};

/// A game's solver as sessions use it (`games-cli play`, the web page, the Python module):
/// configured once by [`SolverSettings`] ([`crate::Front::solver`]), then asked about
/// positions of `G` under [`Limits`]. Values are exact; a search stopped by a limit returns
/// [`Interrupted`], never a guess.
pub trait Solver<G: Game>: Send {
    /// The rules the sessions play by (its `play`, `to_move`, `terminal_value`, `banked`).
    fn game(&self) -> &G;

    /// The nodes this solver has searched since it was made, all threads together: the counter
    /// that [`Limits::max_nodes`] compares with.
    fn nodes(&self) -> u64;

    /// Every legal move of the non-terminal `pos`, in generation order. Default:
    /// [`Game::generate_moves`]; a solver whose game prunes moves (proven dominated, a forced
    /// capture) gives the rules' full list.
    fn legal_moves(&self, pos: &G::Position) -> Vec<G::Move> {
        let mut moves = Vec::new();
        self.game().generate_moves(pos, &mut moves);
        moves
    }

    /// The exact value of the non-terminal `pos` for its side to move, counting the points
    /// [`Game::banked`] before it as [`Solver::try_analyze`] does, from one search (no move
    /// values, no principal variation).
    ///
    /// # Errors
    /// [`Interrupted`] when a limit stopped the search, with the bounds proven on that value
    /// (a side with nothing proven stays at `-INFINITY / 2` or `INFINITY / 2`).
    fn try_value(&mut self, pos: &G::Position, limits: Limits) -> Result<Value, Interrupted>;

    /// The analysis of the non-terminal `pos`: every legal move's value and a principal
    /// variation, from the first player's side, banked points counted.
    ///
    /// # Errors
    /// [`Interrupted`] when a limit stopped one of its searches.
    fn try_analyze(&mut self, pos: &G::Position, limits: Limits) -> Result<Analysis<G::Move>, Interrupted>;

    /// The solver's move in the non-terminal `pos`: the first move, in generation order, of the
    /// best value for the side to move. Default: from [`Solver::try_analyze`]'s move values.
    ///
    /// # Errors
    /// [`Interrupted`] when a limit stopped the search.
    fn try_best_move(&mut self, pos: &G::Position, limits: Limits) -> Result<G::Move, Interrupted> {
        let sign = self.game().to_move(pos).sign();
        let analysis = self.try_analyze(pos, limits)?;
        let order = self.legal_moves(pos);
        let rank = |mv: &G::Move| order.iter().position(|m| m == mv).unwrap_or(usize::MAX);
        let best = analysis.moves.iter().map(|m| sign * m.value).max();
        Ok(analysis
            .moves
            .iter()
            .filter(|m| Some(sign * m.value) == best)
            .min_by_key(|m| rank(&m.mv))
            .expect("a non-terminal position has moves")
            .mv)
    }
}

/// The engine as a session's solver: values by its driver, analyses by
/// [`Engine::try_analyze`], the best move from [`Engine::try_move_values`].
impl<G> Solver<G> for Engine<G>
where
    G: Game + Send,
    Engine<G>: Send,
{
    fn game(&self) -> &G {
        Engine::game(self)
    }

    fn nodes(&self) -> u64 {
        self.stats().nodes
    }

    fn try_value(&mut self, pos: &G::Position, limits: Limits) -> Result<Value, Interrupted> {
        self.set_limits(limits);
        let own = Engine::game(self).to_move(pos).sign() * Engine::game(self).banked(pos);
        let shift = |b: Value| if b.abs() >= search_core::INFINITY / 2 { b } else { b + own };
        match self.try_solve(pos) {
            Ok(v) => Ok(v + own),
            Err(e) => Err(Interrupted { lo: shift(e.lo), hi: shift(e.hi) }),
        }
    }

    fn try_analyze(&mut self, pos: &G::Position, limits: Limits) -> Result<Analysis<G::Move>, Interrupted> {
        self.set_limits(limits);
        Engine::try_analyze(self, pos)
    }

    fn try_best_move(&mut self, pos: &G::Position, limits: Limits) -> Result<G::Move, Interrupted> {
        self.set_limits(limits);
        let values = self.try_move_values(pos)?;
        let best = values.iter().map(|&(_, v)| v).max().expect("a non-terminal position has moves");
        Ok(values.into_iter().find(|&(_, v)| v == best).expect("the best value belongs to a move").0)
    }
}

/// An engine whose game prunes moves (forced captures, moves proven dominated) beside the
/// same game without pruning, `all`, for the questions about every legal move: the move list
/// and the analysis come from `all`, each value from the engine (pruning never changes a
/// value). The session solver of Triangle War and dots-and-boxes.
pub struct PrunedEngine<G: Game> {
    engine: Engine<G>,
    all: G,
}

impl<G: Game> PrunedEngine<G> {
    /// `engine`, whose game prunes, with `all`, the same board without pruning.
    #[must_use]
    pub fn new(engine: Engine<G>, all: G) -> Self {
        PrunedEngine { engine, all }
    }

    /// The engine (statistics, raw searches).
    pub fn engine(&mut self) -> &mut Engine<G> {
        &mut self.engine
    }
}

impl<G> Solver<G> for PrunedEngine<G>
where
    G: Game + Send,
    Engine<G>: Send,
{
    /// The game without pruning: sessions play by the full rules.
    fn game(&self) -> &G {
        &self.all
    }

    fn nodes(&self) -> u64 {
        self.engine.stats().nodes
    }

    fn try_value(&mut self, pos: &G::Position, limits: Limits) -> Result<Value, Interrupted> {
        Solver::try_value(&mut self.engine, pos, limits)
    }

    fn try_analyze(&mut self, pos: &G::Position, limits: Limits) -> Result<Analysis<G::Move>, Interrupted> {
        self.engine.set_limits(limits);
        let before = self.engine.stats();
        let engine = &mut self.engine;
        let mut analysis = search_core::try_analyze_with(&self.all, pos, |p| engine.try_solve(p))?;
        analysis.stats = self.engine.stats().since(&before);
        Ok(analysis)
    }

    /// The first best move in the engine's generation order: the moves its pruning keeps
    /// include a best one.
    fn try_best_move(&mut self, pos: &G::Position, limits: Limits) -> Result<G::Move, Interrupted> {
        Solver::try_best_move(&mut self.engine, pos, limits)
    }
}

/// How a front's solver searches ([`crate::Front::solver`]): the number of threads, the TT
/// size, each the game's own when not given, and an opening book. Never changes a value, only
/// the time and memory a solve takes. Settings are equal when they give the same numbers and
/// the same book (the same `Arc`, not a copy).
#[derive(Clone, Debug, Default)]
pub struct SolverSettings {
    /// Search threads (lazy SMP above 1); `None`: the game's default.
    pub threads: Option<usize>,
    /// The TT's budget in bytes: the largest power of two of entries whose table fits in it
    /// ([`Engine::table_bits_within`]); `None`: the game's default size.
    pub tt_bytes: Option<u64>,
    /// At most `2^max_tt_bits` entries, whatever the other settings say (a web request under a
    /// small node budget needs no large table); `None`: no cap.
    pub max_tt_bits: Option<u32>,
    /// An opening book the solver reads ([`search_core::Engine::set_book`]), one the front
    /// accepts ([`crate::Front::check_book`]; a book it refuses is not read); `None`: none.
    pub book: Option<std::sync::Arc<search_core::Book>>,
    /// Read no book unless `book` gives one. By default (`false`) a game with a book bundled
    /// for the board (Connect Four 7 x 6: `connect_four::bundled_book`) reads it when `book` is
    /// `None`, and one with a reply book bundled (Connect Four 7 x 6:
    /// `connect_four::bundled_replies`) answers its moves from it.
    pub no_bundled_book: bool,
}

impl PartialEq for SolverSettings {
    fn eq(&self, other: &Self) -> bool {
        let same_book = match (&self.book, &other.book) {
            (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        (self.threads, self.tt_bytes, self.max_tt_bits, self.no_bundled_book)
            == (other.threads, other.tt_bytes, other.max_tt_bits, other.no_bundled_book)
            && same_book
    }
}

impl Eq for SolverSettings {}

impl SolverSettings {
    /// The game's `defaults` with these settings applied: the threads, then the TT size that
    /// fits the byte budget in the table those options build for `G`
    /// ([`Engine::table_bits_within`]), then the cap.
    #[must_use]
    pub fn options<G: Game>(&self, defaults: SearchOptions) -> SearchOptions {
        let threads = self.threads.unwrap_or(defaults.threads).max(1);
        let mut options = SearchOptions { threads, ..defaults };
        if let Some(bytes) = self.tt_bytes {
            options.tt_bits = Engine::<G>::table_bits_within(bytes, &options);
        }
        if let Some(max) = self.max_tt_bits {
            options.tt_bits = options.tt_bits.min(max);
        }
        options
    }

    /// An engine for `game` searching with [`SolverSettings::options`] of `defaults` (no book:
    /// a front whose game has books applies it, [`crate::Front::check_book`]).
    #[must_use]
    pub fn engine<G: Game>(&self, game: G, defaults: SearchOptions) -> Engine<G> {
        let options = self.options::<G>(defaults);
        Engine::with_options(game, options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use search_core::Player;

    /// Take 1 or 2 from a pile; who takes the last stone wins (+1). The player to move loses
    /// exactly when the pile is a multiple of 3.
    struct Take2;

    impl Game for Take2 {
        type Position = (u8, Player);
        type Move = u8;
        type Key = u64;
        fn to_move(&self, pos: &(u8, Player)) -> Player {
            pos.1
        }
        fn terminal_value(&self, pos: &(u8, Player)) -> Option<Value> {
            (pos.0 == 0).then_some(-1)
        }
        fn generate_moves(&self, pos: &(u8, Player), moves: &mut Vec<u8>) {
            moves.extend((1..=2).filter(|&t| t <= pos.0));
        }
        fn play(&self, pos: &(u8, Player), mv: u8) -> ((u8, Player), Value) {
            ((pos.0 - mv, pos.1.opponent()), 0)
        }
        fn key(&self, pos: &(u8, Player)) -> u64 {
            u64::from(pos.0)
        }
    }

    #[test]
    fn settings_replace_only_what_they_give() {
        let game = SearchOptions { tt_bits: 22, threads: 1, ..SearchOptions::DEFAULT };
        assert_eq!(SolverSettings::default().options::<Take2>(game), game);
        let two = SolverSettings { threads: Some(2), ..SolverSettings::default() }.options::<Take2>(game);
        assert_eq!((two.threads, two.tt_bits, two.driver), (2, 22, game.driver));
        let zero = SolverSettings { threads: Some(0), ..SolverSettings::default() }.options::<Take2>(game);
        assert_eq!(zero.threads, 1);
        let capped =
            SolverSettings { max_tt_bits: Some(10), ..SolverSettings::default() }.options::<Take2>(game);
        assert_eq!(capped.tt_bits, 10);
        for threads in [1, 2] {
            let sized = SolverSettings {
                threads: Some(threads),
                tt_bytes: Some(10 << 20),
                ..SolverSettings::default()
            }
            .options::<Take2>(game);
            let want = Engine::<Take2>::table_bits_within(10 << 20, &SearchOptions { threads, ..game });
            assert_eq!(sized.tt_bits, want);
            assert!(Engine::<Take2>::table_bytes(&sized) <= 10 << 20);
            let doubled = SearchOptions { tt_bits: sized.tt_bits + 1, ..sized };
            assert!(Engine::<Take2>::table_bytes(&doubled) > 10 << 20);
        }
    }

    #[test]
    fn the_engine_answers_as_a_session_solver() {
        let mut engine =
            SolverSettings::default().engine(Take2, SearchOptions { tt_bits: 8, ..SearchOptions::DEFAULT });
        for pile in 1..20u8 {
            let pos = (pile, Player::First);
            let want = if pile % 3 == 0 { -1 } else { 1 };
            assert_eq!(Solver::try_value(&mut engine, &pos, Limits::default()), Ok(want), "pile {pile}");
            let analysis = Solver::try_analyze(&mut engine, &pos, Limits::default()).unwrap();
            assert_eq!(analysis.value, want);
            let best = Solver::try_best_move(&mut engine, &pos, Limits::default()).unwrap();
            // The first winning move in generation order, or the first move when all lose.
            let expected = if pile % 3 == 0 { 1 } else { pile % 3 };
            assert_eq!(best, expected, "pile {pile}");
            assert_eq!(Solver::legal_moves(&engine, &pos), (1..=2.min(pile)).collect::<Vec<_>>());
        }
    }
}
