//! [`Analysis`]: the value of every move, the position's value and the principal variation.

use crate::{Game, Player, Solver, Stats, Value};

/// The exact value of one legal move, from the first player's side, as the final result of the
/// game under perfect play after that move (points already banked included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue<M> {
    /// The move.
    pub mv: M,
    /// Final result after playing `mv` and then perfect play, first player's side.
    pub value: Value,
}

/// Everything [`Solver::analyze`] finds out about one position.
///
/// All values are from the first player's side ([`Player::First`]: A, Black, x / Alice) and are
/// final results: [`Game::banked`] plus the margin of the remaining play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis<M> {
    /// Player to move in the analysed position.
    pub to_move: Player,
    /// Final result under perfect play, first player's side.
    pub value: Value,
    /// Every legal move with its value, best first for the player to move (ties keep move
    /// generation order). Empty for a finished position.
    pub moves: Vec<MoveValue<M>>,
    /// The principal variation: moves from the position to the end of the game.
    pub pv: Vec<M>,
    /// Search statistics of this analysis alone.
    pub stats: Stats,
}

impl<M> Analysis<M> {
    /// The best moves: those whose value equals the position's value.
    pub fn best_moves(&self) -> impl Iterator<Item = &MoveValue<M>> {
        self.moves.iter().filter(move |m| m.value == self.value)
    }
}

impl<G: Game> Solver<G> {
    /// Analyses `pos`: its exact value, the exact value of every legal move and a principal
    /// variation, all from the first player's side and counting [`Game::banked`] points.
    ///
    /// Invariants: for a non-terminal position the best move value for the side to move equals
    /// `value`, and the PV's first move is one of the best moves.
    pub fn analyze(&mut self, pos: &G::Position) -> Analysis<G::Move> {
        let before = self.stats();
        let game_banked = self.game().banked(pos);
        let to_move = self.game().to_move(pos);
        let sign = to_move.sign();
        let value = game_banked + sign * self.solve(pos);
        let mut moves: Vec<MoveValue<G::Move>> = self
            .move_values(pos)
            .into_iter()
            .map(|(mv, v)| MoveValue { mv, value: game_banked + sign * v })
            .collect();
        // Stable sort: best first for the side to move.
        moves.sort_by_key(|m| -sign * m.value);
        let pv = self.principal_variation(pos);
        let after = self.stats();
        let stats = Stats {
            nodes: after.nodes - before.nodes,
            tt_probes: after.tt_probes - before.tt_probes,
            tt_hits: after.tt_hits - before.tt_hits,
            cutoffs: after.cutoffs - before.cutoffs,
            elapsed: after.elapsed - before.elapsed,
        };
        Analysis { to_move, value, moves, pv, stats }
    }
}
