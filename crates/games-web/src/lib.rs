//! The web server of `games-cli serve`: a small HTTP server with one page (embedded, works offline) and a stateless
//! JSON API over every [`Front`]:
//!
//! - `GET /api/games`: the games (name, title, an options example, the options' help);
//! - `POST /api/analyze` with `{game, options: [CLI option words], setup?: "one case of the
//!   judge's input", moves: [move texts], analyze?: bool, reply?: bool}` rebuilds the position
//!   through the front's own validated parsers and answers the board to draw
//!   ([`Front::board_json`]), the position in the judge's format, (unless `analyze` is false)
//!   the same [`CaseReport`] as `--format json`, and with `reply` the solver's move as
//!   `games-cli play` makes it (`"reply"`: a best move, found without every move's value or
//!   the principal variation; what the page plays against a person).
//!
//! The server never opens a file, device or path a client names: a request's `options` are
//! read as the game's board parameters ([`game_front::ParamSpec`]: board sizes, seeds), which
//! by construction never name a file, and checked by the game; any other word is refused
//! unread. Every request needs a `Host`
//! header naming the bound address (an IP literal, `localhost` on loopback, or a name given by
//! `--allow-host`), which keeps DNS-rebinding pages out; an `Origin`, when present, must be the
//! page's own (`http://HOST`); `POST /api/analyze` needs `Content-Type: application/json`, so
//! that another site's form cannot post to it without a CORS preflight, which is never
//! granted. Binding beyond loopback prints a warning on stderr.
//!
//! Every solve runs on a blocking thread, at most one per core at a time (tower's concurrency
//! limit), under a budget: a stop flag raised by a timer after `--time-budget` seconds and an
//! optional node budget, both obeyed by the engine's searches through [`game_front::Solver::try_analyze`].
//! Solves wait for a slot in a bounded queue (tower's buffer, `--queue`); a solve that finds
//! the queue full (tower's load shedding), or that could not start within `--queue-wait`, gets
//! HTTP 503 with `Retry-After`. A request for the board alone (`analyze: false`) takes no slot
//! and never waits behind solves. Each connection must send its headers, and each part of its
//! body, within `--read-timeout` (hyper's header read timeout, tower-http's request body
//! timeout: a stalled or short body gets 408 or the connection closed), and at most
//! `--max-connections` are served at once (by default half the descriptor limit, at most
//! 256); further ones wait to be accepted. A position over budget gets
//! HTTP 422 with `{"error": "position too large for the budget of …"}`; bad input gets 400 with
//! the parser's message (line and column), bodies over [`BODY_LIMIT`] 413, a panic 500: every
//! error is `{"error": message}`. A solve stopped by the budget returns
//! [`search_core::Interrupted`] from [`game_front::Solver::try_analyze`]: no panic is involved.

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use game_front::{Front, Session, Solver as _, SolverSettings, Visit};
use search_core::Limits;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::Semaphore;

use game_front::CaseReport;

/// Largest request body accepted, in bytes (larger bodies get 413).
pub const BODY_LIMIT: usize = 64 * 1024;

/// Options of `games-cli serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// TCP port (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on; only the local host by default.
    #[arg(long, default_value = "127.0.0.1")]
    bind: std::net::IpAddr,
    /// Seconds one analysis may take (more than 0, at most 1e9); a position that needs more
    /// gets HTTP 422.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = long_solve::parse_seconds)]
    time_budget: Duration,
    /// Positions one analysis may search (counted by the engine; at least 1); none by default.
    #[arg(long, value_name = "NODES", value_parser = clap::value_parser!(u64).range(1..))]
    node_budget: Option<u64>,
    /// A host name (besides IP literals and `localhost`) that requests may name in their `Host`
    /// header, e.g. the host's own name when `--bind` is not loopback; repeatable.
    #[arg(long, value_name = "NAME")]
    allow_host: Vec<String>,
    /// Solves that may wait for a free core (more get HTTP 503 with Retry-After); 4 per core
    /// by default.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    queue: Option<u32>,
    /// Seconds a solve may wait for a free core before it gets HTTP 503 with Retry-After (more
    /// than 0, at most 1e9); the time budget by default.
    #[arg(long, value_name = "SECONDS", value_parser = long_solve::parse_seconds)]
    queue_wait: Option<Duration>,
    /// Seconds a connection may take to send a request's headers, and each part of its body
    /// (more than 0, at most 1e9); then it is closed (or answered 408).
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = long_solve::parse_seconds)]
    read_timeout: Duration,
    /// Connections served at once (further ones wait to be accepted); by default half the
    /// process's descriptor limit, at most 256.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_connections: Option<u32>,
    /// An opening book (`cargo xtask book`), read when the server starts: a request for its
    /// game and board is answered with it (positions within its depth at once, the others
    /// searched faster); repeatable, one per board. A board without one reads the book bundled
    /// for it, if any (Connect Four 7x6: every position within 8 plies of the start), unless
    /// `--no-book`.
    #[arg(long, value_name = "FILE")]
    book: Vec<std::path::PathBuf>,
    /// Read no opening book, not even the one bundled for a board.
    #[arg(long, conflicts_with = "book")]
    no_book: bool,
}

