//! Dots-and-boxes as a judge subcommand ([`DotsAndBoxesProblem`]): one DBN string per line
//! (OpenSpiel's `dots_and_boxes`: one character per line in action-id order, horizontal lines
//! row by row then vertical ones, `1` drawn, `0` not), each answered `DBN VALUE` with the boxes
//! the player to move will still take minus the opponent's under perfect play.
//!
//! The crate's [`Judge`] answers (a retrograde table up to [`crate::TABLE_MAX_LINES`] lines,
//! the search engine above); `--time-limit` stops each position's search (its line then says
//! `not finished` with the bounds proven); `--checkpoint` and `--store` solve one position move
//! by move at the root with the long-solve driver.

use std::time::Instant;

use game_front::{
    Explained, Features, LongDone, LongJob, Numbered, OptionSpec, Problem, ProblemOptions, Reply, Request,
    Tables,
};
use search_core::{Analysis, Engine, Interrupted, Stats};

use crate::{
    dbn_string, open_boxes, parse_dbn_line, parse_size, DotsAndBoxes, DotsAndBoxesFront, Geometry, Judge,
    Position, Pruning,
};

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

/// `games-cli dots-and-boxes`: the value of DBN positions.
pub struct DotsAndBoxesProblem {
    front: DotsAndBoxesFront,
    judge: Judge,
    threads: usize,
    /// The statistics before a long solve and its deadline, for the analysis after it.
    long_start: Option<(Stats, Option<Instant>)>,
}

fn check_size(text: &str) -> Result<(), String> {
    parse_size(text).map(|_| ())
}

impl DotsAndBoxesProblem {
    fn set_limits(&mut self, request: &Request) {
        request.start_time_limit(self.judge.solver().engine());
    }

    /// Whether the pruning rules keep every legal move of `pos` at the root (always on the empty
    /// board), so that the root driver's move values are an analysis.
    fn every_move_at_root(&mut self, pos: &Position) -> bool {
        let plain = DotsAndBoxes::with_pruning(self.judge.geometry().clone(), Pruning::NONE);
        let every_move = |game: &DotsAndBoxes| search_core::root_checkpoint(game, pos).moves.len();
        every_move(self.judge.solver().engine().game()) == every_move(&plain)
    }

    fn reply(
        &mut self,
        number: usize,
        pos: &Position,
        request: &Request,
        found: Result<(i64, Option<Analysis<u8>>), Interrupted>,
        by_node_budget: bool,
    ) -> Reply {
        let limited = request.time_limit.is_some();
        let found = found.and_then(|(value, analysis)| {
            let analysis = match (analysis, request.analyze, limited) {
                (Some(a), ..) => Some(a),
                (None, false, _) => None,
                (None, true, false) => Some(self.judge.analyze(pos)),
                (None, true, true) => Some(self.judge.solver().try_analyze(pos)?),
            };
            Ok((value, analysis))
        });
        let geometry = self.judge.geometry().clone();
        let dbn = dbn_string(&geometry, pos.drawn());
        match found {
            // The side to move of the DBN string is called A: the value is A's.
            Ok((value, analysis)) => {
                let answer = format!("{dbn} {value}");
                let explained = analysis.map(|a| Explained::of(&self.front, number, &answer, pos, &a));
                Reply::Answer {
                    answer,
                    to_move: "A".to_string(),
                    value: Some(value),
                    explained,
                    algorithm: None,
                    json: None,
                }
            }
            Err(Interrupted { lo, hi }) => {
                // The engine's bounds, clamped to the boxes still open.
                let open = open_boxes(&geometry, pos);
                let (lo, hi) = (lo.clamp(-open, open), hi.clamp(-open, open));
                Reply::Unfinished {
                    text: format!("{dbn} not finished: value in [{lo}, {hi}]"),
                    json: serde_json::json!({
                        "case": number,
                        "dbn": dbn,
                        "finished": false,
                        "value_lo": lo,
                        "value_hi": hi,
                    }),
                    bounds: format!("the value in [{lo}, {hi}]"),
                    by_node_budget,
                }
            }
        }
    }
}

/// The TT size of a large board when none is asked for: [`LARGE_BOARD_TT_MIB`] if the memory
/// available is at least twice that, else `None` (the library's default, 512 MiB).
fn large_board_tt_bits(threads: usize, available: Option<u128>) -> Option<u32> {
    (available? >= u128::from(2 * LARGE_BOARD_TT_MIB) << 20)
        .then(|| {
            let options = crate::search_options(0, threads);
            Engine::<DotsAndBoxes>::table_bits_for_mib(LARGE_BOARD_TT_MIB, &options, None).ok()
        })
        .flatten()
}

impl Problem for DotsAndBoxesProblem {
    type Case = Position;
    type Search = DotsAndBoxes;
    type Long = DotsAndBoxesFront;

