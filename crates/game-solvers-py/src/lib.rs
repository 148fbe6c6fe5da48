#![doc = include_str!("../README.md")]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, PoisonError, TryLockError};
use std::time::{Duration, Instant, SystemTime};

use game_front::{Front, Session, Solver as _, SolverSettings, Visit};
use pyo3::create_exception;
use pyo3::exceptions::{
    PyException, PyMemoryError, PyOSError, PyOverflowError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};
use search_core::{Analysis, Book, BookError, Interrupted, Limits, PackedMove, Player, INFINITY};

create_exception!(_native, SearchInterrupted, PyException, "A search stopped by its time limit; `args` = (message, lo, hi): the bounds proven on the value for the player to move.");

/// OpenSpiel's player id of a terminal state.
const TERMINAL_PLAYER: i64 = -4;

/// An analysis with actions as ids and values for the player to move.
struct Explained {
    /// The value for the player to move.
    value: i64,
    /// Every legal action with its value for the player to move, best first (empty when
    /// only the value was asked).
    moves: Vec<(u16, i64, String)>,
    /// The principal variation as action ids (empty when only the value was asked).
    pv: Vec<u16>,
    /// Positions searched by the analysis (0 when only the value was asked).
    nodes: u64,
}

/// What a solve computes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Job {
    /// The value alone (one search).
    Value,
    /// The value, every move's value and a principal variation.
    Analysis,
}

/// A game state of any registered front, behind one object-safe interface.
trait AnyState: Send {
    fn name(&self) -> &'static str;
    fn params(&self) -> &[(String, String)];
    fn to_move(&self) -> Option<Player>;
    fn final_value(&self) -> Option<i64>;
    fn legal_actions(&self) -> Result<Vec<u16>, String>;
    fn apply(&mut self, action: u16) -> Result<(), String>;
    fn apply_text(&mut self, text: &str) -> Result<u16, String>;
    fn undo(&mut self) -> bool;
    fn history(&self) -> Result<Vec<u16>, String>;
    fn setup(&self) -> Option<&str>;
    fn draw(&self) -> String;
    fn setup_text(&self) -> String;
    fn action_text(&self, action: u16) -> Result<String, String>;
    /// Whether the front's solver reads `book` ([`Front::check_book`]).
    fn check_book(&self, book: &Book) -> Result<(), BookError>;
    /// Solves the non-terminal position under `limits` with a solver searching as `settings`
    /// say; `Err` carries the bounds proven on the value for the player to move.
    fn explain(
        &mut self,
        job: Job,
        settings: SolverSettings,
        limits: Limits,
    ) -> Result<Result<Explained, String>, Interrupted>;
}

/// [`AnyState`] of front `F`: a session, what re-opens it (for `clone`), and the settings its
/// solver was made with: `None` while it is the small placeholder a new state gets
/// ([`PLACEHOLDER`]), so that making, copying and unpickling states allocates no table; the
/// first solve makes the real one.
struct StateOf<F: Front> {
    name: &'static str,
    params: Vec<(String, String)>,
    setup: Option<String>,
    session: Session<F>,
    settings: Option<SolverSettings>,
}

/// The solver of a state no solve has asked for yet: a table of at most 2^4 entries (legal
/// moves and play need no table).
const PLACEHOLDER: SolverSettings = SolverSettings {
    threads: None,
    tt_bytes: None,
    max_tt_bits: Some(4),
    book: None,
    no_bundled_book: false,
};

/// The action id of a move: its code in the engine. A move without one (a cell of the
/// Young-diagram game beyond row or column 31) is an error, not a panic.
fn code<M: PackedMove>(mv: M) -> Result<u16, String> {
    mv.pack().ok_or_else(|| {
        "a move here has no action id (the Young-diagram game's ids cover rows and columns 0 to 31)"
            .to_string()
    })
}

impl<F: Front> StateOf<F> {
    fn find(&self, action: u16) -> Option<game_front::Move<F>> {
        self.session.legal_moves().into_iter().find(|&m| code(m) == Ok(action))
    }
}

