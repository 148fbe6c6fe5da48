//! `games-cli dots-and-boxes [--size RxC] [FILE]`: dots-and-boxes positions, one DBN string per
//! line (OpenSpiel's `dots_and_boxes`: one character per line in action-id order, horizontal
//! lines row by row then vertical ones, `1` drawn, `0` not), each answered `DBN VALUE` with
//! the boxes the player to move will still take minus the opponent's under perfect play.
//!
//! Lines are read and answered one at a time; blank and whitespace-only lines are skipped, the
//! empty board is asked for with `--empty`. The crate's [`Judge`] answers (a retrograde table
//! up to 17 lines, the search engine above); `--analyze` and `--format json` explain each
//! answer (values from the side to move of the DBN string, called A). `--time-limit SECONDS`
//! stops each position's search after that long (its line then says `not finished` with the
//! bounds proven, exit status 3); `--checkpoint FILE` (one position per run) solves it move by
//! move at the root with the shared long-solve driver ([`long_solve`]), resumed from the
//! file when it exists.

use std::io::Write;

use anyhow::{anyhow, Result};
use dots_and_boxes::{
    dbn_string, open_boxes, parse_dbn_line, DotsAndBoxes, DotsAndBoxesFront, Geometry, Judge, Position, Rules,
};
use game_front::Front;
use search_core::{Analysis, Interrupted, Limits};

use crate::common::{Format, InputArgs, OutputArgs};
use crate::report::CaseReport;
use long_solve::Stop;

/// Arguments of `dots-and-boxes`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Input: one DBN string per line (OpenSpiel's dots_and_boxes): one character per line of the
board, `1` drawn and `0` not, in action-id order: the horizontal lines row by row (ROWS + 1 rows
of COLS), then the vertical lines row by row (ROWS rows of COLS + 1). Output: `DBN VALUE` per
line, VALUE being the boxes the player to move will still take minus the opponent's under
perfect play (a DBN string carries no score). Blank and whitespace-only lines are skipped;
`--empty` answers the empty board.

Example:
  $ printf '000000000000\\n' | games-cli dots-and-boxes --size 2x2
  000000000000 2")]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,
    /// Board size as ROWSxCOLS boxes (OpenSpiel's num_rows x num_cols), at most 64 lines.
    #[arg(long, value_name = "RxC", value_parser = dots_and_boxes::parse_size, default_value = "2x2")]
    size: (usize, usize),
    /// Answer the empty board as one position, without reading input.
    #[arg(long, conflicts_with = "file")]
    empty: bool,
    /// `--time-limit` (per position: its line then gives the bounds proven, the next positions
    /// are still answered, exit status 3), `--checkpoint` (one position per run, solved move by
    /// move at the root; resumed from the file), `--save-every` and `--snapshot-entries`.
    #[command(flatten)]
    long: long_solve::LongSolveArgs,
    /// `--tt-bits` (default: 20 up to 24 lines, 32 MiB; 22 up to 31 lines, 128 MiB; above,
    /// 512 MiB, and 1 GiB for `--empty` or `--checkpoint` when twice that is available),
    /// `--tt-mib`, `--threads`.
    #[command(flatten)]
    table: crate::common::TableArgs,
}

