//! [`Problem`]: one contest problem as a judge subcommand sees it (`games-cli triangle-war`),
//! written once in each game crate: its options, how its input reads into cases, how a case
//! is answered (plainly, under a time limit, by a reference algorithm, or by the long-solve
//! root driver through [`Solvable`]) and how the answer reads. The front end builds the
//! subcommand from it, reads the input, prints the [`Reply`] and maps errors to exit codes;
//! the problem does no I/O.

use std::io::BufRead;
use std::time::Duration;

use search_core::reference::Algorithm;
use search_core::{Game, RootResult, Stats, Value};

use crate::report::CaseReport;
use crate::Solvable;

/// A check of an option's value: `Err` with what was expected.
pub type ValueCheck = fn(&str) -> Result<(), String>;

/// One option of a problem beyond the shared ones (input, output, table, long solves,
/// algorithm): a flag when `value_name` is `None`, else an option taking one value.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// The long name without dashes: `size` for `--size`.
    pub name: &'static str,
    /// The value's placeholder in the help (`WxH`); `None` for a flag.
    pub value_name: Option<&'static str>,
    /// The help line.
    pub help: &'static str,
    /// The default value, if any.
    pub default: Option<&'static str>,
    /// A check of the value's syntax, whose error the front end reports as an invalid value
    /// of the option; `None` accepts any text.
    pub check: Option<ValueCheck>,
}

impl OptionSpec {
    /// A flag `--name`.
    #[must_use]
    pub const fn flag(name: &'static str, help: &'static str) -> Self {
        OptionSpec { name, value_name: None, help, default: None, check: None }
    }

    /// An option `--name VALUE`, checked by `check`, with an optional default.
    #[must_use]
    pub const fn value(
        name: &'static str,
        value_name: &'static str,
        help: &'static str,
        default: Option<&'static str>,
        check: ValueCheck,
    ) -> Self {
        OptionSpec { name, value_name: Some(value_name), help, default, check: Some(check) }
    }
}

/// The shared option groups a problem offers, besides its own [`OptionSpec`]s, the input
/// file and the output options (`--analyze`, `--format`), which every problem has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// `--empty`: answer the start position without reading input.
    pub empty: bool,
    /// The search's table and threads: `--tt-bits`, `--tt-mib` and `--threads` ([`Tables::Full`]),
    /// `--threads` alone, or none.
    pub table: Tables,
    /// The long-solve options: `--time-limit`, `--checkpoint`, `--store`, `--shard`, `--mpi`, ...
    pub long: bool,
    /// `--algorithm` and `--stats`: answer by a reference algorithm instead.
    pub algorithm: bool,
    /// `--book FILE`: an opening book ([`search_core::Book`]) the problem's searches read,
    /// handed over in [`Request::book`].
    pub book: bool,
    /// What the error naming unfinished cases calls a case: `line`, `game`, `case`.
    pub unit: &'static str,
}

/// Which table options a problem offers ([`Features::table`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tables {
    /// None: the problem is answered without a configurable search.
    None,
    /// `--threads` only (the problem sizes its own table).
    Threads,
    /// `--tt-bits`, `--tt-mib` and `--threads`.
    Full,
}

/// The values of a problem's own options as given (defaults filled in), by name.
#[derive(Clone, Debug, Default)]
pub struct ProblemOptions {
    values: Vec<(&'static str, Option<String>)>,
    flags: Vec<&'static str>,
}

impl ProblemOptions {
    /// Options with these `values` (an option not given and without default is `None`) and
    /// these flags set.
    #[must_use]
    pub fn new(values: Vec<(&'static str, Option<String>)>, flags: Vec<&'static str>) -> Self {
        ProblemOptions { values, flags }
    }

    /// The value of option `name`, if given or defaulted.
    #[must_use]
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values.iter().find(|(n, _)| *n == name).and_then(|(_, v)| v.as_deref())
    }

