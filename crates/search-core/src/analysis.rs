//! [`Analysis`]: the value of every move, the position's value and the principal variation.

use crate::options::unlimited;
use crate::{Engine, Game, Interrupted, Player, Stats, Value};

/// The exact value of one legal move, from the first player's side, as the final result of the
/// game under perfect play after that move (points already banked included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue<M> {
    /// The move.
    pub mv: M,
    /// Final result after playing `mv` and then perfect play, first player's side.
    pub value: Value,
}

/// Everything [`Engine::analyze`] finds out about one position.
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

impl<G: Game> Engine<G> {
    /// Analyses `pos`: its exact value, the exact value of every legal move and a principal
    /// variation, all from the first player's side and counting [`Game::banked`] points.
    ///
    /// Invariants: for a non-terminal position the best move value for the side to move equals
    /// `value`, and the PV's first move is one of the best moves.
    pub fn analyze(&mut self, pos: &G::Position) -> Analysis<G::Move> {
        unlimited(self.analyze_as(pos, false))
    }

    /// [`Engine::analyze`] under the engine's limits (the web page's budget).
    ///
    /// # Errors
    /// [`Interrupted`] when a limit stopped one of its searches (its bounds are those of the
    /// search stopped, not of `pos`).
    pub fn try_analyze(&mut self, pos: &G::Position) -> Result<Analysis<G::Move>, Interrupted> {
        self.analyze_as(pos, true)
    }

    fn analyze_as(&mut self, pos: &G::Position, limited: bool) -> Result<Analysis<G::Move>, Interrupted> {
        let before = self.stats();
        let game_banked = self.game().banked(pos);
        let to_move = self.game().to_move(pos);
        let sign = to_move.sign();
        let own = self.drive(pos, self.options().driver, None, limited)?;
        let value = game_banked + sign * own;
        let moves = ranked(self.move_values_from(pos, Some(own), limited)?, game_banked, sign);
        let pv = self.principal_variation_from(pos, Some(own), limited)?;
        let after = self.stats();
        let stats = after.since(&before);
        Ok(Analysis { to_move, value, moves, pv, stats })
    }

    /// The exact value of every legal move of the non-terminal `pos`, from the side to move of
    /// `pos`, including the move's own gain, in move-generation order. Empty if `pos` is
    /// terminal.
    pub fn move_values(&mut self, pos: &G::Position) -> Vec<(G::Move, Value)> {
        unlimited(self.move_values_from(pos, None, false))
    }

    /// [`Engine::move_values`] under the engine's limits.
    ///
    /// # Errors
    /// [`Interrupted`] when a limit stopped one of its searches.
    pub fn try_move_values(&mut self, pos: &G::Position) -> Result<Vec<(G::Move, Value)>, Interrupted> {
        self.move_values_from(pos, None, true)
    }

    /// [`Engine::move_values`] of `pos` whose exact value (from its side to move) is `value`
    /// when known: each move is first tested against it with a null window (a move worth at
    /// least `value` is worth exactly `value`, no move being worth more), and only a move
    /// found worse is searched for its own value. The best moves' tests mostly end on the
    /// bounds the search for `value` left in the TT.
    fn move_values_from(
        &mut self,
        pos: &G::Position,
        value: Option<Value>,
        limited: bool,
    ) -> Result<Vec<(G::Move, Value)>, Interrupted> {
        if self.game().terminal_value(pos).is_some() {
            return Ok(Vec::new());
        }
        let mut moves = Vec::new();
        self.game().generate_moves(pos, &mut moves);
        let me = self.game().to_move(pos);
        let driver = self.options().driver;
        let mut values = Vec::with_capacity(moves.len());
        for m in moves {
            let (child, gain) = self.game().play(pos, m);
            let same = self.game().to_move(&child) == me;
            let best = match value {
                // The child's value if the move is a best one, and whether it is.
                Some(value) => {
                    let target = if same { value - gain } else { gain - value };
                    let is_best = if same {
                        self.search_as(&child, target - 1, target, limited)? >= target
                    } else {
                        self.search_as(&child, target, target + 1, limited)? <= target
                    };
                    is_best.then_some(target)
                }
                None => None,
            };
            let v = match best {
                Some(v) => v,
                None => self.drive(&child, driver, None, limited)?,
            };
            values.push((m, if same { gain + v } else { gain - v }));
        }
        Ok(values)
    }

    /// A principal variation (PV) from `pos` to the end of the game: at every step the first
    /// move in the game's move order ([`Game::order_moves`], a function of the position
    /// alone) whose exact value equals the position's value. Recomputed by exact searches, so
    /// it never depends on what the TT happened to keep; the order puts a best move first
    /// mostly, so that one null-window test per step usually settles it (testing the moves in
    /// generation order proves every move before the best one worse, which the search for
    /// the value had not needed).
    pub fn principal_variation(&mut self, pos: &G::Position) -> Vec<G::Move> {
        unlimited(self.principal_variation_from(pos, None, false))
    }

