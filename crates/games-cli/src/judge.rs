//! The judge subcommands, built from each registered [`Problem`]: [`command`] makes the
//! subcommand (the problem's own options plus the shared groups its [`game_front::Features`]
//! offer), [`run`] reads the input, hands each case to the problem or to the long-solve root
//! driver, and prints each [`Reply`] as the judge's line, its JSON line or its explanation.

use std::io::{self, IsTerminal, Write};

use anyhow::Result;
use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use game_front::{LongDone, Numbered, Problem, ProblemOptions, Reply, Request, Tables};
use long_solve::Stop;
use serde::Serialize;

use crate::common::{AlgorithmArgs, Format, InputArgs, OutputArgs, TableArgs};

/// The subcommand of problem `P`.
pub fn command<P: Problem>() -> Command {
    let features = P::FEATURES;
    let mut cmd = Command::new(P::COMMAND).about(P::ABOUT).after_help(P::AFTER_HELP);
    cmd = InputArgs::augment_args(cmd);
    for spec in P::OPTIONS {
        let mut arg = Arg::new(spec.name).long(spec.name).help(spec.help);
        arg = match spec.value_name {
            None => arg.action(ArgAction::SetTrue),
            // A negative number is a value (`--first-guess -38`), not an option.
            Some(value_name) => {
                arg.value_name(value_name).action(ArgAction::Set).allow_negative_numbers(true)
            }
        };
        if let Some(default) = spec.default {
            arg = arg.default_value(default);
        }
        if let Some(check) = spec.check {
            arg = arg.value_parser(move |text: &str| check(text).map(|()| text.to_string()));
        }
        cmd = cmd.arg(arg);
    }
    if features.empty {
        cmd = cmd.arg(
            Arg::new("empty")
                .long("empty")
                .action(ArgAction::SetTrue)
                .conflicts_with("file")
                .help("Answer the start position (the empty board) without reading input."),
        );
    }
    cmd = match features.table {
        Tables::None => cmd,
        Tables::Threads => cmd.arg(
            Arg::new("threads")
                .long("threads")
                .value_name("N")
                .default_value("1")
                .value_parser(crate::common::threads_parser())
                .help(
                    "Search threads (lazy SMP over a shared TT; the answers do not depend on it); 0 means \
                     every core, at most 256.",
                ),
        ),
        Tables::Full => TableArgs::augment_args(cmd),
    };
    if features.long {
        cmd = long_solve::LongSolveArgs::augment_args(cmd);
    }
    if features.book {
        cmd = cmd.arg(
            Arg::new("book")
                .long("book")
                .value_name("FILE")
                .value_parser(clap::value_parser!(std::path::PathBuf))
                .help(
                    "An opening book (`cargo xtask book`) of this board: positions within its depth are \
                     answered from it, the others searched faster; the answers do not depend on it. \
                     Without it, the book bundled for the board (Connect Four 7x6: 8 plies) is read.",
                ),
        );
        cmd = cmd.arg(
            Arg::new("no_book").long("no-book").action(clap::ArgAction::SetTrue).conflicts_with("book").help(
                "Read no opening book, not even the one bundled for the board (the answers are the same).",
            ),
        );
    }
    cmd = OutputArgs::augment_args(cmd);
    if features.algorithm {
        cmd = AlgorithmArgs::augment_args(cmd);
        if features.long {
            cmd = cmd.group(
                clap::ArgGroup::new("root_driver")
                    .args(["time_limit", "checkpoint", "store"])
                    .multiple(true)
                    .conflicts_with_all(["algorithm", "stats"]),
            );
        }
    }
    cmd
}

/// The shared options as read from a problem's subcommand.
struct Shared {
    input: InputArgs,
    output: OutputArgs,
    long: Option<long_solve::LongSolveArgs>,
    algorithm: Option<AlgorithmArgs>,
}