/// The opening books a server's solvers read: the files of `--book FILE` (each request's
/// solver reads the first that its game's front accepts, [`Front::check_book`]), and for a
/// board none of them is for, the book bundled for it unless `no_bundled_book` (`--no-book`).
#[derive(Clone, Debug, Default)]
pub struct Books {
    /// The books read from files.
    pub files: Arc<[Arc<search_core::Book>]>,
    /// Read no bundled book.
    pub no_bundled_book: bool,
}

/// How the server limits its work: the solve queue and how long a request may wait in it.
#[derive(Clone, Copy, Debug)]
pub struct ServeLimits {
    /// Solves running at once.
    pub workers: usize,
    /// Solves waiting for a worker, at most.
    pub queue: usize,
    /// Longest wait for a worker.
    pub queue_wait: Duration,
    /// Longest wait for a request's headers, or for each part of its body.
    pub read_timeout: Duration,
}

impl ServeLimits {
    /// The defaults for `budget`: one solve per core, 4 waiting per core, a wait of one
    /// budget, 10 s to read a request.
    #[must_use]
    pub fn for_budget(budget: &Budget) -> ServeLimits {
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        ServeLimits {
            workers,
            queue: 4 * workers,
            queue_wait: budget.time,
            read_timeout: Duration::from_secs(10),
        }
    }
}

/// What one analysis may spend.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Wall-clock time of one solve.
    pub time: Duration,
    /// Engine nodes of one solve, if limited.
    pub nodes: Option<u64>,
}

impl Budget {
    fn words(&self) -> String {
        let secs = format!("{} s", self.time.as_secs_f64());
        match self.nodes {
            Some(n) => format!("{secs} or {n} nodes"),
            None => secs,
        }
    }
}

/// One analysis request.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// Game name as in `games-cli play GAME`.
    pub game: String,
    /// Option words as on the command line, e.g. `["--side", "3"]`.
    #[serde(default)]
    pub options: Vec<String>,
    /// One case of the judge's input format, set up before `moves`.
    #[serde(default)]
    pub setup: Option<String>,
    /// Moves from the start (or the setup), in the judge's notation.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Whether to solve (false: the board only, e.g. for stepping through a PV).
    #[serde(default = "yes")]
    pub analyze: bool,
    /// Whether to answer the solver's move in the position (`"reply"`, `null` once the game is
    /// over), as `games-cli play` finds it ([`game_front::Solver::try_best_move`]): far less
    /// work than the analysis where a game has one (Connect Four: the score and null-window
    /// tests, no principal variation).
    #[serde(default)]
    pub reply: bool,
}

fn yes() -> bool {
    true
}

/// An HTTP status with the message of its `{"error": …}` body.
pub type Failure = (StatusCode, String);

fn bad(message: impl Into<String>) -> Failure {
    (StatusCode::BAD_REQUEST, message.into())
}

fn over_budget(budget: &Budget) -> Failure {
    (
        StatusCode::UNPROCESSABLE_ENTITY,
        format!(
            "position too large for the budget of {}: play a few moves first or choose a smaller board",
            budget.words()
        ),
    )
}

fn error_response((status, message): Failure) -> Response {
    (status, Json(json!({ "error": message }))).into_response()
}