impl<F: Front> AnyState for StateOf<F> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn params(&self) -> &[(String, String)] {
        &self.params
    }
    fn to_move(&self) -> Option<Player> {
        self.session.final_value().is_none().then(|| self.session.to_move())
    }
    fn final_value(&self) -> Option<i64> {
        self.session.final_value()
    }
    fn legal_actions(&self) -> Result<Vec<u16>, String> {
        self.session.legal_moves().into_iter().map(code).collect()
    }
    fn apply(&mut self, action: u16) -> Result<(), String> {
        match self.find(action) {
            Some(mv) => {
                self.session.play(mv);
                Ok(())
            }
            None => {
                Err(format!("action {action} is not legal here: legal actions {:?}", self.legal_actions()?))
            }
        }
    }
    fn apply_text(&mut self, text: &str) -> Result<u16, String> {
        code(self.session.play_text(text)?)
    }
    fn undo(&mut self) -> bool {
        self.session.undo()
    }
    fn history(&self) -> Result<Vec<u16>, String> {
        self.session.moves().into_iter().map(code).collect()
    }
    fn setup(&self) -> Option<&str> {
        self.setup.as_deref()
    }
    fn draw(&self) -> String {
        self.session.front().draw(self.session.position())
    }
    fn setup_text(&self) -> String {
        self.session.setup_text()
    }
    fn action_text(&self, action: u16) -> Result<String, String> {
        let mv = self
            .session
            .moves()
            .into_iter()
            .chain(self.session.legal_moves())
            .find(|&m| code(m) == Ok(action))
            .ok_or_else(|| format!("action {action} is not a move here"))?;
        Ok(self.session.front().move_text(&mv))
    }
    fn check_book(&self, book: &Book) -> Result<(), BookError> {
        self.session.front().check_book(book)
    }
    fn explain(
        &mut self,
        job: Job,
        settings: SolverSettings,
        limits: Limits,
    ) -> Result<Result<Explained, String>, Interrupted> {
        if self.settings.as_ref() != Some(&settings) {
            let solver = self.session.front().solver(settings.clone());
            *self.session.solver() = solver;
            self.settings = Some(settings);
        }
        let sign = self.session.to_move().sign();
        let (front, solver, pos) = self.session.parts();
        let started = Instant::now();
        // The value first, so that a stop has bounds on this position's value.
        let value = solver.try_value(pos, limits.clone())?;
        if job == Job::Value {
            return Ok(Ok(Explained { value, moves: Vec::new(), pv: Vec::new(), nodes: 0 }));
        }
        let proven = Interrupted { lo: value, hi: value };
        // The time limit counts for both searches together.
        let time = match limits.time {
            Some(t) => Some(t.checked_sub(started.elapsed()).filter(|left| !left.is_zero()).ok_or(proven)?),
            None => None,
        };
        let analysis: Analysis<_> = solver.try_analyze(pos, Limits { time, ..limits }).map_err(|_| proven)?;
        let moves = analysis.moves.iter().map(|m| Ok((code(m.mv)?, sign * m.value, front.move_text(&m.mv))));
        let pv: Result<Vec<u16>, String> = analysis.pv.iter().map(|&m| code(m)).collect();
        Ok(moves
            .collect::<Result<_, String>>()
            .and_then(|moves| Ok(Explained { value, moves, pv: pv?, nodes: analysis.stats.nodes })))
    }
}

/// Opens a registered game in a fresh [`AnyState`], replaying `setup` (judge text) if given.
struct Open {
    params: Vec<(String, String)>,
    setup: Option<String>,
}

impl Visit for Open {
    type Output = Result<Box<dyn AnyState>, String>;
    fn visit<F: Front>(self, front: F) -> Self::Output {
        let session = match &self.setup {
            Some(text) => Session::from_setup(front, text, PLACEHOLDER)?,
            None => Session::with_settings(front, PLACEHOLDER),
        };
        Ok(Box::new(StateOf {
            name: F::NAME,
            params: self.params,
            setup: self.setup,
            session,
            settings: None,
        }))
    }
}

fn open(name: &str, params: &[(String, String)], setup: Option<String>) -> PyResult<Box<dyn AnyState>> {
    let pairs: Vec<(&str, &str)> = params.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    game_registry::visit(name, &pairs, Open { params: params.to_vec(), setup })
        .map_err(|e| PyValueError::new_err(e.to_string()))?
        .map_err(PyValueError::new_err)
}

/// Opens `name` with `params` (and `setup`) and plays `history` after the setup's own moves
/// (which `history` starts with): a copy of a state, or a pickled one.
fn replay(
    name: &str,
    params: &[(String, String)],
    setup: Option<String>,
    history: &[u16],
) -> PyResult<Box<dyn AnyState>> {
    let mut state = open(name, params, setup)?;
    let own = state.history().map_err(PyValueError::new_err)?;
    if !history.starts_with(&own) {
        return Err(PyValueError::new_err(format!(
            "the history {history:?} does not start with the setup's own moves {own:?}"
        )));
    }
    for &a in &history[own.len()..] {
        state.apply(a).map_err(PyValueError::new_err)?;
    }
    Ok(state)
}

/// Text given to the module: a Python `str` that is valid Unicode (a lone surrogate raises
/// `ValueError`, not `UnicodeEncodeError`); another type raises `TypeError`.
struct Text(String);

impl<'py> FromPyObject<'py> for Text {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        let s = ob.downcast::<PyString>()?;
        match s.to_cow() {
            Ok(text) => Ok(Text(text.to_string())),
            Err(_) => Err(PyValueError::new_err("the text is not valid Unicode (it holds a lone surrogate)")),
        }
    }
}

/// A game: its name and board parameters (`load_game`).
#[pyclass(module = "game_solvers", frozen)]
struct Game {
    name: &'static str,
    params: Vec<(String, String)>,
    /// What `returns()` are (the game string's `utility_margin`).
    utility: Utility,
    /// The game string's name with `_` (OpenSpiel's short name: `mnk` or `tic_tac_toe`).
    short_name: Arc<str>,
}

