//! The root driver of a long solve, written once for every game: [`Engine::solve_root`] run in
//! slices under `--time-limit`, with `--checkpoint FILE` (sealed bounds per root move, rewritten
//! atomically after every step) and its TT snapshot `FILE.tt` (the expensive part of the TT,
//! every `--save-every` seconds), and a progress line on a terminal (in a log, one line per
//! `--save-every`); with `--store` the split ([`crate::split::solve`]) instead.
//!
//! A checkpoint or snapshot of another game, board or position, or one damaged or edited, is
//! refused with the file named ([`search_core::unseal`]); a TT entry is read only if its value
//! and move are possible on the board. Moves are written as their [`search_core::PackedMove`]
//! codes (for Triangle War the segment index, so older side-5 checkpoints stay valid).

use std::fmt::Display;
use std::io::IsTerminal;
use std::path::Path;
use std::str::FromStr;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Result};
use search_core::{Checkpoint, Engine, Game, Limits, RootResult, Stats};

use crate::outcome::{RootSolve, Solved, Stop};
use crate::snapshot::{
    from_codes, load_snapshot, save_snapshot, snapshot_identity, snapshot_path, to_codes, write_atomically,
};

/// Longest checkpoint file read, in bytes (a checkpoint holds a line for each root move: a few
/// kilobytes).
pub const MAX_CHECKPOINT_BYTES: u64 = 16 << 20;