/// Analyses a request on the front the registry opened: the setup through the judge's
/// parser, moves through [`Front::parse_move`], the analysis under `stop` and `budget`.
struct Analyze<'a> {
    request: &'a Request,
    stop: &'a Arc<AtomicBool>,
    budget: &'a Budget,
    books: &'a Books,
}

impl Visit for Analyze<'_> {
    type Output = Result<Value, Failure>;

    fn visit<F: Front>(self, front: F) -> Result<Value, Failure> {
        let request = self.request;
        // A TT sized for the budget: a node budget needs about as many entries as nodes, and
        // no request gets more than 2^20 entries (a few tens of MiB).
        let tt_bits = match self.budget.nodes {
            Some(n) => (64 - n.leading_zeros()).clamp(10, WEB_MAX_TT_BITS),
            None => WEB_MAX_TT_BITS,
        };
        let book = self.books.files.iter().find(|b| front.check_book(b).is_ok()).cloned();
        let settings = SolverSettings {
            max_tt_bits: Some(tt_bits),
            book,
            no_bundled_book: self.books.no_bundled_book,
            ..SolverSettings::default()
        };
        let mut session = match &request.setup {
            Some(text) => {
                Session::from_setup(front, text, settings).map_err(|e| bad(format!("setup: {e}")))?
            }
            None => Session::with_settings(front, settings),
        };
        let setup_moves = session.moves().len();
        for (i, text) in request.moves.iter().enumerate() {
            session.play_text(text).map_err(|e| bad(format!("move {}: {e}", i + 1)))?;
        }
        let front = session.front();
        let texts = |moves: &[_]| moves.iter().map(|m| front.move_text(m)).collect::<Vec<String>>();
        let played = session.moves();
        let pos = session.position();
        let mut reply = json!({
            "board": front.board_json(pos),
            "board_text": front.draw(pos),
            "score_text": front.score_text(pos),
            "finished": session.final_value().is_some(),
            "to_move": front.player_name(session.to_move()),
            "move_help": front.move_help(),
            "value_note": front.value_note(),
            "setup_text": session.setup_text(),
            "setup_moves": texts(&played[..setup_moves]),
            "moves": texts(&played),
        });
        let finished = session.final_value().is_some();
        let limits = Limits { stop: Some(self.stop.clone()), max_nodes: self.budget.nodes, time: None };
        let (front, solver, pos) = session.parts();
        if request.reply {
            reply["reply"] = if finished {
                Value::Null
            } else {
                let mv = solver.try_best_move(pos, limits.clone()).map_err(|_| over_budget(self.budget))?;
                json!(front.move_text(&mv))
            };
        }
        if request.analyze {
            let analysis = solver.try_analyze(pos, limits).map_err(|_| over_budget(self.budget))?;
            let report = CaseReport::new(front, 1, front.result_text(analysis.value), &analysis);
            reply["report"] = json!(report);
        }
        Ok(reply)
    }
}

/// The largest TT of a web request's solver, as log2 of entries.
const WEB_MAX_TT_BITS: u32 = 20;

/// Longest option value accepted from a request, in bytes (sizes and seeds are short).
const OPTION_VALUE_LIMIT: usize = 40;

/// The help of a game's parameters as the page shows it: one line per option.
fn options_help(game: &game_registry::GameInfo) -> String {
    let mut help = String::from("Options:\n");
    for p in game.params {
        let default = p.default.map_or_else(String::new, |d| format!(" [default: {d}]"));
        help.push_str(&format!("      --{} <{}>\n          {}{default}\n", p.name, p.value_name, p.help));
    }
    help
}

/// A request body (JSON bytes) as a [`Request`], or 400 with serde's message.
///
/// # Errors
/// A body that is not a JSON [`Request`].
pub fn parse_request(body: &[u8]) -> Result<Request, Failure> {
    serde_json::from_slice(body).map_err(|e| bad(format!("bad request body: {e}")))
}

/// The reply to `request` (what `POST /api/analyze` answers, before the HTTP layer): the board
/// and, unless `analyze` is false, the analysis within `budget`, stopped when `stop` is raised.
///
/// # Errors
/// 400 for an unknown game, an option outside the game's allow-list, or bad setup text or
/// moves; 422 when the budget stops the solve.
pub fn analyze(request: &Request, stop: &Arc<AtomicBool>, budget: &Budget) -> Result<Value, Failure> {
    analyze_with_books(request, stop, budget, &Books::default())
}