/// What a state's `returns()` are, as OpenSpiel's for the same game string.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Utility {
    /// 1 / 0 / -1 for a win, a draw, a loss (OpenSpiel's Connect Four, tic-tac-toe, m,n,k,
    /// dots-and-boxes by default; this module's choice for the other games).
    WinLoss,
    /// The final margin in the game's points (dots-and-boxes with `utility_margin=true`).
    Margin,
}

impl Utility {
    /// The returns of a final result `value` (first player's side, in the game's points).
    fn returns(self, value: i64) -> [f64; 2] {
        let r = match self {
            Utility::WinLoss => value.signum() as f64,
            Utility::Margin => value as f64,
        };
        [r, -r]
    }
}

/// The game string `spec` without its `utility_margin` (OpenSpiel's parameter of
/// dots-and-boxes: the returns are the margin of boxes when `true`, win / draw / loss when
/// `false`, its default), and what the returns are.
fn utility_margin(spec: &str) -> PyResult<(String, Utility)> {
    let Some((name, rest)) = spec.trim().split_once('(') else {
        return Ok((spec.to_string(), Utility::WinLoss));
    };
    let Some(inner) = rest.strip_suffix(')') else {
        return Ok((spec.to_string(), Utility::WinLoss));
    };
    let mut utility = Utility::WinLoss;
    let mut kept = Vec::new();
    for item in inner.split(',') {
        match item.split_once('=') {
            Some((key, value)) if key.trim() == "utility_margin" => {
                if name.trim().replace('_', "-") != "dots-and-boxes" {
                    return Err(PyValueError::new_err(format!(
                        "utility_margin is a parameter of dots_and_boxes only, not of {}",
                        name.trim()
                    )));
                }
                utility = match value.trim().to_ascii_lowercase().as_str() {
                    "true" => Utility::Margin,
                    "false" => Utility::WinLoss,
                    other => {
                        return Err(PyValueError::new_err(format!(
                            "utility_margin: expected true or false, found {other:?}"
                        )))
                    }
                };
            }
            _ => kept.push(item),
        }
    }
    let spec = if kept.iter().all(|i| i.trim().is_empty()) {
        name.to_string()
    } else {
        format!("{name}({})", kept.join(","))
    };
    Ok((spec, utility))
}

#[pymethods]
impl Game {
    /// The registered name, e.g. `connect-four`.
    #[getter]
    fn name(&self) -> &'static str {
        self.name
    }

    /// The board parameters given, as a dict of strings.
    fn parameters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.params {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// The start position.
    fn new_initial_state(&self) -> PyResult<State> {
        Ok(State::new(open(self.name, &self.params, None)?, self.utility, Arc::clone(&self.short_name)))
    }

    /// The position of one case of the game's judge input format (a DBN line, a move string,
    /// a UVa board, the Young-diagram game's value tables, ...).
    fn new_state_from_text(&self, text: Text) -> PyResult<State> {
        Ok(State::new(
            open(self.name, &self.params, Some(text.0))?,
            self.utility,
            Arc::clone(&self.short_name),
        ))
    }

    /// OpenSpiel's short name of the game string's game (`connect_four`, `mnk`, `tic_tac_toe`,
    /// `dots_and_boxes`; `triangle_war`, `young_chess`).
    #[getter]
    fn short_name(&self) -> &str {
        &self.short_name
    }

    fn __repr__(&self) -> String {
        let margin = (self.utility == Utility::Margin).then(|| "utility_margin=true".to_string());
        let params: Vec<String> = self.params.iter().map(|(k, v)| format!("{k}={v}")).chain(margin).collect();
        format!("load_game({:?})", format!("{}({})", self.name, params.join(",")))
    }
}

/// A position of a game in progress.
#[pyclass(module = "game_solvers", frozen)]
struct State {
    inner: Mutex<Box<dyn AnyState>>,
    utility: Utility,
    short_name: Arc<str>,
}

impl State {
    fn new(inner: Box<dyn AnyState>, utility: Utility, short_name: Arc<str>) -> Self {
        State { inner: Mutex::new(inner), utility, short_name }
    }

