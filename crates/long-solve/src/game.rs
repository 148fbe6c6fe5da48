//! A long solve of one position of a game, described by the game's [`game_front::Solvable`]
//! (what the files belong to, which TT entries its board allows, how its moves and bounds read).

/// Solves the non-terminal `pos` (the engine's position of the judge's `root`) with `engine`
/// as `long` asks ([`crate::root::solve`]: the checkpoint, the TT snapshot, the store), the files
/// and the progress line described by the game's [`game_front::Solvable`]; every root move
/// made exact when `exact_all`.
///
/// # Errors
/// [`crate::root::solve`]'s.
pub fn solve_game<S: game_front::Solvable>(
    game: &S,
    root: &S::Root,
    engine: &mut search_core::Engine<S::G>,
    pos: &<S::G as search_core::Game>::Position,
    long: &crate::LongSolveArgs,
    exact_all: bool,
) -> anyhow::Result<crate::Solved<<S::G as search_core::Game>::Move>>
where
    S::G: Clone + Send,
    <S::G as search_core::Game>::Key: std::fmt::Display + std::str::FromStr + Into<u128>,
    <S::G as search_core::Game>::Position: Send,
{
    let entry_ok = |e: &search_core::TtEntry<_, _>| game.entry_possible(root, e);
    let move_text = |m| game.root_move_text(m);
    let bounds_text = |b| game.bounds_text(root, b);
    let spec = crate::RootSolve {
        args: long,
        identity: game.solve_identity(root),
        exact_all,
        entry_ok: &entry_ok,
        move_text: &move_text,
        bounds_text: &bounds_text,
    };
    crate::solve(engine, pos, &spec)
}