    /// Whether flag `name` was given.
    #[must_use]
    pub fn flag(&self, name: &str) -> bool {
        self.flags.contains(&name)
    }
}

/// How the user asked for cases to be answered: the shared options, read by the front end.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// `--analyze`: every move's value and the principal variation with each answer.
    pub analyze: bool,
    /// `--format json`: the answer's value is printed (the JSON `value` key), not only the
    /// judge's text.
    pub json: bool,
    /// `--empty`.
    pub empty: bool,
    /// Search threads (at least 1).
    pub threads: usize,
    /// The TT size in bits asked for (`--tt-bits`, or from `--tt-mib`); `None`: the
    /// problem's default.
    pub tt_bits: Option<u32>,
    /// `--time-limit`, per case.
    pub time_limit: Option<Duration>,
    /// Any long-solve option given (`--time-limit`, `--checkpoint`, `--store`, ...).
    pub long: bool,
    /// `--checkpoint` or `--store`: one case per run, solved by the root driver.
    pub one_case: bool,
    /// `--algorithm`: answer by this reference algorithm.
    pub algorithm: Option<Algorithm>,
    /// Standard error is a terminal (long solves may then be driven with a progress line).
    pub terminal: bool,
    /// The memory available in bytes (`MemAvailable`), when known: a problem whose solve
    /// would not fit refuses it before allocating.
    pub memory_available: Option<u128>,
    /// `--book`: the opening book read from the file given, verified as a book file
    /// ([`search_core::Book::from_bytes`]); the problem checks that it is its board's
    /// ([`search_core::Book::check`]) and refuses it otherwise.
    pub book: Option<std::sync::Arc<search_core::Book>>,
    /// `--no-book`: read no book unless `--book` gives one (by default a problem whose board has
    /// a bundled book reads it).
    pub no_book: bool,
}

impl Request {
    /// Starts `engine`'s clock under the time limit, if one is given (per case: call it before
    /// each case's searches); without one, nothing changes.
    pub fn start_time_limit<G: Game>(&self, engine: &mut search_core::Engine<G>) {
        if let Some(time) = self.time_limit {
            engine.set_limits(search_core::Limits { time: Some(time), ..search_core::Limits::default() });
            engine.restart_clock();
        }
    }
}

/// One case as read: its number (as the judge counts: line, game or case number) and what it
/// sets up.
#[derive(Clone, Debug)]
pub struct Numbered<C> {
    /// The number the answer and errors name.
    pub number: usize,
    /// The case.
    pub case: C,
}

/// An answer explained (`--analyze`): the report and the text block's parts.
#[derive(Clone, Debug)]
pub struct Explained {
    /// Every move's value, the principal variation and the statistics, in the notation.
    pub report: CaseReport,
    /// The position drawn, one or more lines.
    pub board: String,
    /// The points banked so far, in the game's words.
    pub score: String,
    /// What the value means.
    pub note: &'static str,
}

impl Explained {
    /// The explanation of case `number` at `pos` with the judge's `answer` and `analysis`, in
    /// `front`'s notation, drawing and words.
    #[must_use]
    pub fn of<F: crate::Front>(
        front: &F,
        number: usize,
        answer: &str,
        pos: &crate::Pos<F>,
        analysis: &search_core::Analysis<crate::Move<F>>,
    ) -> Box<Explained> {
        Box::new(Explained {
            report: CaseReport::new(front, number, answer.to_string(), analysis),
            board: front.draw(pos),
            score: front.score_text(pos),
            note: front.value_note(),
        })
    }
}