    /// Runs `f` on the state. If another thread holds it (a solve in progress), waits with the
    /// GIL released, so that the solving thread can still reach Python (Ctrl-C checks). A panic
    /// in `f` (a bug) is a `RuntimeError`, never a panic reaching Python.
    fn with<T>(&self, py: Python<'_>, f: impl FnOnce(&mut dyn AnyState) -> T) -> PyResult<T> {
        let mut guard = loop {
            match self.inner.try_lock() {
                Ok(guard) => break guard,
                Err(TryLockError::Poisoned(poisoned)) => break poisoned.into_inner(),
                Err(TryLockError::WouldBlock) => py.allow_threads(|| drop(self.inner.lock())),
            }
        };
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(guard.as_mut()))).map_err(|_| bug())
    }

    /// Solves on a thread of its own with the GIL released; the calling thread wakes every
    /// [`SIGNAL_CHECK`] to run Python's signal handlers (Ctrl-C's `KeyboardInterrupt`), which
    /// raise the search's stop flag.
    fn explain(&self, py: Python<'_>, job: Job, options: &SolveOptions) -> PyResult<Explained> {
        let (mut settings, time) = options.check()?;
        if let Some(BookArg::Off) = &options.book {
            settings.no_bundled_book = true;
        }
        if let Some(BookArg::File(path)) = &options.book {
            let book = load_book(py, path)?;
            self.with(py, |s| s.check_book(&book))?.map_err(|e| book_error(path, &e))?;
            settings.book = Some(book);
        }
        let stop = Arc::new(AtomicBool::new(false));
        let limits = Limits { stop: Some(Arc::clone(&stop)), time, max_nodes: None };
        let inner = &self.inner;
        std::thread::scope(|scope| {
            let (done, finished) = mpsc::channel::<()>();
            let worker = scope.spawn(move || {
                // The state is held from the check to the end of the solve: another thread's
                // move waits, so that the answer is about the position checked.
                let mut guard = inner.lock().unwrap_or_else(PoisonError::into_inner);
                let result = if guard.final_value().is_some() {
                    None
                } else {
                    Some(guard.explain(job, settings, limits))
                };
                drop(guard);
                // The receiver may be gone (the caller returned on a signal): nothing to tell.
                let _ = done.send(());
                result
            });
            let mut finished = Some(finished);
            loop {
                let rx = finished.take().expect("the receiver is put back after each wait");
                let (rx, state) = py.allow_threads(move || {
                    let state = rx.recv_timeout(SIGNAL_CHECK);
                    (rx, state)
                });
                finished = Some(rx);
                if !matches!(state, Err(mpsc::RecvTimeoutError::Timeout)) {
                    break;
                }
                if let Err(signal) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    // The search stops within a few thousand nodes of each thread.
                    let _ = py.allow_threads(|| worker.join());
                    return Err(signal);
                }
            }
            match py.allow_threads(|| worker.join()) {
                Ok(None) => Err(PyValueError::new_err("the game is over: nothing to solve")),
                Ok(Some(Ok(Ok(explained)))) => Ok(explained),
                Ok(Some(Ok(Err(no_id)))) => Err(PyValueError::new_err(no_id)),
                Ok(Some(Err(Interrupted { lo, hi }))) => {
                    let known = |b: i64| (b.abs() < INFINITY / 2).then_some(b);
                    let (lo, hi) = (known(lo), known(hi));
                    let shown = |b: Option<i64>, none: &str| b.map_or(none.to_string(), |b| b.to_string());
                    Err(SearchInterrupted::new_err((
                        format!(
                            "stopped by the time limit with the value in [{}, {}]",
                            shown(lo, "-inf"),
                            shown(hi, "+inf")
                        ),
                        lo,
                        hi,
                    )))
                }
                Err(_) => Err(bug()),
            }
        })
    }
}

/// The error of a panic caught (a bug of the module or a solver).
fn bug() -> PyErr {
    PyRuntimeError::new_err("the solver failed (a bug): please report it")
}

/// How often a solving call wakes to check Python's signals.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// The keyword arguments of the solving functions, as given.
struct SolveOptions {
    time_limit: Option<Seconds>,
    threads: Option<Whole>,
    tt_mib: Option<Whole>,
    /// The path of an opening book ([`load_book`]), or no book at all.
    book: Option<BookArg>,
}

/// `book=`: the path (`str` or `os.PathLike`) of an opening book file, or `False`: no book, not
/// even the one bundled for the board (`None`, the default: the bundled one, if any).
#[derive(Clone, Debug)]
enum BookArg {
    /// A book file.
    File(PathBuf),
    /// `False`.
    Off,
}

impl<'py> FromPyObject<'py> for BookArg {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        if let Ok(flag) = ob.downcast::<pyo3::types::PyBool>() {
            return if flag.is_true() {
                Err(PyTypeError::new_err(
                    "book: expected the path of an opening book, or False for none; found True",
                ))
            } else {
                Ok(BookArg::Off)
            };
        }
        ob.extract::<PathBuf>().map(BookArg::File)
    }
}

/// An opening book read from its file, kept by the file's canonical path with the stamp it
/// was read under.
struct LoadedBook {
    path: PathBuf,
    stamp: FileStamp,
    book: Arc<Book>,
}

/// What tells a file changed since a book was read from it: its length and modification time.
#[derive(Clone, Copy, PartialEq, Eq)]
struct FileStamp {
    len: u64,
    modified: Option<SystemTime>,
}

impl FileStamp {
    fn of(path: &Path) -> std::io::Result<Self> {
        let meta = std::fs::metadata(path)?;
        Ok(FileStamp { len: meta.len(), modified: meta.modified().ok() })
    }
}

/// The opening books read so far. Each file is read once and every solve gets the same `Arc`
/// (so that a state's solver, and its TT, are kept from call to call, [`SolverSettings`]'
/// equality); a file whose length or modification time changed is read again.
static BOOKS: Mutex<Vec<LoadedBook>> = Mutex::new(Vec::new());

