//! `games-cli connect-four [FILE]`: Connect Four positions, one per line as a move string
//! (`4453`: columns 1-based from the left, first player first), each answered `MOVES SCORE` with
//! the exact score for the side to move in Pascal Pons' convention, as in his test sets.
//!
//! A line may carry a second field (an expected score, as in the test sets); it must be an
//! integer and is not used. Lines are read and answered one at a time (memory is one line, however
//! long the input); blank and whitespace-only lines are skipped, never solved: the empty board is
//! asked for with `--empty`. `--weak` prints the sign of the score only (1 win, 0 draw, -1 loss),
//! found with cheaper searches; `--analyze` and `--format json` explain each answer (values from
//! the first player's side, X). `--threads N` sets the number of search threads (default 1,
//! 0 = every core). `--time-limit SECONDS` stops each position's search after that long: its
//! line says `not finished` with the bounds proven on the score, the next positions are still
//! answered, and the exit status is 3. `--checkpoint FILE` (one position per run) solves it
//! move by move at the root with the shared long-solve driver ([`long_solve`]), resumed
//! from the file when it exists.

use std::io::Write;

use anyhow::{anyhow, Result};
use connect_four::{
    parse_position_line, parse_size, score_range, Column, ConnectFourFront, Geometry, Position, Solver,
};
use search_core::{Analysis, Interrupted, Limits};

use crate::common::{Format, InputArgs, OutputArgs};
use crate::report::CaseReport;
use game_front::Front;
use long_solve::Stop;

/// Arguments of `connect-four`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Input: one position per line, the columns played from the empty board (1 = leftmost, first
player first), optionally followed by a score that is ignored (Pons' test-set lines). Output:
`MOVES SCORE` per line, SCORE for the side to move: a win with one's k-th stone scores 22 - k on
7x6 ((W*H + 1 - n) / 2 for a win with the next stone, n stones on the board), a draw 0, a loss
the negative of the winner's score. Blank and whitespace-only lines are skipped; `--empty`
answers the empty board.

Example:
  $ printf '2252576253462244111563365343671351441\\n' | games-cli connect-four
  2252576253462244111563365343671351441 -1")]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,
    /// Board size as COLUMNSxROWS with columns x (rows + 1) <= 64.
    #[arg(long, value_name = "WxH", value_parser = parse_size, default_value = "7x6")]
    size: (usize, usize),
    /// Print only the sign of the score (1 win, 0 draw, -1 loss for the side to move).
    #[arg(long)]
    weak: bool,
    /// Search threads (lazy SMP over a shared TT; the scores do not depend on it); 0 means
    /// every core, at most 256.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::common::threads_parser())]
    threads: u16,
    /// Answer the empty board as one position, without reading input.
    #[arg(long, conflicts_with = "file")]
    empty: bool,
    /// `--time-limit` (per position: its line then gives the bounds proven on the score, the
    /// next positions are still answered, exit status 3), `--checkpoint` (one position per run,
    /// solved move by move at the root; resumed from the file), `--save-every` and `--snapshot-entries`.
    #[command(flatten)]
    long: long_solve::LongSolveArgs,
}

/// Runs the subcommand: each line is answered (and flushed) as soon as it is read, so that
/// the answers before a bad line stay printed and endless input needs one line of memory.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<()> {
    let (w, h) = args.size;
    let geom = Geometry::new(w, h).map_err(|e| anyhow!("--size {w}x{h}: {e}"))?;
    let threads = crate::common::thread_count(args.threads);
    let mut solver = Solver::with_threads(geom, connect_four::DEFAULT_TT_BITS, threads);
    let mut unfinished = Vec::new();
    if args.empty {
        answer(args, &mut solver, 1, &Position::empty(geom), out, &mut unfinished)?;
    }
    let reader = if args.empty { None } else { Some(args.input.reader()?) };
    crate::common::answer_lines(&args.long, reader, unfinished, |number, text, unfinished| {
        let pos = parse_position_line(geom, text).map_err(|e| anyhow!("line {number}, {e}"))?;
        answer(args, &mut solver, number, &pos, out, unfinished)
    })
}

