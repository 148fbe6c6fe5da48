//! [`minimax`]: the textbook reference, with no pruning and no transposition table.

use crate::{Game, Value};

/// The exact value of `pos` from its side to move by plain negamax over the full game tree: no
/// alpha-beta window, no TT, no move ordering. Exponential; for cross-checking [`crate::Engine`]
/// on small positions only.
pub fn minimax<G: Game>(game: &G, pos: &G::Position) -> Value {
    minimax_counting(game, pos, &mut 0)
}

/// [`minimax`], adding the positions it visits to `nodes`.
pub(crate) fn minimax_counting<G: Game>(game: &G, pos: &G::Position, nodes: &mut u64) -> Value {
    *nodes += 1;
    if let Some(v) = game.terminal_value(pos) {
        return v;
    }
    let mut moves = Vec::new();
    game.generate_moves(pos, &mut moves);
    let me = game.to_move(pos);
    moves
        .into_iter()
        .map(|m| {
            let (child, gain) = game.play(pos, m);
            let v = minimax_counting(game, &child, nodes);
            if game.to_move(&child) == me {
                gain + v
            } else {
                gain - v
            }
        })
        .max()
        .expect("a non-terminal position has at least one move")
}