/// Why a book file was not read.
enum BookFailure {
    /// The file cannot be read.
    Io(std::io::Error),
    /// The bytes are not an intact book file.
    Book(BookError),
}

/// The opening book in the file at `path`, verified as a book file ([`Book::from_bytes`]:
/// magic bytes, version, CRC-32, header): from [`BOOKS`] when the file is unchanged since it
/// was read. Read with the GIL released; a panic (a bug) is a `RuntimeError`. Whose board it
/// is is the caller's check ([`Front::check_book`]).
fn load_book(py: Python<'_>, path: &Path) -> PyResult<Arc<Book>> {
    let read = py.allow_threads(|| std::panic::catch_unwind(|| read_book(path))).map_err(|_| bug())?;
    read.map_err(|failure| match failure {
        BookFailure::Io(e) => io_error(path, &e),
        BookFailure::Book(e) => book_error(path, &e),
    })
}

fn read_book(path: &Path) -> Result<Arc<Book>, BookFailure> {
    let canonical = std::fs::canonicalize(path).map_err(BookFailure::Io)?;
    let stamp = FileStamp::of(&canonical).map_err(BookFailure::Io)?;
    let mut books = BOOKS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(kept) = books.iter().find(|b| b.path == canonical && b.stamp == stamp) {
        return Ok(Arc::clone(&kept.book));
    }
    let bytes = std::fs::read(&canonical).map_err(BookFailure::Io)?;
    let book = Arc::new(Book::from_bytes(&bytes).map_err(BookFailure::Book)?);
    books.retain(|b| b.path != canonical);
    // Kept only if the file did not change while it was read (else the next call reads it).
    if FileStamp::of(&canonical).ok() == Some(stamp) && stamp.len == bytes.len() as u64 {
        books.push(LoadedBook { path: canonical, stamp, book: Arc::clone(&book) });
    }
    Ok(book)
}

/// The `OSError` of a book file that cannot be read: the subclass of its errno
/// (`FileNotFoundError`, `PermissionError`, `IsADirectoryError`, ...), with the path as its
/// `filename`.
fn io_error(path: &Path, e: &std::io::Error) -> PyErr {
    let text = e.to_string();
    // The reason without Rust's " (os error N)": Python adds "[Errno N]" itself.
    let reason = text.split_once(" (os error ").map_or(text.as_str(), |(reason, _)| reason);
    match e.raw_os_error() {
        Some(errno) => PyOSError::new_err((
            errno,
            format!("cannot read the opening book: {reason}"),
            path.as_os_str().to_os_string(),
        )),
        None => PyOSError::new_err(format!("cannot read the opening book {}: {reason}", path.display())),
    }
}

/// The `ValueError` of a book file that is not an intact book, or a book of another game or
/// board: the path and the reason.
fn book_error(path: &Path, e: &BookError) -> PyErr {
    PyValueError::new_err(format!("opening book {}: {e}", path.display()))
}

/// A `time_limit`: a float (or an int) of seconds; one too large for a float reads as
/// infinity, which the range check refuses with a `ValueError` (not an `OverflowError`).
#[derive(Clone, Copy)]
struct Seconds(f64);

impl<'py> FromPyObject<'py> for Seconds {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        match ob.extract::<f64>() {
            Ok(t) => Ok(Seconds(t)),
            Err(e) if e.is_instance_of::<PyOverflowError>(ob.py()) => Ok(Seconds(f64::INFINITY)),
            Err(e) => Err(e),
        }
    }
}

/// A whole-number keyword argument: its value, or its text when it does not fit in an `i64`
/// (so that an absurd value is refused by the range check with a `ValueError`, not an
/// `OverflowError`). Other types raise `TypeError`, as Python's own functions do.
enum Whole {
    Fits(i64),
    Huge(String),
}

impl Whole {
    /// The value if it fits and lies in `lo..=hi`.
    fn within(&self, lo: i64, hi: i64) -> Option<i64> {
        match *self {
            Whole::Fits(n) if (lo..=hi).contains(&n) => Some(n),
            _ => None,
        }
    }
}

impl std::fmt::Display for Whole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Whole::Fits(n) => write!(f, "{n}"),
            Whole::Huge(text) => f.write_str(text),
        }
    }
}

impl<'py> FromPyObject<'py> for Whole {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        match ob.extract::<i64>() {
            Ok(n) => Ok(Whole::Fits(n)),
            Err(e) if e.is_instance_of::<PyOverflowError>(ob.py()) => Ok(Whole::Huge(ob.str()?.to_string())),
            Err(e) => Err(e),
        }
    }
}

/// The most threads a solve may ask for (as `games-cli --threads`).
const MAX_THREADS: i64 = 256;

