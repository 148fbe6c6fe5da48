//! Laws every registered game obeys, run on each game of [`game_registry::GAMES`] with its
//! example parameters, along seeded random playouts: move text and setup text round-trip
//! through their parsers (a setup of the board alone with the session's moves replayed), undo and redo restore the session, a finished game has a final
//! value, and an analysis's value is the best of its move values (negamax consistency) with a
//! principal variation that replays to the end.

use game_front::{Front, Session, Solver as _, SolverSettings, Visit};
use game_registry::{params_from_words, visit, GAMES};
use search_core::{Limits, Player};

/// A small seeded generator (a 64-bit linear congruential one): the playouts repeat.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

/// Checks the laws on one front along `playouts` seeded random games; the first broken law in
/// words.
struct Laws {
    playouts: u64,
}

impl Visit for Laws {
    type Output = Result<(), String>;

    fn visit<F: Front>(self, front: F) -> Result<(), String> {
        let name = F::NAME;
        let mut session = Session::with_settings(
            front,
            SolverSettings { max_tt_bits: Some(16), ..SolverSettings::default() },
        );
        let mut analysed = 0;
        for seed in 0..self.playouts {
            while session.undo() {}
            let mut rng = Lcg(seed + 1);
            let mut texts = Vec::new();
            while session.final_value().is_none() {
                let moves = session.legal_moves();
                if moves.is_empty() {
                    return Err(format!("{name}: an unfinished position without a legal move"));
                }
                // Every legal move's text reads back as that move.
                let (front, _, pos) = session.parts();
                for mv in &moves {
                    let text = front.move_text(mv);
                    match front.parse_move(pos, &text) {
                        Ok(back) if back == *mv => {}
                        other => return Err(format!("{name}: move text {text:?} reads back as {other:?}")),
                    }
                }
                // The setup text reads back as the same position, with the same moves.
                reread(&mut session)?;
                let mv = moves[rng.below(moves.len())];
                texts.push(session.front().move_text(&mv));
                session.play(mv);
            }
            // Undo to the start and redo to the end: the same game.
            let end = session.setup_text();
            let mut undone = 0;
            while session.undo() {
                undone += 1;
            }
            while session.redo() {}
            if undone != texts.len() || session.setup_text() != end {
                return Err(format!("{name}: undo / redo of {texts:?} does not restore the game"));
            }
            // Analyses of the last positions of the game: consistent and replayable.
            let game = session.moves();
            for back in 0..game.len().min(6) {
                while session.undo() {}
                for &mv in &game[..game.len() - back] {
                    session.play(mv);
                }
                analysed += usize::from(check_analysis(&mut session, name)?);
            }
        }
        if analysed < 3 {
            return Err(format!("{name}: only {analysed} analyses finished within the budget"));
        }
        Ok(())
    }
}

/// A fresh front of the example board (the board the laws are checked on).
fn example_front<F: Front>() -> F {
    let info = GAMES.iter().find(|g| g.name == F::NAME).expect("a registered game");
    let words: Vec<String> = info.example.split_whitespace().map(String::from).collect();
    let pairs = params_from_words(&words, info.params, 64).expect("the example's words are parameters");
    let params = game_front::Params::new(F::PARAMS, pairs.iter().copied()).expect("the example's parameters");
    F::new(&params).expect("the example's board")
}

/// The legal moves of a session, as text.
fn move_texts<F: Front>(session: &Session<F>) -> Vec<String> {
    session.legal_moves().iter().map(|m| session.front().move_text(m)).collect()
}

/// The session's position read back from its setup text, with the same setup text and legal
/// moves. A format that records the position (or the moves) reads back as it; one that records
/// only the board (the Young-diagram game's values) reads back as the start, from which the
/// session's moves replay to the position.
fn reread<F: Front>(session: &mut Session<F>) -> Result<Session<F>, String> {
    let (name, setup) = (F::NAME, session.setup_text());
    let mut copy = Session::from_setup(
        example_front::<F>(),
        &setup,
        SolverSettings { max_tt_bits: Some(10), ..SolverSettings::default() },
    )
    .map_err(|e| format!("{name}: setup text {setup:?} refused: {e}"))?;
    if copy.setup_text() != setup {
        return Err(format!("{name}: setup text {setup:?} reads back as {:?}", copy.setup_text()));
    }
    if move_texts(&copy) != move_texts(session) {
        for mv in session.moves().into_iter().skip(copy.moves().len()) {
            copy.play(mv);
        }
        if move_texts(&copy) != move_texts(session) || copy.setup_text() != setup {
            return Err(format!("{name}: setup text {setup:?} has other legal moves when read back"));
        }
    }
    Ok(copy)
}

/// The analysis of the session's position (under a node budget; a position it cannot finish
/// is skipped): its value is the best of its move values for the player to move, and its
/// principal variation plays legal moves to a finished game of that value.
fn check_analysis<F: Front>(session: &mut Session<F>, name: &str) -> Result<bool, String> {
    let setup = session.setup_text();
    let (_, solver, pos) = session.parts();
    let limits = Limits { max_nodes: Some(solver.nodes() + 2_000_000), ..Limits::default() };
    let Ok(analysis) = solver.try_analyze(pos, limits) else { return Ok(false) };
    if let Some(best) = match analysis.to_move {
        Player::First => analysis.moves.iter().map(|m| m.value).max(),
        Player::Second => analysis.moves.iter().map(|m| m.value).min(),
    } {
        if best != analysis.value {
            return Err(format!(
                "{name}: {setup:?}: value {} but the best move is worth {best}",
                analysis.value
            ));
        }
    }
    // The principal variation played in the session itself (a setup text may not carry the
    // points already banked), then taken back.
    for mv in &analysis.pv {
        if !session.legal_moves().contains(mv) {
            return Err(format!("{name}: {setup:?}: the principal variation plays an illegal move {mv:?}"));
        }
        session.play(*mv);
    }
    let end = session.final_value();
    for _ in &analysis.pv {
        session.undo();
    }
    match end {
        Some(v) if v == analysis.value => Ok(true),
        other => Err(format!(
            "{name}: {setup:?} after {} moves: the principal variation {:?} ends at {other:?}, not {}",
            session.moves().len(),
            analysis.pv,
            analysis.value
        )),
    }
}

#[test]
fn every_registered_game_obeys_the_laws() {
    for game in GAMES {
        let words: Vec<String> = game.example.split_whitespace().map(String::from).collect();
        let pairs = params_from_words(&words, game.params, 64).unwrap();
        visit(game.name, &pairs, Laws { playouts: 3 }).unwrap().unwrap_or_else(|e| panic!("{e}"));
    }
}