/// [`analyze`] with the solver reading the first of `books`' files that the request's game and
/// board accept ([`Front::check_book`]); if none does, the book bundled for the board unless
/// `books.no_bundled_book`.
///
/// # Errors
/// As [`analyze`].
pub fn analyze_with_books(
    request: &Request,
    stop: &Arc<AtomicBool>,
    budget: &Budget,
    books: &Books,
) -> Result<Value, Failure> {
    let game = game_registry::find(&request.game).ok_or_else(|| {
        let names: Vec<&str> = game_registry::GAMES.iter().map(|g| g.name).collect();
        bad(format!(
            "unknown game {}: expected one of {}",
            judge_text::quote(&request.game),
            names.join(", ")
        ))
    })?;
    let params = game_registry::params_from_words(&request.options, game.params, OPTION_VALUE_LIMIT)
        .map_err(|e| bad(format!("{e}")))?;
    game_registry::visit(game.name, &params, Analyze { request, stop, budget, books })
        .map_err(|e| bad(format!("{e}")))?
}

/// One solve for the queue: the request, its stop flag and when it was queued.
struct SolveJob {
    request: Request,
    stop: Arc<AtomicBool>,
    queued: Instant,
}

/// What the solve service answers.
type SolveResult = Result<Value, Failure>;

/// The solve service: tower's load shedding over a bounded buffer over a concurrency limit,
/// each call a solve on a blocking thread.
type Solver = tower::util::BoxCloneSyncService<SolveJob, SolveResult, tower::BoxError>;

/// The server's shared state.
#[derive(Clone)]
struct Shared {
    solver: Solver,
    budget: Budget,
    limits: ServeLimits,
    books: Books,
}

/// The reply to a request that cannot start: 503 with `Retry-After` (the budget, in whole
/// seconds).
fn busy(limits: &ServeLimits, budget: &Budget) -> Response {
    let retry = budget.time.as_secs_f64().ceil().max(1.0) as u64;
    let message = format!(
        "the server is busy ({} solves running, at most {} waiting, each up to {}): retry in {retry} s",
        limits.workers,
        limits.queue,
        budget.words()
    );
    let mut response = error_response((StatusCode::SERVICE_UNAVAILABLE, message));
    response.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from(retry));
    response
}

/// A failure that means "not started: the queue was too long" (from the solve service).
const BUSY_MARK: &str = "\u{0}busy";

/// The solve service for `budget` and `limits`, its solvers reading `books`.
fn solver(budget: Budget, limits: ServeLimits, books: Books) -> Solver {
    let solve = tower::service_fn(move |job: SolveJob| {
        let books = books.clone();
        async move {
            // The client went away, or the wait was too long: not started.
            if job.stop.load(Ordering::Relaxed) || job.queued.elapsed() > limits.queue_wait {
                return Ok::<SolveResult, tower::BoxError>(Err((
                    StatusCode::SERVICE_UNAVAILABLE,
                    BUSY_MARK.to_string(),
                )));
            }
            let SolveJob { request, stop, .. } = job;
            let flag = stop.clone();
            let mut handle =
                tokio::task::spawn_blocking(move || analyze_with_books(&request, &flag, &budget, &books));
            let result = match tokio::time::timeout(budget.time, &mut handle).await {
                Ok(r) => r,
                Err(_) => {
                    // Over time: the searches see the flag within a few thousand nodes and return
                    // `Interrupted`.
                    stop.store(true, Ordering::Relaxed);
                    handle.await
                }
            };
            Ok(result.unwrap_or_else(|_| {
                Err((StatusCode::INTERNAL_SERVER_ERROR, "internal error while solving".to_string()))
            }))
        }
    });
    let service = tower::ServiceBuilder::new()
        .load_shed()
        .buffer(limits.queue)
        // A backstop: a call ends by its wait and its budget, and the stop a few thousand
        // nodes later.
        .timeout(limits.queue_wait + budget.time + Duration::from_secs(5))
        .concurrency_limit(limits.workers)
        .service(solve);
    tower::util::BoxCloneSyncService::new(service)
}

/// Raises its stop flag when dropped (the request's future dropped: the client went away).
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