impl SolveOptions {
    /// The solver settings and the time limit, checked.
    fn check(&self) -> PyResult<(SolverSettings, Option<Duration>)> {
        let time = match self.time_limit {
            None => None,
            Some(Seconds(t)) if t.is_finite() && t > 0.0 && t <= 1e9 => Some(Duration::from_secs_f64(t)),
            Some(Seconds(t)) => {
                return Err(PyValueError::new_err(format!(
                    "time_limit: expected seconds in (0, 1e9], found {t}"
                )))
            }
        };
        let threads = match &self.threads {
            None => None,
            Some(n) => Some(n.within(1, MAX_THREADS).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "threads: expected a whole number from 1 to {MAX_THREADS}, found {n}"
                ))
            })? as usize),
        };
        let memory = Memory::read();
        let total = memory.total_mib.unwrap_or(1 << 20);
        let tt_bytes = match &self.tt_mib {
            None => None,
            Some(m) => {
                let mib = m.within(1, i64::try_from(total).unwrap_or(i64::MAX)).ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "tt_mib: expected a whole number of MiB from 1 to {total} (the total memory), found {m}"
                    ))
                })? as u64;
                // Checked before the table is made: a failed allocation would abort the process.
                if let Some(available) = memory.available_mib.filter(|&a| mib > a) {
                    return Err(PyMemoryError::new_err(format!(
                        "tt_mib: {mib} MiB asked, {available} MiB of memory available now"
                    )));
                }
                Some(mib << 20)
            }
        };
        Ok((
            SolverSettings { threads, tt_bytes, max_tt_bits: None, book: None, no_bundled_book: false },
            time,
        ))
    }
}

/// The machine's memory, total and available now, in MiB (Linux's `/proc/meminfo`), where known.
struct Memory {
    total_mib: Option<u64>,
    available_mib: Option<u64>,
}

impl Memory {
    fn read() -> Self {
        let text = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        let field = |name: &str| -> Option<u64> {
            let line = text.lines().find(|l| l.starts_with(name))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib >> 10)
        };
        Memory { total_mib: field("MemTotal:"), available_mib: field("MemAvailable:") }
    }
}

fn action_id(action: &Whole) -> PyResult<u16> {
    action
        .within(0, i64::from(u16::MAX))
        .and_then(|a| u16::try_from(a).ok())
        .ok_or_else(|| PyValueError::new_err(format!("action {action} is not an action id")))
}

#[pymethods]
impl State {
    /// 0 or 1 for the player to move, -4 (OpenSpiel's terminal id) when the game is over.
    fn current_player(&self, py: Python<'_>) -> PyResult<i64> {
        self.with(py, |s| match s.to_move() {
            Some(Player::First) => 0,
            Some(Player::Second) => 1,
            None => TERMINAL_PLAYER,
        })
    }

    /// The legal actions, in move-generation order.
    fn legal_actions(&self, py: Python<'_>) -> PyResult<Vec<u16>> {
        self.with(py, |s| s.legal_actions())?.map_err(PyValueError::new_err)
    }

    /// Plays `action`; `ValueError` if it is not legal.
    fn apply_action(&self, py: Python<'_>, action: Whole) -> PyResult<()> {
        let action = action_id(&action)?;
        self.with(py, |s| s.apply(action))?.map_err(PyValueError::new_err)
    }

    /// Plays a move typed in the game's notation (`4`, `1,1`, `2-5`); returns its action id.
    fn apply_text(&self, py: Python<'_>, text: Text) -> PyResult<u16> {
        self.with(py, |s| s.apply_text(&text.0))?.map_err(PyValueError::new_err)
    }

    /// Takes back the last action; `ValueError` if none was played.
    fn undo_action(&self, py: Python<'_>) -> PyResult<()> {
        if self.with(py, |s| s.undo())? {
            Ok(())
        } else {
            Err(PyValueError::new_err("no action to undo"))
        }
    }

    /// The actions played from the start (or the text's position).
    fn history(&self, py: Python<'_>) -> PyResult<Vec<u16>> {
        self.with(py, |s| s.history())?.map_err(PyValueError::new_err)
    }

    /// A copy (replayed from the start).
    fn clone(&self, py: Python<'_>) -> PyResult<State> {
        let (name, params, setup, history) =
            self.with(py, |s| (s.name(), s.params().to_vec(), s.setup().map(str::to_string), s.history()))?;
        let history = history.map_err(PyValueError::new_err)?;
        Ok(State::new(replay(name, &params, setup, &history)?, self.utility, Arc::clone(&self.short_name)))
    }

    /// The game of this state (its name, parameters and game string's spelling).
    fn get_game(&self, py: Python<'_>) -> PyResult<Game> {
        let (name, params) = self.with(py, |s| (s.name(), s.params().to_vec()))?;
        Ok(Game { name, params, utility: self.utility, short_name: Arc::clone(&self.short_name) })
    }

    /// Whether the game is over.
    fn is_terminal(&self, py: Python<'_>) -> PyResult<bool> {
        self.with(py, |s| s.final_value().is_some())
    }

    /// Each player's (0 and 1) return as OpenSpiel's for the game string: 1 / 0 / -1 for a win,
    /// a draw, a loss, the margin of boxes for dots-and-boxes with `utility_margin=true`; 0 for
    /// both before the end.
    fn returns(&self, py: Python<'_>) -> PyResult<[f64; 2]> {
        Ok(self.with(py, |s| s.final_value())?.map_or([0.0; 2], |v| self.utility.returns(v)))
    }