/// Runs problem `P`'s subcommand with its parsed `matches`, printing to `out`.
///
/// # Errors
/// Bad options or input (naming the line), a solve refused; a run with cases stopped by a
/// limit ends with [`long_solve::Incomplete`] after every case was printed.
pub fn run<P: Problem>(matches: &ArgMatches, out: &mut dyn Write) -> Result<()> {
    let features = P::FEATURES;
    let shared = Shared {
        input: InputArgs::from_arg_matches(matches)?,
        output: OutputArgs::from_arg_matches(matches)?,
        long: features.long.then(|| long_solve::LongSolveArgs::from_arg_matches(matches)).transpose()?,
        algorithm: features.algorithm.then(|| AlgorithmArgs::from_arg_matches(matches)).transpose()?,
    };
    let (threads, tt_bits) = match features.table {
        Tables::None => (1, None),
        Tables::Threads => {
            (crate::common::thread_count(*matches.get_one::<u16>("threads").unwrap_or(&1)), None)
        }
        Tables::Full => {
            let table = TableArgs::from_arg_matches(matches)?;
            (table.threads(), table.tt_bits_with::<P::Search>(&P::table_options())?)
        }
    };
    let mut values = Vec::new();
    let mut flags = Vec::new();
    for spec in P::OPTIONS {
        match spec.value_name {
            None if matches.get_flag(spec.name) => flags.push(spec.name),
            None => {}
            Some(_) => values.push((spec.name, matches.get_one::<String>(spec.name).cloned())),
        }
    }
    let long = shared.long.as_ref();
    let book = match matches.try_get_one::<std::path::PathBuf>("book") {
        Ok(Some(path)) => Some(crate::common::read_book(path)?),
        _ => None,
    };
    let request = Request {
        analyze: shared.output.analyze,
        json: shared.output.format == Format::Json,
        empty: features.empty && matches.get_flag("empty"),
        threads,
        tt_bits,
        time_limit: long.and_then(|l| l.time_limit),
        long: long.is_some_and(long_solve::LongSolveArgs::is_set),
        one_case: long.is_some_and(long_solve::LongSolveArgs::one_case),
        algorithm: shared.algorithm.as_ref().and_then(|a| a.algorithm),
        terminal: std::io::stderr().is_terminal(),
        memory_available: crate::memory::mem_available(),
        book,
        no_book: matches.try_get_one::<bool>("no_book").ok().flatten().copied().unwrap_or(false),
    };
    let mut problem = P::new(&ProblemOptions::new(values, flags), &request).map_err(anyhow::Error::msg)?;
    if let Some(bytes) = problem.table_bytes() {
        crate::huge_pages::reexec_for_table(bytes);
    }
    // A problem's own proofs beside the checkpoint (`FILE.proofs`): read before the first case,
    // written after each one.
    let proofs = long
        .and_then(|l| l.checkpoint.as_deref())
        .filter(|_| P::KEEPS_PROOFS)
        .map(long_solve::snapshot::proofs_path);
    if let Some(path) = proofs.as_deref().filter(|p| p.exists()) {
        let bytes =
            long_solve::store::read_regular_file("proofs", path, long_solve::snapshot::MAX_PROOFS_BYTES)?;
        let read = problem.restore_proofs(&bytes).map_err(|e| {
            anyhow::anyhow!("proofs {}: {e}; refused (delete it to start afresh)", path.display())
        })?;
        eprintln!("games-cli: read {read} proven positions from {}", path.display());
    }
    let mut unfinished: Vec<(usize, Stop)> = Vec::new();
    let mut last_bounds = String::new();
    let mut answered = 0;
    let mut each =
        |problem: &mut P, Numbered { number, case }: Numbered<P::Case>, out: &mut dyn Write| -> Result<()> {
            answered += 1;
            let unit = features.unit;
            anyhow::ensure!(
                answered == 1 || !request.one_case,
                "{unit} {number}: --checkpoint and --store take one {unit} per run"
            );
            // What a problem proves before its long job (winning-move's Maker-Breaker
            // question): one line every `--save-every` when standard error is a log, the latest
            // on a spinner on a terminal.
            let every = long.map_or(std::time::Duration::from_secs(300), |l| l.save_every);
            let job = {
                let mut report = crate::common::ProgressReport::new(request.terminal, Some(every));
                problem.long_job(&case, &request, &mut |message: &str| report.report(message))
            };
            let reply = match (long, job) {
                (Some(args), Some(job)) => {
                    let solved = long_solve::solve_game(
                        job.solvable,
                        &job.root,
                        job.engine,
                        &job.pos,
                        args,
                        job.exact_all,
                    )?;
                    let done = LongDone {
                        result: solved.result,
                        stopped: solved.stop.map(|s| s == Stop::NodeBudget),
                        stats: solved.stats,
                        known_pv: solved.known_pv,
                    };
                    problem.long_reply(number, &case, &request, done)?
                }
                _ => {
                    let mut report = crate::common::ProgressReport::new(request.terminal, None);
                    problem.answer(number, &case, &request, &mut |message: &str| report.report(message))?
                }
            };
            if let Some(path) = &proofs {
                long_solve::snapshot::write_bytes_atomically("proofs", path, &problem.proofs())?;
            }
            if let Some(stop) = print(&shared, number, &reply, out)? {
                if let Reply::Unfinished { bounds, .. } = &reply {
                    last_bounds.clone_from(bounds);
                }
                unfinished.push((number, stop));
            }
            out.flush()?;
            Ok(())
        };
    if request.empty {
        let case = problem.empty_case();
        each(&mut problem, Numbered { number: 1, case }, out)?;
        if features.unit == "game" {
            if let Some(&(_, stop)) = unfinished.first() {
                return Err(long_solve::stopped("game 1", stop, &last_bounds));
            }
        }
    } else {
        for case in problem.read(shared.input.reader()?) {
            each(&mut problem, case?, out)?;
        }
    }
    if unfinished.is_empty() {
        return Ok(());
    }
    Err(long_solve::unfinished_error(features.unit, &unfinished))
}