async fn api_analyze(
    State(shared): State<Shared>,
    body: Result<axum::body::Bytes, BytesRejection>,
) -> Response {
    let body = match body {
        Ok(b) => b,
        Err(e) => {
            // A body that stalled past the read timeout (tower-http's `TimeoutError` under
            // the rejection's sources): 408.
            let mut source = std::error::Error::source(&e);
            let mut timed_out = false;
            while let Some(s) = source {
                timed_out |= s.is::<tower_http::timeout::TimeoutError>();
                source = s.source();
            }
            let status = if timed_out { StatusCode::REQUEST_TIMEOUT } else { e.status() };
            return error_response((status, e.body_text()));
        }
    };
    let request = match parse_request(&body) {
        Ok(r) => r,
        Err(failure) => return error_response(failure),
    };
    let budget = shared.budget;
    let books = shared.books.clone();
    let stop = Arc::new(AtomicBool::new(false));
    // If the client goes away, this future is dropped: the guard raises the stop flag, so the
    // solve ends within a few thousand nodes (or never starts) instead of running on unseen.
    let _stop_when_dropped = StopOnDrop(stop.clone());
    if !request.analyze && !request.reply {
        // The board alone: no solve, so no slot and no wait behind the solves.
        let flag = stop.clone();
        return match tokio::task::spawn_blocking(move || analyze_with_books(&request, &flag, &budget, &books))
            .await
        {
            Ok(Ok(value)) => Json(value).into_response(),
            Ok(Err(failure)) => error_response(failure),
            Err(_) => error_response((StatusCode::INTERNAL_SERVER_ERROR, "internal error".to_string())),
        };
    }
    use tower::ServiceExt;
    let job = SolveJob { request, stop, queued: Instant::now() };
    match shared.solver.oneshot(job).await {
        Ok(Ok(value)) => Json(value).into_response(),
        Ok(Err((_, m))) if m == BUSY_MARK => busy(&shared.limits, &budget),
        Ok(Err(failure)) => error_response(failure),
        // Shed (the queue is full) or past the backstop timeout.
        Err(_) => busy(&shared.limits, &budget),
    }
}

/// Which requests the server answers: those whose `Host` names the bound address, whose
/// `Origin` (when present) is the page's own, and, for posts, whose body is declared JSON.
#[derive(Clone, Debug)]
pub struct Guard {
    /// The address the server listens on (its port is the one `Host` must name).
    pub bound: SocketAddr,
    /// Host names accepted besides IP literals and `localhost` (lower case).
    pub names: Vec<String>,
}

impl Guard {
    /// Whether a `Host` header value names this server: the bound port (80 when none is
    /// given), and the bound IP (any IP literal when bound to all addresses), `localhost` or
    /// another loopback IP when bound to loopback, or one of [`Guard::names`]. Names other
    /// than those are refused: a page of another site reached through DNS rebinding sends its
    /// own name.
    #[must_use]
    pub fn host_ok(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        let (name, port) = if let Some(rest) = host.strip_prefix('[') {
            let Some((ip, after)) = rest.split_once(']') else { return false };
            let port = match after.strip_prefix(':') {
                Some(p) => p.parse::<u16>().ok(),
                None if after.is_empty() => Some(80),
                None => None,
            };
            (ip.to_string(), port)
        } else {
            match host.rsplit_once(':') {
                Some((name, p)) => (name.to_string(), p.parse::<u16>().ok()),
                None => (host.clone(), Some(80)),
            }
        };
        if port != Some(self.bound.port()) {
            return false;
        }
        let bound = self.bound.ip();
        if let Ok(ip) = name.parse::<IpAddr>() {
            return bound.is_unspecified() || ip == bound || (bound.is_loopback() && ip.is_loopback());
        }
        (name == "localhost" && (bound.is_loopback() || bound.is_unspecified())) || self.names.contains(&name)
    }
}