/// What a problem answers for one case.
#[derive(Clone, Debug)]
pub enum Reply {
    /// The case answered.
    Answer {
        /// The judge's answer text (one line).
        answer: String,
        /// Who is to move, as the game names players.
        to_move: String,
        /// The value under perfect play (first player's side) where the answer gives it.
        value: Option<i64>,
        /// The explanation, when [`Request::analyze`] asked for it.
        explained: Option<Box<Explained>>,
        /// The value and statistics of a reference algorithm ([`Request::algorithm`]), for
        /// `--stats`.
        algorithm: Option<(Value, Stats)>,
        /// The JSON line's object where the problem writes its own (a long solve's, with its
        /// nodes); `None`: the case, who moves, the value and the answer.
        json: Option<serde_json::Value>,
    },
    /// A limit stopped the case: the bounds proven so far.
    Unfinished {
        /// The judge-format line, e.g. `4453 not finished: score in [-2, 5]`.
        text: String,
        /// The JSON line's object.
        json: serde_json::Value,
        /// The bounds in words, e.g. `the final margin in [-1, +3]`, for the error that ends
        /// a run of one case (`--empty`).
        bounds: String,
        /// Whether the root driver's node budget stopped it (else the time limit).
        by_node_budget: bool,
    },
}

/// A case's solve by the long-solve root driver: the engine, the position and the game's
/// [`Solvable`] side ([`Problem::long_job`]).
pub struct LongJob<'a, S: Solvable> {
    /// The game's long-solve side.
    pub solvable: &'a S,
    /// The root as the judge read it.
    pub root: S::Root,
    /// The engine that searches.
    pub engine: &'a mut search_core::Engine<S::G>,
    /// The engine's root position.
    pub pos: <S::G as Game>::Position,
    /// Make every root move's value exact (for an analysis from the driver).
    pub exact_all: bool,
}

/// What the root driver ended with, handed back to [`Problem::long_reply`].
pub struct LongDone<M> {
    /// The driver's result: bounds (side to move), `finished`, the bounds per move.
    pub result: RootResult<M>,
    /// Whether a limit stopped it (`Some(true)`: the node budget, `Some(false)`: the time limit).
    pub stopped: Option<bool>,
    /// The statistics of this run.
    pub stats: Stats,
    /// The start of a principal variation already proven by a split's store.
    pub known_pv: Vec<M>,
}

/// The engine move type of a problem's long solve.
pub type LongMove<P> = <<<P as Problem>::Long as Solvable>::G as Game>::Move;

