//! [`Session`]: one game in progress: a front, its solver, the start position, the moves played
//! (with who played each) and the moves taken back, for play / undo / redo.

use search_core::{Game, Player, Value};

use crate::{Front, JudgeCase, Move, Pos, Solver, SolverSettings};

/// A game in progress of front `F`. Copy-make: every position after the start is replayed
/// from the moves, so undo and redo cost nothing but the replay of one move.
pub struct Session<F: Front> {
    front: F,
    solver: F::Solver,
    start: Pos<F>,
    /// Positions before each move played, with the move and the player who made it.
    played: Vec<(Pos<F>, Move<F>, Player)>,
    /// Moves taken back, the last one taken back last.
    undone: Vec<Move<F>>,
    pos: Pos<F>,
}

impl<F: Front> Session<F> {
    /// A session from `front`'s start position.
    #[must_use]
    pub fn new(front: F) -> Self {
        Self::with_settings(front, SolverSettings::default())
    }

    /// [`Session::new`] with a solver searching as `settings` say ([`Front::solver`]).
    #[must_use]
    pub fn with_settings(front: F, settings: SolverSettings) -> Self {
        let start = front.start();
        let solver = front.solver(settings);
        Session { front, solver, start, played: Vec::new(), undone: Vec::new(), pos: start }
    }

    /// A session from one case of the judge's input format ([`Front::parse_setup`]): its start
    /// position, with the moves it records played (so that they can be undone); the solver
    /// as in [`Session::with_settings`].
    ///
    /// # Errors
    /// The parser's message.
    pub fn from_setup(front: F, text: &str, settings: SolverSettings) -> Result<Self, String> {
        let JudgeCase { front: new_front, start, moves } = front.parse_setup(text)?;
        let mut session = Session::with_settings(new_front.unwrap_or(front), settings);
        session.start = start;
        session.pos = start;
        for mv in moves {
            session.play(mv);
        }
        Ok(session)
    }

    /// The front.
    pub fn front(&self) -> &F {
        &self.front
    }

    /// The solver, for hints and replies ([`Solver::try_analyze`], [`Solver::try_best_move`]).
    pub fn solver(&mut self) -> &mut F::Solver {
        &mut self.solver
    }

    /// The front, the solver and the position now together (the solver's questions take the
    /// position; the front names the moves of the answers).
    pub fn parts(&mut self) -> (&F, &mut F::Solver, &Pos<F>) {
        (&self.front, &mut self.solver, &self.pos)
    }

    /// The position now.
    pub fn position(&self) -> &Pos<F> {
        &self.pos
    }

    /// The start position (of the setup, or the front's).
    pub fn start(&self) -> &Pos<F> {
        &self.start
    }

    /// The player to move now.
    pub fn to_move(&self) -> Player {
        self.solver.game().to_move(&self.pos)
    }

    /// The final result (first player's side) if the game is over.
    pub fn final_value(&self) -> Option<Value> {
        let game = self.solver.game();
        game.terminal_value(&self.pos)
            .map(|rest| game.banked(&self.pos) + game.to_move(&self.pos).sign() * rest)
    }

    /// The moves played from the start, in order.
    pub fn moves(&self) -> Vec<Move<F>> {
        self.played.iter().map(|&(_, mv, _)| mv).collect()
    }

    /// The legal moves now, in generation order.
    pub fn legal_moves(&self) -> Vec<Move<F>> {
        if self.final_value().is_some() {
            return Vec::new();
        }
        self.solver.legal_moves(&self.pos)
    }

    /// Plays `mv` (legal in the position now); the moves taken back are forgotten.
    pub fn play(&mut self, mv: Move<F>) {
        let mover = self.to_move();
        let next = self.solver.game().play(&self.pos, mv).0;
        self.played.push((self.pos, mv, mover));
        self.pos = next;
        self.undone.clear();
    }

    /// Plays the move typed as `text`.
    ///
    /// # Errors
    /// The game is over, or [`Front::parse_move`]'s message.
    pub fn play_text(&mut self, text: &str) -> Result<Move<F>, String> {
        if self.final_value().is_some() {
            return Err(format!("{}: the game is over", judge_text::quote(text)));
        }
        let mv = self.front.parse_move(&self.pos, text)?;
        self.play(mv);
        Ok(mv)
    }

    /// Takes back the last move; `false` if none was played.
    pub fn undo(&mut self) -> bool {
        let Some((pos, mv, _)) = self.played.pop() else { return false };
        self.pos = pos;
        self.undone.push(mv);
        true
    }

    /// Takes back the moves played since `player`'s last move, and that move; `false` (nothing
    /// changed) if `player` has not moved.
    pub fn undo_turn_of(&mut self, player: Player) -> bool {
        if !self.played.iter().any(|&(_, _, p)| p == player) {
            return false;
        }
        while let Some(&(_, _, p)) = self.played.last() {
            self.undo();
            if p == player {
                break;
            }
        }
        true
    }

    /// Plays again the last move taken back; `false` if there is none.
    pub fn redo(&mut self) -> bool {
        let Some(mv) = self.undone.pop() else { return false };
        let undone = std::mem::take(&mut self.undone);
        self.play(mv);
        self.undone = undone;
        true
    }

    /// The position now as one case of the judge's input format ([`Front::setup_text`]).
    pub fn setup_text(&self) -> String {
        self.front.setup_text(&self.start, &self.moves())
    }
}