    /// The rewards of the last action, as OpenSpiel's: the returns at the end, 0 before (the
    /// games here pay only at the end).
    fn rewards(&self, py: Python<'_>) -> PyResult<[f64; 2]> {
        self.returns(py)
    }

    /// Each player's exact final result in the game's points (the unit of `value()`), 0 for
    /// both before the end.
    fn points(&self, py: Python<'_>) -> PyResult<[i64; 2]> {
        let v = self.with(py, |s| s.final_value().unwrap_or(0))?;
        Ok([v, -v])
    }

    /// An action in the game's notation.
    fn action_to_string(&self, py: Python<'_>, action: Whole) -> PyResult<String> {
        let action = action_id(&action)?;
        self.with(py, |s| s.action_text(action))?.map_err(PyValueError::new_err)
    }

    /// The position as one case of the game's judge input format.
    fn setup_text(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |s| s.setup_text())
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |s| s.draw())
    }

    /// Pickling: the state is rebuilt by `game_solvers._state_from_pickle` from the game, the
    /// judge text it was opened from and the action history, under a checksum.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let saved = self
            .with(py, |s| {
                Ok::<_, String>(Saved {
                    margin: self.utility == Utility::Margin,
                    short_name: self.short_name.to_string(),
                    name: s.name().to_string(),
                    params: s.params().to_vec(),
                    setup: s.setup().map(str::to_string),
                    history: s.history()?,
                })
            })?
            .map_err(PyValueError::new_err)?;
        let restore = py.import("game_solvers")?.getattr("_state_from_pickle")?;
        let check = saved.checksum();
        let args = (
            PICKLE_FORMAT,
            saved.name,
            saved.params,
            (saved.margin, saved.short_name),
            saved.setup,
            saved.history,
            check,
        );
        Ok((restore, PyTuple::new(py, [args.into_pyobject(py)?])?))
    }
}

/// The format tag of a pickled state (the first item of its data).
const PICKLE_FORMAT: &str = "game_solvers.State/1";

/// What a pickled state holds.
struct Saved {
    /// Whether the returns are margins ([`Utility::Margin`]).
    margin: bool,
    /// The game string's spelling of the name ([`Game::short_name`]).
    short_name: String,
    name: String,
    params: Vec<(String, String)>,
    setup: Option<String>,
    history: Vec<u16>,
}

impl Saved {
    /// FNV-1a (64 bits) of the fields, each length-prefixed: detects a damaged pickle (not a
    /// forged one).
    fn checksum(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for &b in (bytes.len() as u64).to_le_bytes().iter().chain(bytes) {
                h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        };
        eat(PICKLE_FORMAT.as_bytes());
        eat(&[u8::from(self.margin)]);
        eat(self.short_name.as_bytes());
        eat(self.name.as_bytes());
        for (k, v) in &self.params {
            eat(k.as_bytes());
            eat(v.as_bytes());
        }
        match &self.setup {
            Some(text) => eat(format!("+{text}").as_bytes()),
            None => eat(b"-"),
        }
        let actions: Vec<u8> = self.history.iter().flat_map(|a| a.to_le_bytes()).collect();
        eat(&actions);
        h
    }
}

/// The state of a pickle's data (`State.__reduce__`'s): `ValueError` for anything that is not
/// such data, damaged (the checksum) or not a game of this module.
#[pyfunction]
fn _state_from_pickle(data: &Bound<'_, PyAny>) -> PyResult<State> {
    let damaged = |why: String| PyValueError::new_err(format!("not a game_solvers state pickle: {why}"));
    type Data = (String, String, Vec<(String, String)>, (bool, String), Option<String>, Vec<u16>, u64);
    let (format, name, params, (margin, short_name), setup, history, check): Data =
        data.extract().map_err(|e| damaged(e.to_string()))?;
    if format != PICKLE_FORMAT {
        return Err(damaged(format!("format {format:?}, expected {PICKLE_FORMAT:?}")));
    }
    let saved = Saved { margin, short_name, name, params, setup, history };
    if saved.checksum() != check {
        return Err(damaged("the checksum does not match (the data is damaged)".to_string()));
    }
    let state = replay(&saved.name, &saved.params, saved.setup, &saved.history)
        .map_err(|e| damaged(e.to_string()))?;
    let utility = if saved.margin { Utility::Margin } else { Utility::WinLoss };
    Ok(State::new(state, utility, saved.short_name.into()))
}

/// Opens a game by name with board parameters: `name` or `name(key=value,...)`.
#[pyfunction]
fn load_game(spec: Text) -> PyResult<Game> {
    let (spec, utility) = utility_margin(&spec.0)?;
    let (name, params) =
        game_registry::parse_game_string(&spec).map_err(|e| PyValueError::new_err(e.to_string()))?;
    // Checked now, so that a bad parameter fails here and not at the first state.
    open(name, &params, None)?;
    let short_name = spec.split('(').next().unwrap_or(name).trim().replace('-', "_").into();
    Ok(Game { name, params, utility, short_name })
}