/// One contest problem: a judge subcommand's options, input and answers.
pub trait Problem: Sized + 'static {
    /// A case as read (a position, with whatever the answer needs: the moves in order, the
    /// board's values).
    type Case;
    /// The game whose table `--tt-mib` sizes.
    type Search: Game;
    /// The game's long-solve side ([`Solvable`]): its engine's game can be searched on
    /// threads, its keys written in checkpoints and stores.
    type Long: Solvable<
        G: Clone + Send + Game<Key: std::fmt::Display + std::str::FromStr + Into<u128>, Position: Send>,
    >;

    /// The subcommand's name: `triangle-war`.
    const COMMAND: &'static str;
    /// One line of help: what it answers.
    const ABOUT: &'static str;
    /// The input and output formats with an example, after the options in the help.
    const AFTER_HELP: &'static str;
    /// The problem's own options, in help order.
    const OPTIONS: &'static [OptionSpec];
    /// The shared option groups it offers.
    const FEATURES: Features;

    /// The problem for these options.
    ///
    /// # Errors
    /// Options that do not make a board (e.g. `--size 9x7: ...`), the table too large.
    fn new(options: &ProblemOptions, request: &Request) -> Result<Self, String>;

    /// The search options whose table `--tt-mib` sizes (their one-thread table and entry
    /// size). Default: [`search_core::SearchOptions::DEFAULT`].
    fn table_options() -> search_core::SearchOptions {
        search_core::SearchOptions::DEFAULT
    }

    /// The bytes of the search table this problem's solves allocate, when large enough for the
    /// front end to prefer huge pages (it may restart itself to get them); `None` otherwise.
    fn table_bytes(&self) -> Option<u64> {
        None
    }

    /// The cases of `input`, each read before it is answered (a bad case ends the reading
    /// after the cases before it were answered). Errors name the line (and column). The
    /// cases hold what they need of the problem (it answers them while they are read).
    fn read<'a>(
        &self,
        input: Box<dyn BufRead + 'a>,
    ) -> Box<dyn Iterator<Item = Result<Numbered<Self::Case>, anyhow::Error>> + 'a>;

    /// The case `--empty` answers: the start position.
    fn empty_case(&self) -> Self::Case;

    /// Answers `case` as `request` asks (under its time limit, by its algorithm); a long
    /// solve may tell `progress` what it is doing, one line at a time (the front end shows
    /// the latest on a terminal and clears it when the case is answered).
    ///
    /// # Errors
    /// A case the solver refuses (too large for the memory, a bad position).
    fn answer(
        &mut self,
        number: usize,
        case: &Self::Case,
        request: &Request,
        progress: &mut dyn FnMut(&str),
    ) -> anyhow::Result<Reply>;

    /// The root driver's job for `case`, when `request` asks for one (`--checkpoint`,
    /// `--store`, or a problem's own choice) and the case needs a search; `None` answers it by
    /// [`Problem::answer`]. A problem that proves something first may tell `progress` about
    /// it, as [`Problem::answer`] does. Default: none.
    fn long_job(
        &mut self,
        _case: &Self::Case,
        _request: &Request,
        _progress: &mut dyn FnMut(&str),
    ) -> Option<LongJob<'_, Self::Long>> {
        None
    }

    /// Whether the problem keeps proofs of its own beside a long solve's checkpoint
    /// ([`Problem::proofs`]; e.g. `winning-move`'s Maker-Breaker proofs, which the root driver
    /// does not hold). Default: `false`.
    const KEEPS_PROOFS: bool = false;

    /// The proofs to keep ([`Problem::KEEPS_PROOFS`]) as bytes: the front end writes them next
    /// to `--checkpoint FILE` (as `FILE.proofs`) after each case, and hands them to
    /// [`Problem::restore_proofs`] when the next run starts. Default: none.
    fn proofs(&self) -> Vec<u8> {
        Vec::new()
    }

    /// Reads proofs an earlier run kept ([`Problem::proofs`]); returns how many.
    ///
    /// # Errors
    /// Bytes of another board, format or solve, or damaged: a message, and nothing is read.
    fn restore_proofs(&mut self, _bytes: &[u8]) -> Result<usize, String> {
        Ok(0)
    }

    /// The reply to `case` from what the root driver ended with.
    ///
    /// # Errors
    /// As [`Problem::answer`].
    fn long_reply(
        &mut self,
        number: usize,
        case: &Self::Case,
        request: &Request,
        done: LongDone<LongMove<Self>>,
    ) -> anyhow::Result<Reply> {
        let _ = done;
        self.answer(number, case, request, &mut |_| {})
    }
}

/// The cases of an input of one position per line (blank and whitespace-only lines skipped),
/// each parsed by `parse(line number, text)` when it is read, for [`Problem::read`].
pub fn read_lines<'a, C: 'a>(
    input: Box<dyn BufRead + 'a>,
    parse: impl FnMut(usize, &str) -> anyhow::Result<C> + 'a,
) -> Box<dyn Iterator<Item = anyhow::Result<Numbered<C>>> + 'a> {
    let mut lines = judge_text::LineReader::new(input);
    let mut parse = parse;
    let mut done = false;
    Box::new(std::iter::from_fn(move || {
        if done {
            return None;
        }
        loop {
            match lines.next_line() {
                Err(e) => {
                    done = true;
                    return Some(Err(e.into()));
                }
                Ok(None) => return None,
                Ok(Some(line)) if line.is_blank() => {}
                Ok(Some(line)) => {
                    let number = line.number;
                    let case = parse(number, line.text);
                    done = case.is_err();
                    return Some(case.map(|case| Numbered { number, case }));
                }
            }
        }
    }))
}

/// Generic code run on the problem a registry picked by name ([`VisitProblem::visit`] is
/// called with the concrete problem type), as [`crate::Visit`] does for fronts.
pub trait VisitProblem {
    /// What the visit returns.
    type Output;
    /// Runs on problem `P`.
    fn visit<P: Problem>(self) -> Self::Output;
}
