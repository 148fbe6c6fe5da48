//! `games-cli winning-move` (UVa 10111, and other m,n,k boards with `--size` / `--k`) and
//! `games-cli board-eval` (CCF CSP 201803-4): read the judge's input, print one answer per case
//! as soon as it is solved; with `--analyze` explain each answer, with `--format json` print one
//! JSON line per case instead. `games-cli play tic-tac-toe` plays any m,n,k board scored as
//! CCF 201803-4.

use std::io::Write;

use anyhow::{Context, Result};
use search_core::{Analysis, Engine, Game};
use tic_tac_toe::{
    default_tt_bits, parse_ccf_from, parse_uva_from, BoardEval, Cell, FindProgress, Geometry, MnkGame,
    Position, Question, Scoring, SolveError, TicTacToeFront, WinningMove,
};

use crate::common::{AlgorithmArgs, InputArgs, OutputArgs};
use crate::report::CaseReport;
use game_front::Front;

/// Arguments of `winning-move`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Input (UVa 10111): cases, each `?` followed by 4 rows of 4 characters `.`, `x`, `o`; `$` ends the
input. x is to move. Output per case: `(r,c)` (0-based) of the first cell in row-major order
that forces a win for x, or `#####` if there is none. With --size ROWSxCOLS (up to 8x8) each
case has ROWS rows of COLS characters.

Example:
  $ printf '?\\n....\\n.xo.\\n.ox.\\n....\\n$\\n' | games-cli winning-move
  #####")]
#[command(group(clap::ArgGroup::new("root_driver").args(["time_limit", "checkpoint", "store"]).multiple(true).conflicts_with_all(["algorithm", "stats"])))]
pub struct WinningMoveArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,
    /// Board size as ROWSxCOLS (each 1 to 8); rows are given as ROWS lines of COLS characters.
    #[arg(long, value_name = "MxN", value_parser = parse_size, default_value = "4x4")]
    size: (usize, usize),
    /// Stones in a row needed to win [default: the shorter side of the board].
    #[arg(long, value_name = "K")]
    k: Option<usize>,
    /// Answer the empty board (x to move) without reading any input.
    #[arg(long, conflicts_with = "file")]
    empty: bool,
    /// Search threads (lazy SMP over a shared TT; the answers do not depend on it); 0 means
    /// every core, at most 256.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = crate::common::threads_parser())]
    threads: u16,
    /// `--time-limit` (per case: its line then reads `not finished`, the next cases are
    /// still answered, exit status 3), `--checkpoint` (one case per run, solved move by move at
    /// the root; resumed from the file), `--save-every` and `--snapshot-entries`.
    #[command(flatten)]
    long: long_solve::LongSolveArgs,
    #[command(flatten)]
    algorithm: AlgorithmArgs,
}

/// Arguments of `board-eval`.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Input (CCF CSP 201803-4): the number of boards T, then for each board 3 lines of 3 numbers:
0 empty, 1 Alice's mark (x), 2 Bob's mark (o). Alice moves next unless she has more marks.
Output per board: the score under perfect play, from Alice's side: a win scores the number of
empty cells + 1 (negative if Bob wins), a draw 0.

Example:
  $ printf '1\\n1 2 1\\n2 1 2\\n0 0 0\\n' | games-cli board-eval
  2")]
pub struct BoardEvalArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    output: OutputArgs,
    #[command(flatten)]
    algorithm: AlgorithmArgs,
}

/// Writes the answer of one case as `output` asks: the judge's line (or its JSON line with
/// `value`, first player's side, where the answer gives it), with `--analyze` the explanation
/// after it (or the JSON line of the analysis).
#[allow(clippy::too_many_arguments)]
fn write_case(
    output: &OutputArgs,
    out: &mut dyn Write,
    analyze: impl FnOnce(&Position) -> Result<Analysis<Cell>, SolveError>,
    case: usize,
    pos: &Position,
    answer: String,
    value: Option<i64>,
    value_note: &str,
) -> Result<()> {
    if !output.analyze {
        let to_move = pos.to_move().to_string();
        crate::report::write_answer(output, out, case, &to_move, value, &answer)?;
        return Ok(());
    }
    let g = pos.geometry();
    let analysis = analyze(pos)?;
    let front = TicTacToeFront::with_geometry(g);
    let report = CaseReport::new(&front, case, answer, &analysis);
    report.write(output, out, &front.draw(pos), &front.score_text(pos), value_note)?;
    Ok(())
}