/// The names of the registered games.
#[pyfunction]
fn registered_names() -> Vec<&'static str> {
    game_registry::GAMES.iter().map(|g| g.name).collect()
}

/// The exact value of `state` for the player to move.
#[pyfunction]
#[pyo3(signature = (state, *, time_limit=None, threads=None, tt_mib=None, book=None))]
fn value(
    py: Python<'_>,
    state: &State,
    time_limit: Option<Seconds>,
    threads: Option<Whole>,
    tt_mib: Option<Whole>,
    book: Option<BookArg>,
) -> PyResult<i64> {
    Ok(state.explain(py, Job::Value, &SolveOptions { time_limit, threads, tt_mib, book })?.value)
}

/// Every legal action's exact value for the player to move, as a dict.
#[pyfunction]
#[pyo3(signature = (state, *, time_limit=None, threads=None, tt_mib=None, book=None))]
fn move_values<'py>(
    py: Python<'py>,
    state: &State,
    time_limit: Option<Seconds>,
    threads: Option<Whole>,
    tt_mib: Option<Whole>,
    book: Option<BookArg>,
) -> PyResult<Bound<'py, PyDict>> {
    let explained = state.explain(py, Job::Analysis, &SolveOptions { time_limit, threads, tt_mib, book })?;
    let d = PyDict::new(py);
    for (a, v, _) in explained.moves {
        d.set_item(a, v)?;
    }
    Ok(d)
}

/// A best action: the first, in the solver's order, of the best value.
#[pyfunction]
#[pyo3(signature = (state, *, time_limit=None, threads=None, tt_mib=None, book=None))]
fn best_action(
    py: Python<'_>,
    state: &State,
    time_limit: Option<Seconds>,
    threads: Option<Whole>,
    tt_mib: Option<Whole>,
    book: Option<BookArg>,
) -> PyResult<u16> {
    let explained = state.explain(py, Job::Analysis, &SolveOptions { time_limit, threads, tt_mib, book })?;
    explained.moves.first().map(|m| m.0).ok_or_else(bug)
}

/// A principal variation: actions to the end of the game under perfect play.
#[pyfunction]
#[pyo3(signature = (state, *, time_limit=None, threads=None, tt_mib=None, book=None))]
fn principal_variation(
    py: Python<'_>,
    state: &State,
    time_limit: Option<Seconds>,
    threads: Option<Whole>,
    tt_mib: Option<Whole>,
    book: Option<BookArg>,
) -> PyResult<Vec<u16>> {
    Ok(state.explain(py, Job::Analysis, &SolveOptions { time_limit, threads, tt_mib, book })?.pv)
}

/// The analysis as plain data: `value`, `moves` (list of dicts `action`, `move`, `value`, best
/// first), `pv`, `nodes`; values for the player to move.
#[pyfunction]
#[pyo3(signature = (state, *, time_limit=None, threads=None, tt_mib=None, book=None))]
fn analyze<'py>(
    py: Python<'py>,
    state: &State,
    time_limit: Option<Seconds>,
    threads: Option<Whole>,
    tt_mib: Option<Whole>,
    book: Option<BookArg>,
) -> PyResult<Bound<'py, PyDict>> {
    let e = state.explain(py, Job::Analysis, &SolveOptions { time_limit, threads, tt_mib, book })?;
    let d = PyDict::new(py);
    d.set_item("value", e.value)?;
    let moves: Vec<Bound<'py, PyDict>> = e
        .moves
        .iter()
        .map(|(a, v, text)| {
            let m = PyDict::new(py);
            m.set_item("action", a)?;
            m.set_item("move", text)?;
            m.set_item("value", v)?;
            Ok(m)
        })
        .collect::<PyResult<_>>()?;
    d.set_item("moves", moves)?;
    d.set_item("pv", e.pv)?;
    d.set_item("nodes", e.nodes)?;
    Ok(d)
}

/// Whether `game`'s solver reads the opening book in the file at `book` (a `str` or an
/// `os.PathLike`): `None` if it does; `OSError` if the file cannot be read, `ValueError` if it
/// is not an intact book file or is a book of another game or board, each naming the file.
#[pyfunction]
fn _check_book(py: Python<'_>, game: &Game, book: PathBuf) -> PyResult<()> {
    let loaded = load_book(py, &book)?;
    open(game.name, &game.params, None)?.check_book(&loaded).map_err(|e| book_error(&book, &e))
}

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add("SearchInterrupted", m.py().get_type::<SearchInterrupted>())?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(registered_names, m)?)?;
    m.add_function(wrap_pyfunction!(value, m)?)?;
    m.add_function(wrap_pyfunction!(move_values, m)?)?;
    m.add_function(wrap_pyfunction!(best_action, m)?)?;
    m.add_function(wrap_pyfunction!(principal_variation, m)?)?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(_state_from_pickle, m)?)?;
    m.add_function(wrap_pyfunction!(_check_book, m)?)?;
    Ok(())
}
