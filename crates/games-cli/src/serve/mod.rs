//! `games-cli serve`: a small HTTP server with one page (embedded, works offline) and a stateless
//! JSON API over every [`Front`]:
//!
//! - `GET /api/games`: the games (name, title, an options example, the options' help);
//! - `POST /api/analyze` with `{game, options: [CLI option words], setup?: "one case of the
//!   judge's input", moves: [move texts], analyze?: bool}` rebuilds the position through the
//!   front's own validated parsers and answers the board to draw ([`Front::board_json`]), the
//!   position in the judge's format, and (unless `analyze` is false) the same [`CaseReport`] as
//!   `--format json`.
//!
//! Every solve runs on a blocking thread, at most one per core at a time, under a budget: a
//! stop flag raised by a timer after `--time-budget` seconds and an optional node budget, both
//! obeyed by the engine's searches through [`Front::set_limits`]. A position over budget gets
//! HTTP 422 with `{"error": "position too large for the budget of …"}`; bad input gets 400 with
//! the parser's message (line and column), bodies over [`BODY_LIMIT`] 413, a panic 500: every
//! error is `{"error": message}`.

pub mod sketch;

use std::cell::RefCell;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use clap::{CommandFactory, Parser};
use search_core::{Game, Limits};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::Semaphore;

use crate::front::{Front, Setup};
use crate::report::CaseReport;

/// Largest request body accepted, in bytes (larger bodies get 413).
pub const BODY_LIMIT: usize = 64 * 1024;

/// Options of `games-cli serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// TCP port (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on; only this machine by default.
    #[arg(long, default_value = "127.0.0.1")]
    bind: std::net::IpAddr,
    /// Seconds one analysis may take; a position that needs more gets HTTP 422.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = parse_seconds)]
    time_budget: f64,
    /// Positions one analysis may search (counted by the engine); none by default.
    #[arg(long, value_name = "NODES")]
    node_budget: Option<u64>,
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err(format!("expected seconds between 0 and 86400, found {}", judge_text::quote(text))),
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
}

fn yes() -> bool {
    true
}

/// A front's options parsed as the CLI parses them.
#[derive(Parser, Debug)]
struct OptionWords<O: clap::Args> {
    #[command(flatten)]
    options: O,
}

/// An HTTP status with the message of its `{"error": …}` body.
type Failure = (StatusCode, String);

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

/// Analyses `request` for front `F`: options through clap, the setup through the judge's
/// parser, moves through [`Front::parse_move`], the analysis under `stop` and `budget`.
fn analyze_front<F: Front>(
    request: &Request,
    stop: &Arc<AtomicBool>,
    budget: &Budget,
) -> Result<Value, Failure> {
    let words = std::iter::once(request.game.as_str()).chain(request.options.iter().map(String::as_str));
    let parsed = OptionWords::<F::Options>::try_parse_from(words).map_err(|e| bad(e.render().to_string()))?;
    let mut front = F::new(&parsed.options).map_err(|e| bad(format!("{e:#}")))?;
    let mut start = front.start();
    let mut setup_moves = Vec::new();
    if let Some(text) = &request.setup {
        let setup: Setup<F> = front.parse_setup(text).map_err(|e| bad(format!("setup: {e}")))?;
        if let Some(f) = setup.front {
            front = f;
        }
        start = setup.start;
        setup_moves = setup.moves;
    }
    let mut solver = front.solver();
    let mut pos = start;
    for &mv in &setup_moves {
        pos = solver.game().play(&pos, mv).0;
    }
    let mut played = setup_moves.clone();
    for (i, text) in request.moves.iter().enumerate() {
        if solver.game().terminal_value(&pos).is_some() {
            return Err(bad(format!("move {}: {}: the game is over", i + 1, judge_text::quote(text))));
        }
        let mv = front.parse_move(&pos, text).map_err(|e| bad(format!("move {}: {e}", i + 1)))?;
        played.push(mv);
        pos = solver.game().play(&pos, mv).0;
    }
    let texts = |moves: &[_]| moves.iter().map(|m| front.move_text(m)).collect::<Vec<String>>();
    let mut reply = json!({
        "board": front.board_json(&pos),
        "board_text": front.draw(&pos),
        "score_text": front.score_text(&pos),
        "finished": solver.game().terminal_value(&pos).is_some(),
        "to_move": front.player_name(solver.game().to_move(&pos)),
        "move_help": front.move_help(),
        "value_note": front.value_note(),
        "setup_text": front.setup_text(&start, &played),
        "setup_moves": texts(&setup_moves),
        "moves": texts(&played),
    });
    if request.analyze {
        front.set_limits(
            &mut solver,
            Limits { stop: Some(stop.clone()), max_nodes: budget.nodes, time: None },
        );
        let analysis = front.analyze(&mut solver, &pos);
        let spent = budget.nodes.is_some_and(|n| analysis.stats.nodes >= n);
        if stop.load(Ordering::Relaxed) || spent {
            return Err(over_budget(budget));
        }
        let report = CaseReport::new(&front, 1, front.result_text(analysis.value), &analysis);
        reply["report"] = json!(report);
    }
    Ok(reply)
}

/// One game of the page.
struct Entry {
    /// The name, as in `games-cli play NAME`.
    name: &'static str,
    /// The title shown.
    title: &'static str,
    /// Option words to show as an example.
    example: &'static str,
    analyze: fn(&Request, &Arc<AtomicBool>, &Budget) -> Result<Value, Failure>,
    help: fn() -> String,
}