/// Runs the subcommand: each line is answered (and flushed) as soon as it is read, so that the
/// answers before a bad line stay printed.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<()> {
    let (rows, cols) = args.size;
    let geometry = Geometry::new(rows, cols).map_err(|e| anyhow!("--size {rows}x{cols}: {e}"))?;
    let tt_bits = match args.table.tt_bits_with::<DotsAndBoxes>(&dots_and_boxes::search_options(0, 1))? {
        // The empty board or a checkpointed solve of a large board: one search of about 10^9
        // nodes, worth a large table (touching it costs about a second).
        None if geometry.line_count() > LARGE_BOARD_LINES && (args.empty || args.long.one_case()) => {
            large_board_tt_bits(args.table.threads())
        }
        bits => bits,
    };
    let mut judge = Judge::new(geometry.clone(), tt_bits).with_threads(args.table.threads());
    if !judge.uses_table() {
        let options = dots_and_boxes::search_options(judge.tt_bits(), args.table.threads());
        let bytes = search_core::Engine::<DotsAndBoxes>::table_bytes(&options);
        crate::huge_pages::reexec_for_table(bytes);
    }
    let mut unfinished = Vec::new();
    if args.empty {
        answer(args, &mut judge, 1, &Position::start(), out, &mut unfinished)?;
    }
    let reader = if args.empty { None } else { Some(args.input.reader()?) };
    crate::common::answer_lines(&args.long, reader, unfinished, |number, text, unfinished| {
        let drawn = parse_dbn_line(&geometry, number, text)?;
        let pos = Position::from_drawn(&geometry, drawn)?;
        answer(args, &mut judge, number, &pos, out, unfinished)
    })
}

/// The empty board (`--empty`) or a checkpointed solve of a board of more than this many lines
/// (3x5, 4x4 and up: searches of about 10^9 nodes) gets a TT of [`LARGE_BOARD_TT_MIB`] by
/// default when the memory allows; positions read from the input keep the library's default.
const LARGE_BOARD_LINES: usize = 31;

/// The default TT of the large boards, in MiB: 2^25 entries of 32 bytes (for two threads,
/// 103 M entries in the shared table's narrow part and 6 M in its wide one). 2 GiB halved the
/// nodes of 512 MiB on 4x4 before that part existed (840 M -> 435 M one thread; 2^28: 387 M);
/// with it 512 MiB comes within 3% of 4 GiB, and two threads on the empty 4x4 took 51.6-63.8 s
/// with 1 GiB (seven runs) against 60.9-66 s with 2 GiB (four), which cost 2.6-3.0 s more of
/// system time (`docs/results/dots-and-boxes-4x4-3x5.md`).
const LARGE_BOARD_TT_MIB: u64 = 1024;

/// The TT size of a large board when none is asked for: [`LARGE_BOARD_TT_MIB`] if the memory
/// available is at least twice that, else `None` (the library's default, 512 MiB).
fn large_board_tt_bits(threads: usize) -> Option<u32> {
    let available = crate::memory::mem_available()?;
    (available >= u128::from(2 * LARGE_BOARD_TT_MIB) << 20)
        .then(|| {
            let options = dots_and_boxes::search_options(0, threads);
            search_core::Engine::<DotsAndBoxes>::table_bits_for_mib(LARGE_BOARD_TT_MIB, &options, None).ok()
        })
        .flatten()
}