/// Solves the non-terminal `pos` at the root with `engine` (its threads and TT) as `spec`
/// asks (through [`crate::split::solve`] with `--store`): from the checkpoint file when it exists, in slices that save it, under the time
/// limit, with a progress line on a terminal. A checkpoint that already holds the answer is
/// only read: nothing is searched or written.
///
/// # Errors
/// A checkpoint or TT snapshot that cannot be read or is refused (the file named, and why), a
/// file that cannot be written.
pub fn solve<G: Game + Clone + Send>(
    engine: &mut Engine<G>,
    pos: &G::Position,
    spec: &RootSolve<'_, G>,
) -> Result<Solved<G::Move>>
where
    G::Key: Display + FromStr + Into<u128>,
    G::Position: Send,
{
    if let Some(depth) = spec.args.split.count_frontier {
        crate::split::count_frontier(engine.game(), pos, depth)?;
    }
    if let Some(k) = spec.args.split.sample_jobs {
        let split = &spec.args.split;
        crate::split::sample_jobs(engine, pos, split.split_depth, k, split.sample_nodes)?;
    }
    if let Some(k) = spec.args.split.recheck {
        crate::split::recheck(engine, pos, spec, k)?;
    }
    if spec.args.split.store.is_some() {
        return crate::split::solve(engine, pos, spec);
    }
    let args = spec.args;
    let identity = &spec.identity;
    let fresh = search_core::root_checkpoint(engine.game(), pos);
    let checkpoint: Option<Checkpoint<G::Move>> = match &args.checkpoint {
        Some(path) if path.exists() => {
            let bytes = crate::store::read_regular_file("checkpoint", path, MAX_CHECKPOINT_BYTES)?;
            let text = String::from_utf8(bytes).map_err(|_| {
                anyhow!("checkpoint {}: not UTF-8 text; refused (delete it to start afresh)", path.display())
            })?;
            let cp = Checkpoint::from_sealed_text(&text, identity, &to_codes(&fresh)).map_err(|e| {
                anyhow!("checkpoint {}: {e}; refused (delete it to start afresh)", path.display())
            })?;
            Some(from_codes(&cp))
        }
        _ => None,
    };
    let stats0 = engine.stats();
    let exact_all = spec.exact_all;
    let already_solved = checkpoint
        .as_ref()
        .is_some_and(|cp| cp.is_solved() && (!exact_all || cp.moves.iter().all(|m| m.lo == m.hi)));
    if already_solved {
        let cp = checkpoint.expect("checked above");
        let bounds = cp.bounds();
        let result = RootResult { bounds, finished: true, checkpoint: cp };
        return Ok(Solved {
            result,
            stop: None,
            stats: Stats::default(),
            from_checkpoint: true,
            known_pv: Vec::new(),
        });
    }
    let tt_path = args.checkpoint.as_deref().map(snapshot_path);
    let tt_identity = snapshot_identity(identity, &engine.game().key_scheme());
    if let Some(path) = tt_path.as_ref().filter(|p| p.exists()) {
        load_snapshot(engine, path, &tt_identity, spec.entry_ok)?;
    }
    let save = |cp: &Checkpoint<G::Move>| -> Result<()> {
        match &args.checkpoint {
            Some(path) => write_atomically("checkpoint", path, &to_codes(cp).to_sealed_text(identity)),
            None => Ok(()),
        }
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    // The solve runs in slices: after each one the checkpoint and the TT snapshot are saved
    // and the progress line is refreshed; the next slice re-enters the interrupted step, whose
    // finished subtrees are still in the TT.
    let start = Instant::now();
    let deadline = args.time_limit.map(|t| start + t);
    let save_every = args.save_every.max(Duration::from_secs(1));
    let slice = match (&bar, &args.checkpoint) {
        (Some(_), _) => Some(save_every.min(Duration::from_secs(5))),
        (None, Some(_)) => Some(save_every),
        (None, None) => None,
    };
    let mut last_tt_save = Instant::now();
    let mut checkpoint = checkpoint;
    let result = loop {
        let remaining = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        let limit = match (slice, remaining) {
            (Some(s), Some(r)) => Some(s.min(r)),
            (s, r) => s.or(r),
        };
        engine.set_limits(Limits { time: limit, ..Limits::default() });
        let mut save_error = None;
        let result = engine
            .solve_root(pos, checkpoint.take(), exact_all, |p| {
                if let Err(e) = save(&p.checkpoint) {
                    save_error.get_or_insert(e);
                }
            })
            .map_err(|e| {
                let path = args.checkpoint.as_deref().unwrap_or(Path::new("-"));
                anyhow!("checkpoint {} does not fit this position: {e}", path.display())
            })?;
        if let Some(e) = save_error {
            return Err(e);
        }
        save(&result.checkpoint)?;
        let out_of_time = deadline.is_some_and(|d| Instant::now() >= d);
        if let Some(path) = &tt_path {
            if result.finished || out_of_time || last_tt_save.elapsed() >= save_every {
                save_snapshot(engine, path, &tt_identity, args.snapshot_entries)?;
                last_tt_save = Instant::now();
            }
        }
        // On a terminal the progress bar; in a log (stderr not a terminal, a checkpointed solve
        // run in the background) one line per slice, that is every `--save-every`.
        let logged = bar.is_none() && slice.is_some() && !(result.finished || out_of_time);
        if bar.is_some() || logged {
            // The root move being proven: the first that may still beat the best proven one.
            let best_lo = result.bounds.0;
            let moves = &result.checkpoint.moves;
            let proving = moves
                .iter()
                .position(|m| m.lo != m.hi && (exact_all || m.hi > best_lo))
                .map_or_else(String::new, |i| {
                    format!("proving move {}/{} ({}): ", i + 1, moves.len(), (spec.move_text)(moves[i].mv))
                });
            let nodes = engine.stats().nodes - stats0.nodes;
            let elapsed = start.elapsed();
            let message = format!(
                "{proving}{}; {nodes} nodes, {:.0} nodes/s, {:.0?}",
                (spec.bounds_text)(result.bounds),
                nodes as f64 / elapsed.as_secs_f64().max(1e-9),
                elapsed
            );
            match &bar {
                Some(bar) => bar.set_message(message),
                None => eprintln!("games-cli: progress: {message}"),
            }
        }
        if result.finished || out_of_time || slice.is_none() {
            break result;
        }
        checkpoint = Some(result.checkpoint);
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    engine.set_limits(Limits {
        time: deadline.map(|d| d.saturating_duration_since(Instant::now())),
        ..Limits::default()
    });
    // Without a store only the time limit stops the root driver.
    let stop = (!result.finished).then_some(Stop::TimeLimit);
    Ok(Solved {
        result,
        stop,
        stats: engine.stats().since(&stats0),
        from_checkpoint: false,
        known_pv: Vec::new(),
    })
}