/// Refuses, before any handler runs, requests for another host (403), from another origin
/// (403), and posts whose body is not declared JSON (415).
async fn guard(State(guard): State<Arc<Guard>>, request: axum::extract::Request, next: Next) -> Response {
    let headers: &HeaderMap = request.headers();
    let text = |name| headers.get(name).map(|v: &header::HeaderValue| v.to_str().unwrap_or("\u{fffd}"));
    let Some(host) = text(header::HOST).filter(|h| guard.host_ok(h)) else {
        return error_response((
            StatusCode::FORBIDDEN,
            "the Host header does not name this server (start it with --allow-host NAME to use a host name)"
                .to_string(),
        ));
    };
    if let Some(origin) = text(header::ORIGIN) {
        if !origin.eq_ignore_ascii_case(&format!("http://{host}")) {
            return error_response((
                StatusCode::FORBIDDEN,
                "requests from other origins are refused".to_string(),
            ));
        }
    }
    if request.method() == Method::POST {
        let json = text(header::CONTENT_TYPE).is_some_and(|t| {
            t.split(';').next().is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
        });
        if !json {
            return error_response((
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "expected Content-Type: application/json".to_string(),
            ));
        }
    }
    next.run(request).await
}

async fn api_games() -> Json<Value> {
    let games: Vec<Value> = game_registry::GAMES
        .iter()
        .map(|g| json!({ "name": g.name, "title": g.title, "example": g.example, "help": options_help(g) }))
        .collect();
    Json(json!(games))
}

async fn page() -> Html<&'static str> {
    Html(include_str!("../web/index.html"))
}

async fn script() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("../web/app.js"))
}

async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], include_str!("../web/app.css"))
}

/// The server's routes: `/`, `/app.js`, `/app.css`, `GET /api/games`, `POST /api/analyze`
/// (body limit [`BODY_LIMIT`], solves limited and queued as `limits` says, each within
/// `budget`), every one behind `guard`'s checks of `Host`, `Origin` and `Content-Type`, and
/// every request body read within `limits.read_timeout` a part.
pub fn router(budget: Budget, limits: ServeLimits, guard_: Guard) -> Router {
    router_with_books(budget, limits, guard_, Books::default())
}

/// [`router`] whose solvers read `books` ([`analyze_with_books`]).
pub fn router_with_books(budget: Budget, limits: ServeLimits, guard_: Guard, books: Books) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/app.js", get(script))
        .route("/app.css", get(style))
        .route("/api/games", get(api_games))
        .route("/api/analyze", post(api_analyze))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(Arc::new(guard_), guard))
        .layer(tower_http::timeout::RequestBodyTimeoutLayer::new(limits.read_timeout))
        .with_state(Shared { solver: solver(budget, limits, books.clone()), budget, limits, books })
}

/// Half the process's limit of open descriptors (from `/proc/self/limits`), at most 256: the
/// default of `--max-connections`, which leaves descriptors for everything else.
fn default_max_connections() -> usize {
    let soft = std::fs::read_to_string("/proc/self/limits").ok().and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("Max open files"))?;
        line.split_whitespace().nth(3)?.parse::<usize>().ok()
    });
    soft.map_or(256, |n| (n / 2).clamp(1, 256))
}

/// Runs the server until interrupted; prints the URL to open.
///
/// # Errors
/// The address cannot be bound, or the runtime cannot start.
pub fn run(args: &Args, out: &mut dyn Write) -> Result<()> {
    let budget = Budget { time: args.time_budget, nodes: args.node_budget };
    let mut limits = ServeLimits::for_budget(&budget);
    if let Some(q) = args.queue {
        limits.queue = q as usize;
    }
    limits.queue_wait = args.queue_wait.unwrap_or(budget.time);
    limits.read_timeout = args.read_timeout;
    let max_connections = args.max_connections.map_or_else(default_max_connections, |n| n as usize);
    let mut books = Vec::new();
    for path in &args.book {
        let bytes = std::fs::read(path)
            .map_err(|e| anyhow::anyhow!("--book {}: cannot read the file: {e}", path.display()))?;
        let book = search_core::Book::from_bytes(&bytes)
            .map_err(|e| anyhow::anyhow!("--book {}: {e}", path.display()))?;
        books.push(Arc::new(book));
    }
    let books = Books { files: Arc::from(books), no_bundled_book: args.no_book };
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(args.bind, args.port)).await?;
        let bound = listener.local_addr()?;
        if !bound.ip().is_loopback() {
            eprintln!(
                "games-cli serve: warning: listening on {bound}, beyond this machine: anyone who can reach it \
                 can make it solve (each request within the budget)"
            );
        }
        writeln!(out, "games-cli serve: open http://{bound}/")?;
        out.flush()?;
        let names = args.allow_host.iter().map(|n| n.to_ascii_lowercase()).collect();
        let app = router_with_books(budget, limits, Guard { bound, names }, books);
        serve(listener, app, max_connections, limits.read_timeout).await;
        Ok(())
    })
}