fn options_help<F: Front>() -> String {
    OptionWords::<F::Options>::command().name("options").about(None::<&str>).render_help().to_string()
}

const fn entry<F: Front>(name: &'static str, title: &'static str, example: &'static str) -> Entry {
    Entry { name, title, example, analyze: analyze_front::<F>, help: options_help::<F> }
}

/// The registry: one line per game.
const GAMES: &[Entry] = &[
    entry::<crate::triangle_war::TriangleWarFront>("triangle-war", "Triangle War", "--side 3"),
    entry::<crate::young_chess::YoungChessFront>("young-chess", "Young-diagram game", "--size 3x4 --seed 7"),
    entry::<crate::tic_tac_toe::TicTacToeFront>(
        "tic-tac-toe",
        "m,n,k-game (tic-tac-toe)",
        "--size 4x4 --k 3",
    ),
    entry::<crate::connect_four::ConnectFourFront>("connect-four", "Connect Four", "--size 5x4"),
];

fn analyze(request: &Request, stop: &Arc<AtomicBool>, budget: &Budget) -> Result<Value, Failure> {
    match GAMES.iter().find(|e| e.name == request.game) {
        Some(e) => (e.analyze)(request, stop, budget),
        None => {
            let names: Vec<&str> = GAMES.iter().map(|e| e.name).collect();
            Err(bad(format!(
                "unknown game {}: expected one of {}",
                judge_text::quote(&request.game),
                names.join(", ")
            )))
        }
    }
}

thread_local! {
    /// The stop flag of the solve running on this thread: a panic after it was raised is the
    /// budget's doing (a search cut short), not a bug, and is not printed.
    static STOP: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Installs a panic hook that stays quiet for panics of solves stopped by their budget.
fn quiet_budget_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let stopped = STOP.with(|s| s.borrow().as_ref().is_some_and(|f| f.load(Ordering::Relaxed)));
        if !stopped {
            default(info);
        }
    }));
}

/// The server's shared state.
#[derive(Clone)]
struct Shared {
    workers: Arc<Semaphore>,
    budget: Budget,
}

async fn api_analyze(
    State(shared): State<Shared>,
    body: Result<axum::body::Bytes, BytesRejection>,
) -> Response {
    let body = match body {
        Ok(b) => b,
        Err(e) => return error_response((e.status(), e.body_text())),
    };
    let request: Request = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return error_response(bad(format!("bad request body: {e}"))),
    };
    let Ok(_permit) = shared.workers.clone().acquire_owned().await else {
        return error_response((StatusCode::SERVICE_UNAVAILABLE, "server shutting down".to_string()));
    };
    let budget = shared.budget;
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let mut job = tokio::task::spawn_blocking(move || {
        STOP.with(|s| *s.borrow_mut() = Some(flag.clone()));
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| analyze(&request, &flag, &budget)));
        STOP.with(|s| *s.borrow_mut() = None);
        match result {
            Ok(r) => r,
            Err(_) if flag.load(Ordering::Relaxed) => Err(over_budget(&budget)),
            Err(_) => Err((StatusCode::INTERNAL_SERVER_ERROR, "internal error while solving".to_string())),
        }
    });
    let result = match tokio::time::timeout(budget.time, &mut job).await {
        Ok(r) => r,
        Err(_) => {
            // Over time: the searches see the flag within a few thousand nodes and unwind.
            stop.store(true, Ordering::Relaxed);
            job.await
        }
    };
    match result {
        Ok(Ok(value)) => Json(value).into_response(),
        Ok(Err(failure)) => error_response(failure),
        Err(_) => {
            error_response((StatusCode::INTERNAL_SERVER_ERROR, "internal error while solving".to_string()))
        }
    }
}

async fn api_games() -> Json<Value> {
    let games: Vec<Value> = GAMES
        .iter()
        .map(|e| json!({ "name": e.name, "title": e.title, "example": e.example, "help": (e.help)() }))
        .collect();
    Json(json!(games))
}

async fn page() -> Html<&'static str> {
    Html(include_str!("../../web/index.html"))
}

async fn script() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("../../web/app.js"))
}

async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], include_str!("../../web/app.css"))
}

/// The server's routes: `/`, `/app.js`, `/app.css`, `GET /api/games`, `POST /api/analyze`
/// (body limit [`BODY_LIMIT`], at most one solve per core at a time, each within `budget`).
pub fn router(budget: Budget) -> Router {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    Router::new()
        .route("/", get(page))
        .route("/app.js", get(script))
        .route("/app.css", get(style))
        .route("/api/games", get(api_games))
        .route("/api/analyze", post(api_analyze))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(Shared { workers: Arc::new(Semaphore::new(cores)), budget })
}

/// Runs the server until interrupted; prints the URL to open.
///
/// # Errors
/// The address cannot be bound, or the runtime cannot start.
pub fn run(args: &Args, out: &mut impl Write) -> Result<()> {
    quiet_budget_panics();
    let budget = Budget { time: Duration::from_secs_f64(args.time_budget), nodes: args.node_budget };
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(args.bind, args.port)).await?;
        writeln!(out, "games-cli serve: open http://{}/", listener.local_addr()?)?;
        out.flush()?;
        axum::serve(listener, router(budget)).await?;
        Ok(())
    })
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