    const COMMAND: &'static str = "dots-and-boxes";
    const ABOUT: &'static str =
        "Dots-and-boxes: the value of each position, one OpenSpiel DBN string per line.";
    const AFTER_HELP: &'static str = "\
Input: one DBN string per line (OpenSpiel's dots_and_boxes): one character per line of the
board, `1` drawn and `0` not, in action-id order: the horizontal lines row by row (ROWS + 1 rows
of COLS), then the vertical lines row by row (ROWS rows of COLS + 1). Output: `DBN VALUE` per
line, VALUE being the boxes the player to move will still take minus the opponent's under
perfect play (a DBN string carries no score). Blank and whitespace-only lines are skipped;
`--empty` answers the empty board. The TT (`--tt-bits`) defaults to 20 bits up to 24 lines
(32 MiB), 22 up to 31 lines (128 MiB), above 512 MiB, and 1 GiB for `--empty` or `--checkpoint`
when twice that is available.

Example:
  $ printf '000000000000\\n' | games-cli dots-and-boxes --size 2x2
  000000000000 2";
    const OPTIONS: &'static [OptionSpec] = &[OptionSpec::value(
        "size",
        "RxC",
        "Board size as ROWSxCOLS boxes (OpenSpiel's num_rows x num_cols), at most 64 lines.",
        Some("2x2"),
        check_size,
    )];
    const FEATURES: Features = Features {
        empty: true,
        table: Tables::Full,
        long: true,
        algorithm: false,
        book: false,
        unit: "line",
    };

    fn new(options: &ProblemOptions, request: &Request) -> Result<Self, String> {
        let (rows, cols) = parse_size(options.value("size").unwrap_or("2x2"))?;
        let geometry = Geometry::new(rows, cols).map_err(|e| format!("--size {rows}x{cols}: {e}"))?;
        let tt_bits = match request.tt_bits {
            // The empty board or a checkpointed solve of a large board: one search of about
            // 10^9 nodes, worth a large table (touching it costs about a second).
            None if geometry.line_count() > LARGE_BOARD_LINES && (request.empty || request.one_case) => {
                large_board_tt_bits(request.threads, request.memory_available)
            }
            bits => bits,
        };
        let judge = Judge::new(geometry.clone(), tt_bits).with_threads(request.threads);
        Ok(DotsAndBoxesProblem {
            front: DotsAndBoxesFront::with_geometry(geometry),
            judge,
            threads: request.threads,
            long_start: None,
        })
    }

    fn table_options() -> search_core::SearchOptions {
        crate::search_options(0, 1)
    }

    fn table_bytes(&self) -> Option<u64> {
        let threads = self.threads;
        (!self.judge.uses_table()).then(|| {
            Engine::<DotsAndBoxes>::table_bytes(&crate::search_options(self.judge.tt_bits(), threads))
        })
    }

    fn read<'a>(
        &self,
        input: Box<dyn std::io::BufRead + 'a>,
    ) -> Box<dyn Iterator<Item = anyhow::Result<Numbered<Position>>> + 'a> {
        let geometry = self.judge.geometry().clone();
        game_front::read_lines(input, move |number, text| {
            let drawn = parse_dbn_line(&geometry, number, text)?;
            Ok(Position::from_drawn(&geometry, drawn)?)
        })
    }

    fn empty_case(&self) -> Position {
        Position::start()
    }

    fn answer(
        &mut self,
        number: usize,
        pos: &Position,
        request: &Request,
        _progress: &mut dyn FnMut(&str),
    ) -> anyhow::Result<Reply> {
        self.set_limits(request);
        let found = if request.time_limit.is_some() && !self.judge.uses_table() {
            self.judge.solver().try_value(pos).map(|v| (v, None))
        } else {
            Ok((self.judge.value(pos), None))
        };
        Ok(self.reply(number, pos, request, found, false))
    }

    fn long_job(
        &mut self,
        pos: &Position,
        request: &Request,
        _progress: &mut dyn FnMut(&str),
    ) -> Option<LongJob<'_, DotsAndBoxesFront>> {
        if !request.one_case || pos.is_over(self.judge.geometry()) {
            return None;
        }
        self.set_limits(request);
        let exact_all = request.analyze && self.every_move_at_root(pos);
        let engine = self.judge.solver().engine();
        self.long_start = Some((engine.stats(), request.time_limit.map(|t| Instant::now() + t)));
        Some(LongJob { solvable: &self.front, root: *pos, engine, pos: *pos, exact_all })
    }

    fn long_reply(
        &mut self,
        number: usize,
        pos: &Position,
        request: &Request,
        done: LongDone<u8>,
    ) -> anyhow::Result<Reply> {
        let (lo, hi) = done.result.bounds;
        let exact_all = request.analyze && self.every_move_at_root(pos);
        let found = match done.stopped {
            Some(by_node_budget) => {
                return Ok(self.reply(number, pos, request, Err(Interrupted { lo, hi }), by_node_budget))
            }
            None if !exact_all => Ok((lo, None)),
            // A principal variation cut short by the time limit: the value is known, the
            // analysis is not.
            None => {
                let plain = DotsAndBoxes::with_pruning(self.judge.geometry().clone(), Pruning::NONE);
                let (before, deadline) = self.long_start.take().unwrap_or_default();
                let engine = self.judge.solver().engine();
                match engine.root_analysis_from(&plain, pos, &done.result, &done.known_pv, &before, deadline)
                {
                    Ok(analysis) => Ok((lo, Some(analysis))),
                    Err(_) => Err(Interrupted { lo, hi }),
                }
            }
        };
        Ok(self.reply(number, pos, request, found, false))
    }
}