/// A board size `ROWSxCOLS` (e.g. `4x4`), each at least 1.
fn parse_size(text: &str) -> Result<(usize, usize), String> {
    game_front::parse_size(text, "ROWSxCOLS", "4x4")
}

/// A cell as `r,c` (0-based row and column), as the front writes it.
fn cell_text(geometry: Geometry, cell: Cell) -> String {
    TicTacToeFront::with_geometry(geometry).move_text(&cell)
}

/// Runs `winning-move`.
pub fn run_winning_move(args: &WinningMoveArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let (rows, cols) = args.size;
    let k = args.k.unwrap_or(rows.min(cols));
    let geometry = Geometry::new(rows, cols, k)?;
    let game = MnkGame::new(geometry, Scoring::WinLoss);
    let tt_bits = default_tt_bits(geometry);
    let threads = crate::common::thread_count(args.threads);
    let mut solver = WinningMove::with_threads(geometry, tt_bits, threads);
    let mut unfinished = Vec::new();
    let mut answer = |case: usize, pos: &Position, out: &mut dyn Write| -> Result<()> {
        let note = "x's side: +1 x wins, 0 draw, -1 o wins";
        // A winning move proves x's win; without one the answer does not tell a draw from a loss.
        let won = |found: Option<Cell>| found.map(|_| 1);
        let text = |found: Option<Cell>| match found {
            Some(cell) => format!("({})", cell_text(geometry, cell)),
            None => "#####".to_string(),
        };
        if args.long.one_case() {
            anyhow::ensure!(case == 1, "case {case}: --checkpoint and --store take one case per run");
            let found = match root_solve(&args.long, pos, tt_bits, threads)? {
                Ok(found) => found,
                Err(stop) => {
                    if args.output.format == crate::common::Format::Json {
                        writeln!(out, "{}", serde_json::json!({ "case": case, "finished": false }))?;
                    } else {
                        writeln!(out, "not finished")?;
                    }
                    unfinished.push((case, stop));
                    return Ok(());
                }
            };
            return write_case(
                &args.output,
                out,
                |p| solver.analyze(p),
                case,
                pos,
                text(found),
                won(found),
                note,
            );
        }
        let Some(time) = args.long.time_limit else {
            let found = if args.algorithm.algorithm.is_some() {
                first_winning_move(&args.algorithm, &game, case, pos, tt_bits)
            } else {
                find_with_spinner(&mut solver, pos)?
            };
            return write_case(
                &args.output,
                out,
                |p| solver.analyze(p),
                case,
                pos,
                text(found),
                won(found),
                note,
            );
        };
        // Under the time limit: the answer, then (if asked) the analysis, each within it.
        let started = std::time::Instant::now();
        let found = solver.try_find(pos, time)?;
        let analysis = match (&found, args.output.analyze) {
            (Ok(_), true) => Some(solver.try_analyze(pos, time.saturating_sub(started.elapsed()))?),
            _ => None,
        };
        match (found, analysis) {
            (Ok(found), None) => {
                write_case(&args.output, out, |_| unreachable!(), case, pos, text(found), won(found), note)
            }
            (Ok(found), Some(Ok(analysis))) => {
                write_case(&args.output, out, |_| Ok(analysis), case, pos, text(found), won(found), note)
            }
            (Err(_), _) | (Ok(_), Some(Err(_))) => {
                if args.output.format == crate::common::Format::Json {
                    writeln!(out, "{}", serde_json::json!({ "case": case, "finished": false }))?;
                } else {
                    writeln!(out, "not finished")?;
                }
                unfinished.push((case, long_solve::Stop::TimeLimit));
                Ok(())
            }
        }
    };
    if args.empty {
        answer(1, &Position::empty(geometry), out)?;
    } else {
        for case in parse_uva_from(args.input.reader()?, geometry) {
            let case = case?;
            answer(case.number, &case.position, out)
                .with_context(|| format!("line {}: case {}", case.line, case.number))?;
        }
    }
    if unfinished.is_empty() {
        return Ok(());
    }
    Err(long_solve::unfinished_error("case", &unfinished))
}