    /// The PV of [`Engine::principal_variation`], from `pos` whose exact value (from its side
    /// to move) is `value` when known. Only the first position's value is searched for: the
    /// move chosen at each step is worth at least the position's value (the test that chose
    /// it) and at most that (no move is worth more), so its child's value follows.
    fn principal_variation_from(
        &mut self,
        pos: &G::Position,
        value: Option<Value>,
        limited: bool,
    ) -> Result<Vec<G::Move>, Interrupted> {
        let mut pv = Vec::new();
        let mut pos = *pos;
        let mut moves = Vec::new();
        let driver = self.options().driver;
        let mut known = value;
        while self.game().terminal_value(&pos).is_none() {
            let value = match known {
                Some(v) => v,
                None => self.drive(&pos, driver, None, limited)?,
            };
            let me = self.game().to_move(&pos);
            moves.clear();
            self.game().generate_moves(&pos, &mut moves);
            self.game().order_moves(&pos, &mut moves);
            let mut next = None;
            for &m in &moves {
                let (child, gain) = self.game().play(&pos, m);
                let same = self.game().to_move(&child) == me;
                // Null-window test: is this move's value at least `value`?
                let target = if same { value - gain } else { gain - value };
                let ok = if same {
                    self.search_as(&child, target - 1, target, limited)? >= target
                } else {
                    self.search_as(&child, target, target + 1, limited)? <= target
                };
                if ok {
                    next = Some((m, child, target));
                    break;
                }
            }
            let Some((m, child, target)) = next else {
                unreachable!("a non-terminal position has a move achieving its value")
            };
            pv.push(m);
            pos = child;
            known = Some(target);
        }
        Ok(pv)
    }
}

/// Moves with values from the side to move, as [`MoveValue`]s from the first player's side
/// (plus `banked`), best first for the side to move (`sign` is its [`Player::sign`]); a stable
/// sort, so ties keep move-generation order.
pub(crate) fn ranked<M>(values: Vec<(M, Value)>, banked: Value, sign: Value) -> Vec<MoveValue<M>> {
    let mut moves: Vec<MoveValue<M>> =
        values.into_iter().map(|(mv, v)| MoveValue { mv, value: banked + sign * v }).collect();
    moves.sort_by_key(|m| -sign * m.value);
    moves
}

/// Analyses `pos` as [`Engine::analyze`] does, with exact values from `value` instead of a
/// search: a DP or retrograde table, a memo. `value(p)` must be the exact value of the remaining
/// play of `p` from its side to move (the engine's convention); it is called on `pos`, on each
/// of its children and along the principal variation.
///
/// The PV takes, at every step, the first move in the game's move order
/// ([`Game::order_moves`]) whose value equals the position's, as
/// [`Engine::principal_variation`] does. The returned `stats` are zero: the
/// caller knows what its oracle cost.
pub fn analyze_with<G: Game>(
    game: &G,
    pos: &G::Position,
    mut value: impl FnMut(&G::Position) -> Value,
) -> Analysis<G::Move> {
    match try_analyze_with(game, pos, |p| Ok::<Value, std::convert::Infallible>(value(p))) {
        Ok(a) => a,
        Err(never) => match never {},
    }
}

/// [`analyze_with`] from a fallible oracle (e.g. searches under limits): the first error of
/// `value` ends the analysis and is returned.
///
/// # Errors
/// The first error `value` returns.
pub fn try_analyze_with<G: Game, E>(
    game: &G,
    pos: &G::Position,
    mut value: impl FnMut(&G::Position) -> Result<Value, E>,
) -> Result<Analysis<G::Move>, E> {
    let to_move = game.to_move(pos);
    let banked = game.banked(pos);
    let mut buf = Vec::new();
    // The value of each legal move of `p` from the side to move of `p`, in generation order.
    let mut children = |p: &G::Position, value: &mut dyn FnMut(&G::Position) -> Result<Value, E>| {
        buf.clear();
        if game.terminal_value(p).is_none() {
            game.generate_moves(p, &mut buf);
        }
        let me = game.to_move(p);
        let mut values = Vec::with_capacity(buf.len());
        for &m in &buf {
            let (child, gain) = game.play(p, m);
            let v = value(&child)?;
            values.push((m, if game.to_move(&child) == me { gain + v } else { gain - v }));
        }
        Ok(values)
    };
    let root = value(pos)?;
    let moves = ranked(children(pos, &mut value)?, banked, to_move.sign());
    let mut pv = Vec::new();
    let mut p = *pos;
    while game.terminal_value(&p).is_none() {
        let v = value(&p)?;
        let values = children(&p, &mut value)?;
        let mut ordered: Vec<G::Move> = values.iter().map(|&(m, _)| m).collect();
        game.order_moves(&p, &mut ordered);
        let best = |m: &G::Move| values.iter().any(|&(n, mv)| n == *m && mv == v);
        let Some(&m) = ordered.iter().find(|m| best(m)) else {
            unreachable!("an exact oracle gives some move the position's value")
        };
        pv.push(m);
        p = game.play(&p, m).0;
    }
    Ok(Analysis { to_move, value: banked + to_move.sign() * root, moves, pv, stats: Stats::default() })
}