/// Answers the position of line `number` (flushed at once); under `--time-limit` a position
/// stopped by the limit is printed as not finished and its number added to `unfinished`.
fn answer(
    args: &Args,
    judge: &mut Judge,
    number: usize,
    pos: &Position,
    out: &mut dyn Write,
    unfinished: &mut Vec<(usize, Stop)>,
) -> Result<()> {
    let geometry = judge.geometry().clone();
    let limited = args.long.time_limit.is_some();
    if let Some(time) = args.long.time_limit {
        let solver = judge.solver();
        solver.set_limits(Limits { time: Some(time), ..Limits::default() });
        solver.engine().restart_clock();
    }
    // What stops the solve: the time limit, or the node budget of a distributed solve.
    let mut stop = Stop::TimeLimit;
    let rooted = match args.long.one_case() {
        true => Some(root_solve(args, judge, pos)?.map_err(|(bounds, by)| {
            stop = by;
            bounds
        })),
        false => None,
    };
    let found = (|| -> Result<(i64, Option<Analysis<u8>>), Interrupted> {
        let (value, analysis) = match rooted {
            Some(r) => r?,
            None if limited && !judge.uses_table() => (judge.solver().try_value(pos)?, None),
            None => (judge.value(pos), None),
        };
        let analysis = match (analysis, args.output.analyze, limited) {
            (Some(a), ..) => Some(a),
            (None, false, _) => None,
            (None, true, false) => Some(judge.analyze(pos)),
            (None, true, true) => Some(judge.solver().try_analyze(pos)?),
        };
        Ok((value, analysis))
    })();
    let dbn = dbn_string(&geometry, pos.drawn());
    match found {
        // The side to move of the DBN string is called A: the value is A's.
        Ok((value, None)) => {
            crate::report::write_answer(
                &args.output,
                out,
                number,
                "A",
                Some(value),
                &format!("{dbn} {value}"),
            )?;
        }
        Ok((value, Some(analysis))) => {
            let front = DotsAndBoxesFront::with_geometry(geometry);
            let report = CaseReport::new(&front, number, format!("{dbn} {value}"), &analysis);
            report.write(&args.output, out, &front.draw(pos), &front.score_text(pos), front.value_note())?;
        }
        Err(Interrupted { lo, hi }) => {
            // The engine's bounds, clamped to the boxes still open.
            let open = open_boxes(&geometry, pos);
            let (lo, hi) = (lo.clamp(-open, open), hi.clamp(-open, open));
            if args.output.format == Format::Json {
                let line = serde_json::json!({
                    "case": number,
                    "dbn": dbn,
                    "finished": false,
                    "value_lo": lo,
                    "value_hi": hi,
                });
                writeln!(out, "{line}")?;
            } else {
                writeln!(out, "{dbn} not finished: value in [{lo}, {hi}]")?;
            }
            unfinished.push((number, stop));
        }
    }
    out.flush()?;
    Ok(())
}

/// The value of `pos` by the root driver ([`long_solve::solve`]) with `--checkpoint`,
/// or the bounds proven and what stopped it when a limit (time, node budget) stops it. When
/// the answer is explained (`--analyze`, `--format json`) and the rules leave every legal move
/// at the root (always on the empty board), every root move is made exact in the checkpoint
/// and the analysis comes with the value ([`search_core::Engine::root_analysis_from`], its PV
/// through a store's proven tree first, `--store`); otherwise the caller analyses afterwards.
fn root_solve(args: &Args, judge: &mut Judge, pos: &Position) -> Result<Result<Rooted, (Interrupted, Stop)>> {
    let geometry = judge.geometry().clone();
    if pos.is_over(&geometry) {
        return Ok(Ok((0, None)));
    }
    let engine = judge.solver().engine();
    // Every legal move, as the analysis lists them.
    let plain = DotsAndBoxes::with_rules(geometry.clone(), Rules::NONE);
    let every_move = |game: &DotsAndBoxes| search_core::root_checkpoint(game, pos).moves.len();
    let exact_all = args.output.analyze && every_move(engine.game()) == every_move(&plain);
    let deadline = args.long.time_limit.map(|t| std::time::Instant::now() + t);
    let before = engine.stats();
    let front = DotsAndBoxesFront::with_geometry(geometry.clone());
    let solved = long_solve::solve_game(&front, pos, engine, pos, &args.long, exact_all)?;
    let (lo, hi) = solved.result.bounds;
    Ok(match solved.stop {
        Some(stop) => Err((Interrupted { lo, hi }, stop)),
        None if !exact_all => Ok((lo, None)),
        // A principal variation cut short by the time limit: the value is known, the
        // analysis is not.
        None => {
            match engine.root_analysis_from(&plain, pos, &solved.result, &solved.known_pv, &before, deadline)
            {
                Ok(analysis) => Ok((lo, Some(analysis))),
                Err(_) => Err((Interrupted { lo, hi }, Stop::TimeLimit)),
            }
        }
    })
}

/// A root solve's value and, when the root driver made every move exact, its analysis.
type Rooted = (i64, Option<Analysis<u8>>);