/// The first winning cell of `pos` (row-major) by the root driver
/// ([`long_solve::solve`]) with `--checkpoint`: the win / draw / loss game, each cell
/// in order asked "does x win after it?" until one does (the cells before it are proven not to
/// win). `Ok(Err(stop))` when a limit (time, node budget) stops it first.
fn root_solve(
    args: &long_solve::LongSolveArgs,
    pos: &Position,
    tt_bits: u32,
    threads: usize,
) -> Result<Result<Option<Cell>, long_solve::Stop>> {
    if pos.is_over() {
        return Ok(Ok(None));
    }
    let geometry = pos.geometry();
    let options = search_core::SearchOptions { tt_bits, threads, ..search_core::SearchOptions::DEFAULT };
    let mut engine = Engine::with_options(MnkGame::new(geometry, Scoring::WinLoss), options);
    let front = TicTacToeFront::with_geometry(geometry);
    let solved = long_solve::solve_game(&front, pos, &mut engine, pos, args, false)?;
    if let Some(stop) = solved.stop {
        return Ok(Err(stop));
    }
    // Generation order is row-major: the first move proven to win is the answer.
    Ok(Ok(solved.result.checkpoint.moves.iter().find(|m| m.lo >= 1).map(|m| m.mv)))
}

/// [`WinningMove::find`], with a spinner on stderr when it is a terminal and the solve runs
/// past a million nodes: what is being proven, nodes, nodes per second, elapsed time.
fn find_with_spinner(solver: &mut WinningMove, pos: &Position) -> Result<Option<Cell>, SolveError> {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return solver.find(pos);
    }
    let g = pos.geometry();
    let me = pos.to_move();
    let mut bar: Option<indicatif::ProgressBar> = None;
    let found = solver.find_with_progress(pos, 1 << 20, &mut |p: &FindProgress| {
        let question = match p.question {
            Question::MakerBreaker => {
                format!("can {me} complete a line at all, {} only blocking (Maker-Breaker)?", me.opponent())
            }
            Question::Win => format!("does {me} win?"),
            Question::WinAfter(cell) => format!("does {me} win after {}?", cell_text(g, cell)),
        };
        let bar = bar.get_or_insert_with(|| crate::common::progress_spinner().expect("stderr is a terminal"));
        bar.set_message(format!(
            "proving: {question} {} nodes, {:.0} nodes/s, {:.0?}",
            p.nodes,
            p.nodes_per_second(),
            p.elapsed
        ));
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    found
}

/// The first cell (row-major) after which x, to move in `pos`, has a forced win, with every
/// value computed by `--algorithm` (as [`WinningMove::find`] answers it with its own solver).
fn first_winning_move(
    args: &AlgorithmArgs,
    game: &MnkGame,
    case: usize,
    pos: &Position,
    tt_bits: u32,
) -> Option<Cell> {
    let mut total = search_core::Stats::default();
    let value = if pos.is_over() { 0 } else { args.value_quiet(game, pos, tt_bits, &mut total) };
    let found = (value > 0)
        .then(|| {
            // The child's value is from o's side: -1 means x wins.
            pos.legal_moves()
                .find(|&cell| args.value_quiet(game, &game.play(pos, cell).0, tt_bits, &mut total) < 0)
        })
        .flatten();
    args.report(case, value, &total);
    found
}

/// Runs `board-eval`.
pub fn run_board_eval(args: &BoardEvalArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut eval = BoardEval::new(Geometry::CCF);
    for case in parse_ccf_from(args.input.reader()?) {
        let case = case?;
        let score = if args.algorithm.algorithm.is_some() {
            let game = MnkGame::new(Geometry::CCF, Scoring::EmptyPlusOne);
            let pos = &case.position;
            let v = args.algorithm.value(case.number, &game, pos, default_tt_bits(Geometry::CCF));
            game.to_move(pos).sign() * v
        } else {
            eval.evaluate(&case.position)?
        };
        let note = "CCF score, Alice's side: a win scores empty cells + 1";
        let pos = &case.position;
        write_case(
            &args.output,
            out,
            |p| eval.analyze(p),
            case.number,
            pos,
            score.to_string(),
            Some(score),
            note,
        )?;
    }
    Ok(())
}