/// Answers the position of line `number` (flushed at once); under `--time-limit` a position
/// stopped by the limit is printed as not finished and its number added to `unfinished`.
fn answer(
    args: &Args,
    solver: &mut Solver,
    number: usize,
    pos: &Position,
    out: &mut dyn Write,
    unfinished: &mut Vec<(usize, Stop)>,
) -> Result<()> {
    if let Some(time) = args.long.time_limit {
        solver.set_limits(Limits { time: Some(time), ..Limits::default() });
        solver.engine().restart_clock();
    }
    let limited = args.long.time_limit.is_some();
    // What stops the solve: the time limit, or the node budget of a distributed solve.
    let mut stop = Stop::TimeLimit;
    let rooted = match args.long.one_case() {
        true => Some(root_solve(args, solver, pos)?.map_err(|(bounds, by)| {
            stop = by;
            bounds
        })),
        false => None,
    };
    let found = (|| -> Result<(i32, Option<Analysis<Column>>), Interrupted> {
        let score = match (args.weak, limited) {
            _ if rooted.is_some() => {
                let score = rooted.expect("checked")?;
                if args.weak {
                    score.signum()
                } else {
                    score
                }
            }
            (true, false) => solver.weak(pos).sign(),
            (true, true) => solver.try_weak(pos)?.sign(),
            (false, false) => solver.score(pos),
            (false, true) => solver.try_score(pos)?,
        };
        let analysis = match (args.output.analyze, limited) {
            (false, _) => None,
            (true, false) => Some(solver.analyze(pos)),
            (true, true) => Some(solver.try_analyze(pos)?),
        };
        Ok((score, analysis))
    })();
    let moves = pos.moves_string();
    match found {
        Ok((score, None)) => {
            // X moves first: the score for the side to move, from X's side.
            let x_to_move = pos.moves_played() % 2 == 0;
            let (to_move, value) = if x_to_move { ("X", score) } else { ("O", -score) };
            let answer = format!("{moves} {score}");
            crate::report::write_answer(&args.output, out, number, to_move, Some(value.into()), &answer)?;
        }
        Ok((score, Some(analysis))) => {
            let answer = format!("{moves} {score}");
            let front = ConnectFourFront::with_geometry(*pos.geometry());
            let report = CaseReport::new(&front, number, answer, &analysis);
            report.write(&args.output, out, &front.draw(pos), &front.score_text(pos), front.value_note())?;
        }
        Err(Interrupted { lo, hi }) => {
            // The engine's bounds are Pons' scores for the side to move (or the search's
            // infinities where nothing is known): clamped to the scores possible here.
            let (min, max) = score_range(pos);
            let (lo, hi) = (lo.clamp(min, max), hi.clamp(min, max));
            if args.output.format == Format::Json {
                let line = serde_json::json!({
                    "case": number,
                    "moves": moves,
                    "finished": false,
                    "score_lo": lo,
                    "score_hi": hi,
                });
                writeln!(out, "{line}")?;
            } else {
                writeln!(out, "{moves} not finished: score in [{lo}, {hi}]")?;
            }
            unfinished.push((number, stop));
        }
    }
    out.flush()?;
    Ok(())
}

/// The score of `pos` by the root driver ([`long_solve::solve`]) with `--checkpoint`,
/// or the bounds proven and what stopped it when a limit (time, node budget) stops it (as the engine's values).
fn root_solve(args: &Args, solver: &mut Solver, pos: &Position) -> Result<Result<i32, (Interrupted, Stop)>> {
    if pos.is_won() || pos.is_full() {
        return Ok(Ok(solver.score(pos)));
    }
    let board = pos.board();
    let engine = solver.engine();
    if let Some(v) = search_core::Game::terminal_value(engine.game(), board) {
        return Ok(Ok(v as i32));
    }
    let front = ConnectFourFront::with_geometry(*pos.geometry());
    let solved = long_solve::solve_game(&front, pos, engine, board, &args.long, false)?;
    let (lo, hi) = solved.result.bounds;
    Ok(match solved.stop {
        None => Ok(lo as i32),
        Some(stop) => Err((Interrupted { lo, hi }, stop)),
    })
}
