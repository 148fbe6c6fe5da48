//! `games-cli serve`: a small HTTP server with one page (embedded, works offline) and a stateless
//! JSON API: `POST /api/analyze` with `{game, options: [CLI option words], moves: [move texts]}`
//! rebuilds the position through the front's own validated parsers and answers the same
//! [`CaseReport`] as `--format json`, plus the position drawn as text. First increment of issue
//! 10: no SVG board and no node budget yet (see docs/web-serve-plan.md).

use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Result;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use clap::Parser;
use search_core::Game;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::Semaphore;

use crate::front::Front;
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
}

/// One analysis request.
#[derive(Deserialize, Debug)]
pub struct Request {
    /// Game name as in `games-cli play GAME`.
    pub game: String,
    /// Option words as on the command line, e.g. `["--side", "3"]`.
    #[serde(default)]
    pub options: Vec<String>,
    /// Moves from the start, in the judge's notation.
    #[serde(default)]
    pub moves: Vec<String>,
}

/// A front's options parsed as the CLI parses them.
#[derive(Parser, Debug)]
struct OptionWords<O: clap::Args> {
    #[command(flatten)]
    options: O,
}

type Failure = (StatusCode, String);

fn bad(message: impl Into<String>) -> Failure {
    (StatusCode::BAD_REQUEST, message.into())
}

/// Analyses `request` for front `F`: options through clap, moves through [`Front::parse_move`].
fn analyze_front<F: Front>(request: &Request) -> Result<serde_json::Value, Failure> {
    let words = std::iter::once(request.game.as_str()).chain(request.options.iter().map(String::as_str));
    let parsed = OptionWords::<F::Options>::try_parse_from(words).map_err(|e| bad(e.render().to_string()))?;
    let front = F::new(&parsed.options).map_err(|e| bad(format!("{e:#}")))?;
    let mut solver = front.solver();
    let mut pos = front.start();
    for (i, text) in request.moves.iter().enumerate() {
        if solver.game().terminal_value(&pos).is_some() {
            return Err(bad(format!("move {}: {}: the game is over", i + 1, judge_text::quote(text))));
        }
        let mv = front.parse_move(&pos, text).map_err(|e| bad(format!("move {}: {e}", i + 1)))?;
        pos = solver.game().play(&pos, mv).0;
    }
    let analysis = front.analyze(&mut solver, &pos);
    let report = CaseReport::new(&front, 1, front.result_text(analysis.value), &analysis);
    Ok(json!({
        "report": report,
        "board_text": front.draw(&pos),
        "score_text": front.score_text(&pos),
        "finished": solver.game().terminal_value(&pos).is_some(),
        "move_help": front.move_help(),
        "value_note": front.value_note(),
    }))
}

/// The registry: one line per game.
fn analyze(request: &Request) -> Result<serde_json::Value, Failure> {
    match request.game.as_str() {
        "triangle-war" => analyze_front::<crate::triangle_war::TriangleWarFront>(request),
        "young-chess" => analyze_front::<crate::young_chess::YoungChessFront>(request),
        "tic-tac-toe" => analyze_front::<crate::tic_tac_toe::TicTacToeFront>(request),
        "connect-four" => analyze_front::<crate::connect_four::ConnectFourFront>(request),
        other => Err(bad(format!(
            "unknown game {}: expected triangle-war, young-chess, tic-tac-toe or connect-four",
            judge_text::quote(other)
        ))),
    }
}

async fn api_analyze(State(workers): State<Arc<Semaphore>>, body: axum::body::Bytes) -> Response {
    let request: Request = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return (StatusCode::BAD_REQUEST, format!("bad request body: {e}")).into_response(),
    };
    let Ok(_permit) = workers.acquire_owned().await else {
        return (StatusCode::SERVICE_UNAVAILABLE, "server shutting down".to_string()).into_response();
    };
    let job = tokio::task::spawn_blocking(move || std::panic::catch_unwind(|| analyze(&request)));
    match job.await {
        Ok(Ok(Ok(value))) => Json(value).into_response(),
        Ok(Ok(Err((status, message)))) => (status, message).into_response(),
        _ => (StatusCode::INTERNAL_SERVER_ERROR, "internal error while solving".to_string()).into_response(),
    }
}

async fn page() -> Html<&'static str> {
    Html(include_str!("../web/index.html"))
}

async fn script() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("../web/app.js"))
}

/// The server's routes: `/`, `/app.js`, `POST /api/analyze` (body limit [`BODY_LIMIT`], at most
/// one solve per core at a time).
pub fn router() -> Router {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    Router::new()
        .route("/", get(page))
        .route("/app.js", get(script))
        .route("/api/analyze", post(api_analyze))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(Arc::new(Semaphore::new(cores)))
}

/// Runs the server until interrupted; prints the URL to open.
///
/// # Errors
/// The address cannot be bound, or the runtime cannot start.
pub fn run(args: &Args, out: &mut impl Write) -> Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(args.bind, args.port)).await?;
        writeln!(out, "games-cli serve: open http://{}/", listener.local_addr()?)?;
        out.flush()?;
        axum::serve(listener, router()).await?;
        Ok(())
    })
}