/// Serves `app` on `listener`: at most `max_connections` connections at once (a connection
/// beyond waits to be accepted), each HTTP/1 with `read_timeout` to send a request's headers.
async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    max_connections: usize,
    read_timeout: Duration,
) {
    let slots = Arc::new(Semaphore::new(max_connections));
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else { return };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of descriptors, or a connection reset before it was accepted: a pause.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let _slot = slot;
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(hyper_util::rt::TokioTimer::new()).header_read_timeout(read_timeout);
            // A connection that fails (reset, timed out) has nothing to report.
            let _ = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service).await;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(game: &str, options: &[&str], moves: &[&str]) -> Value {
        let request = Request {
            game: game.to_string(),
            options: options.iter().map(|s| s.to_string()).collect(),
            setup: None,
            moves: moves.iter().map(|s| s.to_string()).collect(),
            analyze: false,
            reply: false,
        };
        let budget = Budget { time: Duration::from_secs(10), nodes: None };
        analyze(&request, &Arc::new(AtomicBool::new(false)), &budget).expect("a board")
    }

    fn count(board: &Value, el: &str) -> usize {
        board["board"]["shapes"].as_array().unwrap().iter().filter(|s| s["el"] == el).count()
    }

    fn moves(board: &Value) -> Vec<&str> {
        board["board"]["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap()).collect()
    }

    #[test]
    fn triangle_war_draws_segments_dots_and_owned_triangles() {
        // Side 2: 6 dots, 9 segments, 4 triangles; A takes 1-2-3 with its third segment.
        let b = board("triangle-war", &["--side", "2"], &["1-2", "1-3", "2-3"]);
        assert_eq!(count(&b, "polygon"), 1);
        assert_eq!(count(&b, "circle"), 6);
        assert_eq!(count(&b, "line"), 3, "the drawn segments");
        assert_eq!(moves(&b), ["2-4", "2-5", "3-5", "3-6", "4-5", "5-6"]);
        assert_eq!(b["board"]["shapes"][1]["text"], "A", "the owner's letter on its triangle");
        assert_eq!(b["to_move"], "A", "A completed a triangle and moves again");
    }

    #[test]
    fn options_outside_the_allow_list_are_refused_unread() {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let allowed = game_registry::find("young-chess").unwrap().params;
        assert_eq!(
            game_registry::params_from_words(
                &words(&["--size", "3x4", "--seed=7"]),
                allowed,
                OPTION_VALUE_LIMIT
            ),
            Ok(vec![("size", "3x4"), ("seed", "7")])
        );
        for attack in [
            &["--file", "/etc/passwd"][..],
            &["--file=/etc/passwd"],
            &["--seed", "--file", "/etc/passwd"],
            &["--size", "--file=/etc/passwd"],
            &["--fi", "/etc/passwd"],
            &["/etc/passwd"],
            &["--", "--file", "/etc/passwd"],
            &["--size"],
            &["--seed=-1"],
        ] {
            let request = Request {
                game: "young-chess".to_string(),
                options: words(attack),
                setup: None,
                moves: Vec::new(),
                analyze: false,
                reply: false,
            };
            let budget = Budget { time: Duration::from_secs(1), nodes: None };
            let (status, message) =
                analyze(&request, &Arc::new(AtomicBool::new(false)), &budget).unwrap_err();
            assert_eq!(status, StatusCode::BAD_REQUEST, "{attack:?}");
            assert!(!message.contains("passwd"), "{attack:?}: {message}");
        }
    }

    /// The book of a board's positions, `plies` deep.
    fn connect_four_book(w: usize, h: usize, plies: u32) -> Arc<search_core::Book> {
        use search_core::TtKey;
        let geom = connect_four::Geometry::new(w, h).unwrap();
        let game = connect_four::ConnectFour::new(geom);
        let plan = search_core::BookPlan::new(&game, &connect_four::Board::default(), plies);
        let mut solver = connect_four::Solver::with_tt_bits(geom, 14);
        let leaves =
            plan.leaves().iter().map(|(k, b)| (k.to_u128(), i64::from(solver.score_board(b)))).collect();
        Arc::new(plan.finish(&game, &game.book_identity(), &leaves).unwrap())
    }

    /// A book of the request's board is read: the same report (value, every move's value, the
    /// principal variation) in fewer nodes; a book of another board is not read.
    #[test]
    fn a_book_of_the_board_gives_the_same_report_in_fewer_nodes() {
        let (book, other) = (connect_four_book(5, 4, 4), connect_four_book(6, 4, 2));
        let stop = Arc::new(AtomicBool::new(false));
        let budget = Budget { time: Duration::from_secs(600), nodes: None };
        let nodes = |v: &Value| v["report"]["stats"]["nodes"].as_u64().unwrap();
        for moves in [&[][..], &["3"], &["3", "2"], &["1", "5", "3"]] {
            let request = Request {
                game: "connect-four".to_string(),
                options: vec!["--size".to_string(), "5x4".to_string()],
                setup: None,
                moves: moves.iter().map(|m| m.to_string()).collect(),
                analyze: true,
                reply: false,
            };
            let plain = analyze(&request, &stop, &budget).unwrap();
            let files = Books { files: Arc::from([other.clone(), book.clone()]), no_bundled_book: false };
            let with = analyze_with_books(&request, &stop, &budget, &files).unwrap();
            for key in ["value", "moves", "pv"] {
                assert_eq!(plain["report"][key], with["report"][key], "{moves:?} {key}");
            }
            assert!(nodes(&with) < nodes(&plain), "{moves:?}: {} / {} nodes", nodes(&with), nodes(&plain));
            let files = Books { files: Arc::from([other.clone()]), no_bundled_book: false };
            let unread = analyze_with_books(&request, &stop, &budget, &files).unwrap();
            assert_eq!(nodes(&unread), nodes(&plain), "{moves:?}");
        }
    }

    #[test]
    fn host_headers_must_name_the_bound_address() {
        let loopback = Guard { bound: "127.0.0.1:8080".parse().unwrap(), names: vec![] };
        for ok in ["127.0.0.1:8080", "localhost:8080", "LocalHost:8080", "[::1]:8080", "127.0.0.2:8080"] {
            assert!(loopback.host_ok(ok), "{ok}");
        }
        for refused in
            ["evil.example:8080", "127.0.0.1:8081", "127.0.0.1", "10.0.0.1:8080", "", "[::1]x", ":8080"]
        {
            assert!(!loopback.host_ok(refused), "{refused}");
        }
        let all = Guard { bound: "0.0.0.0:80".parse().unwrap(), names: vec!["box.lan".to_string()] };
        for ok in ["10.1.2.3", "10.1.2.3:80", "localhost", "box.lan:80", "[fe80::1]"] {
            assert!(all.host_ok(ok), "{ok}");
        }
        for refused in ["evil.example", "rebind.evil.example:80", "10.1.2.3:8080"] {
            assert!(!all.host_ok(refused), "{refused}");
        }
        let one = Guard { bound: "192.168.1.5:9000".parse().unwrap(), names: vec![] };
        assert!(one.host_ok("192.168.1.5:9000"));
        assert!(!one.host_ok("localhost:9000"), "localhost is not the bound address");
        assert!(!one.host_ok("127.0.0.1:9000"));
    }

    #[test]
    fn grids_draw_marks_and_offer_the_empty_cells() {
        let b = board("tic-tac-toe", &[], &["1,1", "0,0"]);
        assert_eq!(count(&b, "rect"), 9);
        assert_eq!(count(&b, "circle"), 1, "one o");
        assert_eq!(moves(&b).len(), 7);
        let y = board("young-chess", &["--size", "2x3"], &["0,0"]);
        assert_eq!(moves(&y), ["0,1", "1,0"]);
        let c = board("connect-four", &["--size", "4x4"], &["1", "1", "1", "1"]);
        assert_eq!(moves(&c), ["2", "3", "4"], "a full column is no move");
        assert_eq!(c["setup_text"], "1111\n");
    }
}
