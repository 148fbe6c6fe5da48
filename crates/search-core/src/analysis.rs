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
        let moves = ranked(self.move_values(pos), game_banked, sign);
        let pv = self.principal_variation(pos);
        let after = self.stats();
        let stats = after.since(&before);
        Analysis { to_move, value, moves, pv, stats }
    }
}

/// Moves with values from the side to move, as [`MoveValue`]s from the first player's side
/// (plus `banked`), best first for the side to move (`sign` is its [`Player::sign`]); a stable
/// sort, so ties keep move-generation order.
fn ranked<M>(values: Vec<(M, Value)>, banked: Value, sign: Value) -> Vec<MoveValue<M>> {
    let mut moves: Vec<MoveValue<M>> =
        values.into_iter().map(|(mv, v)| MoveValue { mv, value: banked + sign * v }).collect();
    moves.sort_by_key(|m| -sign * m.value);
    moves
}

/// Analyses `pos` as [`Solver::analyze`] does, with exact values from `value` instead of a
/// search: a DP or retrograde table, a memo. `value(p)` must be the exact value of the remaining
/// play of `p` from its side to move (the engine's convention); it is called on `pos`, on each
/// of its children and along the principal variation.
///
/// The PV takes, at every step, the first move in generation order whose value equals the
/// position's, as [`Solver::principal_variation`] does. The returned `stats` are zero: the
/// caller knows what its oracle cost.
pub fn analyze_with<G: Game>(
    game: &G,
    pos: &G::Position,
    mut value: impl FnMut(&G::Position) -> Value,
) -> Analysis<G::Move> {
    let to_move = game.to_move(pos);
    let banked = game.banked(pos);
    let mut buf = Vec::new();
    // The value of each legal move of `p` from the side to move of `p`, in generation order.
    let mut children = |p: &G::Position, value: &mut dyn FnMut(&G::Position) -> Value| {
        buf.clear();
        if game.terminal_value(p).is_none() {
            game.generate_moves(p, &mut buf);
        }
        let me = game.to_move(p);
        buf.iter()
            .map(|&m| {
                let (child, gain) = game.play(p, m);
                let v = value(&child);
                (m, if game.to_move(&child) == me { gain + v } else { gain - v })
            })
            .collect::<Vec<_>>()
    };
    let root = value(pos);
    let moves = ranked(children(pos, &mut value), banked, to_move.sign());
    let mut pv = Vec::new();
    let mut p = *pos;
    while game.terminal_value(&p).is_none() {
        let v = value(&p);
        let (m, _) = children(&p, &mut value)
            .into_iter()
            .find(|&(_, mv)| mv == v)
            .expect("an exact oracle gives some move the position's value");
        pv.push(m);
        p = game.play(&p, m).0;
    }
    Analysis { to_move, value: banked + to_move.sign() * root, moves, pv, stats: Stats::default() }
}