/// Prints `reply` to case `number` as the shared options ask; returns what stopped it when it
/// is unfinished.
fn print(shared: &Shared, number: usize, reply: &Reply, out: &mut dyn Write) -> Result<Option<Stop>> {
    let output = &shared.output;
    match reply {
        Reply::Answer { answer, to_move, value, explained, algorithm, json } => {
            if let (Some(args), Some((v, stats))) = (&shared.algorithm, algorithm) {
                args.report(number, *v, stats);
            }
            match explained {
                None => match (json, output.format) {
                    (Some(json), Format::Json) => writeln!(out, "{json}")?,
                    _ => write_answer(output, out, number, to_move, *value, answer)?,
                },
                Some(explained) => match output.format {
                    Format::Json => {
                        serde_json::to_writer(&mut *out, &explained.report)?;
                        writeln!(out)?;
                    }
                    Format::Judge => {
                        writeln!(out, "{answer}")?;
                        let block =
                            explained.report.text_block(&explained.board, &explained.score, explained.note);
                        out.write_all(block.as_bytes())?;
                    }
                },
            }
            Ok(None)
        }
        Reply::Unfinished { text, json, by_node_budget, .. } => {
            match output.format {
                Format::Json => writeln!(out, "{json}")?,
                Format::Judge => writeln!(out, "{text}")?,
            }
            Ok(Some(if *by_node_budget { Stop::NodeBudget } else { Stop::TimeLimit }))
        }
    }
}

/// One case answered without an analysis: the keys of a `--format json` line without
/// `--analyze`, in order. It costs what the judge's answer costs: no move values, no principal
/// variation.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
struct ValueReport<'a> {
    /// 1-based case number.
    pub case: usize,
    /// Who is to move: `"A"`/`"B"`, `"Black"`/`"White"`, `"x"`/`"o"`, `"X"`/`"O"`.
    pub to_move: &'a str,
    /// Final result under perfect play, first player's side (as [`game_front::CaseReport::value`]); absent
    /// where the judge's answer does not give it (a Find the Winning Move case with no winning
    /// move: a draw or a loss).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
    /// The judge's answer text for this case.
    pub answer: &'a str,
}

/// Writes one case answered without an analysis as `output` asks: the judge's `answer` line,
/// or with `--format json` its [`ValueReport`] line.
fn write_answer(
    output: &OutputArgs,
    out: &mut dyn Write,
    case: usize,
    to_move: &str,
    value: Option<i64>,
    answer: &str,
) -> io::Result<()> {
    match output.format {
        Format::Judge => writeln!(out, "{answer}"),
        Format::Json => {
            serde_json::to_writer(&mut *out, &ValueReport { case, to_move, value, answer })?;
            writeln!(out)
        }
    }
}
