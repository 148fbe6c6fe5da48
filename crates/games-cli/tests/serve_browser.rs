//! The page in a real browser: headless Chromium driven over WebDriver (chromedriver, through
//! fantoccini) against a `games-cli serve` on 127.0.0.1 port 0. For every game it loads the
//! page, plays moves by clicking them on the SVG board, and checks that the values drawn on the
//! board equal the CLI's `--format json` for the same position; it also sets a position up from
//! judge text, steps through the PV and lets the solver move first. Screenshots go to
//! `target/tmp/serve-screens/`.
//!
//! Needs `chromium` and `chromedriver` (Debian: `chromium`, `chromium-driver`; as root
//! `bash .ci/install-browser.sh`). Without them the test fails and says so.

mod serve_common;

use std::collections::BTreeMap;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use serve_common::{ccf_input, cli_json, start, triangle_war_input, Server};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// chromedriver on a free port, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_driver() -> Driver {
    for tool in [CHROMIUM, CHROMEDRIVER] {
        assert!(
            Path::new(tool).exists(),
            "{tool} is missing: the browser test needs headless Chromium and chromedriver. Install them \
             with `sudo bash .ci/install-browser.sh` (Debian packages chromium and chromium-driver)"
        );
    }
    let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not listen on port {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
    Driver { child, port }
}

fn screens() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-screens");
    std::fs::create_dir_all(&dir).expect("screenshot directory");
    dir
}

async fn connect(driver: &Driver, profile: &Path) -> Client {
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
    ];
    let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    let mut caps = serde_json::Map::new();
    caps.insert("goog:chromeOptions".into(), json!({ "binary": CHROMIUM, "args": args }));
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a WebDriver session")
}

/// Waits until the page has no request in flight and has drawn a board.
async fn settle(c: &Client) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let v = c
            .execute(
                "return document.body.dataset.busy === '0' && document.querySelector('#board').childElementCount > 0",
                vec![],
            )
            .await
            .expect("script runs");
        if v == json!(true) {
            // The solver may be about to move (it waits 400 ms): let it, then settle again.
            tokio::time::sleep(Duration::from_millis(600)).await;
            let again = c.execute("return document.body.dataset.busy === '0'", vec![]).await.expect("script");
            if again == json!(true) {
                return;
            }
        }
        assert!(Instant::now() < deadline, "the page did not settle");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The moves drawn on the board with their values (`None` when drawn without a value).
async fn board_values(c: &Client) -> BTreeMap<String, Option<i64>> {
    let v = c
        .execute(
            "return [...document.querySelectorAll('#board g.move')].map(g => [g.dataset.move, g.dataset.value === undefined ? null : Number(g.dataset.value), g.querySelector('text.value') ? g.querySelector('text.value').textContent : null]);",
            vec![],
        )
        .await
        .expect("script runs");
    let mut out = BTreeMap::new();
    for m in v.as_array().expect("array") {
        let value = m[1].as_i64();
        // The number written in the badge is the value.
        match value {
            Some(v) => assert_eq!(m[2].as_str().map(str::parse::<i64>), Some(Ok(v)), "{m}"),
            // Without a value a move shows no number (the PV's next move an arrow).
            None => assert!(m[2].is_null() || m[2] == "▶", "{m}"),
        }
        out.insert(m[0].as_str().expect("move").to_string(), value);
    }
    out
}

/// The CLI's move values as drawn on the board.
fn cli_values(cli: &Value) -> BTreeMap<String, Option<i64>> {
    cli["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| (m["move"].as_str().unwrap().to_string(), m["value"].as_i64()))
        .collect()
}

async fn pick_game(c: &Client, name: &str, options: &str) {
    c.execute(
        "const [name, options] = arguments; const g = document.getElementById('game'); g.value = name; g.dispatchEvent(new Event('change'));\
         document.getElementById('options').value = options; document.getElementById('apply').click();",
        vec![json!(name), json!(options)],
    )
    .await
    .expect("game chosen");
    settle(c).await;
}

async fn click_move(c: &Client, mv: &str) {
    let sel = format!("#board g.move[data-move=\"{mv}\"] circle.badge");
    c.find(Locator::Css(&sel))
        .await
        .unwrap_or_else(|_| panic!("move {mv} on the board"))
        .click()
        .await
        .expect("click");
    settle(c).await;
}

async fn set_mode(c: &Client, mode: &str) {
    c.execute(
        "const m = document.getElementById('mode'); m.value = arguments[0]; m.dispatchEvent(new Event('change'));",
        vec![json!(mode)],
    )
    .await
    .expect("mode set");
    settle(c).await;
}

/// o's first best reply after x's `moves` on 3x3, from the API (board-eval has x to move only).
fn api_best_reply(server: &Server, moves: &[&str]) -> String {
    let (status, api) = serve_common::analyze(server, &json!({ "game": "tic-tac-toe", "moves": moves }));
    assert_eq!(status, 200);
    api["report"]["moves"][0]["move"].as_str().unwrap().to_string()
}

async fn screenshot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(screens().join(format!("{name}.png")), png).expect("screenshot written");
}

async fn text_of(c: &Client, id: &str) -> String {
    c.find(Locator::Id(id)).await.expect("element").text().await.expect("text")
}

async fn run(server: &Server, driver: &Driver, profile: &Path) {
    let c = connect(driver, profile).await;
    c.goto(&format!("http://{}/", server.addr)).await.expect("page loads");
    settle(&c).await;

    // Triangle War, side 3: click moves, compare every value with the judge's JSON.
    pick_game(&c, "triangle-war", "--side 3").await;
    let mut played: Vec<&str> = Vec::new();
    for mv in ["", "2-4", "4-5", "2-5", "5-9"] {
        if !mv.is_empty() {
            click_move(&c, mv).await;
            played.push(mv);
        }
        let cli = cli_json(&["triangle-war", "--side", "3"], &triangle_war_input(&played));
        assert_eq!(board_values(&c).await, cli_values(&cli), "Triangle War after {played:?}");
    }
    screenshot(&c, "triangle-war").await;
    // The PV stepper: one step down the line shows the position after the PV's first move.
    let pv_first = cli_json(&["triangle-war", "--side", "3"], &triangle_war_input(&played))["pv"][0]
        .as_str()
        .unwrap()
        .to_string();
    c.find(Locator::Id("pv-next")).await.unwrap().click().await.unwrap();
    settle(&c).await;
    let stepped = board_values(&c).await;
    assert!(!stepped.contains_key(&pv_first), "the PV's first move is drawn after one step");
    assert!(stepped.values().all(Option::is_none), "no values while stepping");
    assert!(text_of(&c, "pv-step").await.starts_with("step 1 of"));
    c.find(Locator::Id("pv-first")).await.unwrap().click().await.unwrap();
    settle(&c).await;

    // Tic-tac-toe against the solver. Second: it opens with the first of its best moves.
    pick_game(&c, "tic-tac-toe", "").await;
    set_mode(&c, "second").await;
    let solver_move =
        cli_json(&["board-eval"], &ccf_input(&[]))["moves"][0]["move"].as_str().unwrap().to_string();
    let open: Vec<String> = board_values(&c).await.into_keys().collect();
    assert_eq!(open.len(), 8);
    assert!(!open.contains(&solver_move), "the solver opened with {solver_move}");
    // First: we play an edge, it answers; x to move again, so the
    // board's values can be checked against board-eval (which has Alice, x, to move).
    set_mode(&c, "first").await;
    c.find(Locator::Id("new")).await.unwrap().click().await.unwrap();
    settle(&c).await;
    click_move(&c, "0,1").await;
    let o_best = api_best_reply(server, &["0,1"]);
    let played = vec!["0,1", o_best.as_str()];
    assert_eq!(board_values(&c).await, cli_values(&cli_json(&["board-eval"], &ccf_input(&played))));
    screenshot(&c, "tic-tac-toe").await;
    c.execute(
        "const m = document.getElementById('mode'); m.value = 'both'; m.dispatchEvent(new Event('change'));",
        vec![],
    )
    .await
    .unwrap();

    // Connect Four 7x6 against the solver, which opens: its move is `play`'s reply (from the
    // bundled book), not the analysis, whose principal variation walks beyond the book and
    // exceeds the budget.
    pick_game(&c, "connect-four", "").await;
    set_mode(&c, "second").await;
    assert_eq!(c.execute("return state.moves", vec![]).await.unwrap(), json!(["4"]));
    set_mode(&c, "both").await;
    // A move made while the hints are still computed (after `44`: a principal variation
    // beyond the book, seconds of search) cancels them and is played at once.
    c.execute("state.moves = ['4', '4']; state.movers = ['', '']; refresh();", vec![]).await.unwrap();
    let waited = Instant::now();
    loop {
        let hinting = c.execute("return state.hints !== null", vec![]).await.unwrap();
        if hinting == json!(true) {
            break;
        }
        assert!(waited.elapsed() < Duration::from_secs(10), "the hints never started");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // In one script: the position's answer may come back, and the new position's hints start,
    // between two scripts.
    let played = c
        .execute("const h = state.hints; play('3'); return [state.moves, h.signal.aborted];", vec![])
        .await
        .unwrap();
    assert_eq!(played, json!([["4", "4", "3"], true]), "the move is played and the hints cancelled");
    settle(&c).await;

    // The Young-diagram game set up from judge text pasted into the page.
    pick_game(&c, "young-chess", "").await;
    let text = "3 4\n2 7 3 5\n9 1 2 8\n4 4 6 1\n3 7 2 6\n2 3 1 9\n5 8 2 2\n";
    c.execute("document.getElementById('setup').value = arguments[0]; document.getElementById('setup-apply').click();", vec![json!(text)])
        .await
        .unwrap();
    settle(&c).await;
    let cli = cli_json(&["young-chess"], text);
    assert_eq!(board_values(&c).await, cli_values(&cli), "Young-diagram game from pasted text");
    click_move(&c, "0,0").await;
    click_move(&c, "0,1").await;
    assert_eq!(board_values(&c).await.keys().cloned().collect::<Vec<_>>(), ["0,2", "1,0"]);
    c.find(Locator::Id("setup-copy")).await.unwrap().click().await.unwrap();
    let copied = c.execute("return document.getElementById('setup').value", vec![]).await.unwrap();
    assert_eq!(copied, json!(text), "the board copied out in the judge's format");
    screenshot(&c, "young-chess").await;

    // Connect Four on 5x4: click columns, compare with the judge's JSON.
    pick_game(&c, "connect-four", "--size 5x4").await;
    let mut line = String::new();
    for mv in ["", "3", "3", "2"] {
        if !mv.is_empty() {
            click_move(&c, mv).await;
            line.push_str(mv);
        }
        // A blank line is skipped: the empty board is asked for with --empty.
        let cli = if line.is_empty() {
            cli_json(&["connect-four", "--size", "5x4", "--empty"], "")
        } else {
            cli_json(&["connect-four", "--size", "5x4"], &format!("{line}\n"))
        };
        assert_eq!(board_values(&c).await, cli_values(&cli), "Connect Four after {line:?}");
    }
    screenshot(&c, "connect-four").await;
    // Undo takes the last stone back.
    c.find(Locator::Id("undo")).await.unwrap().click().await.unwrap();
    settle(&c).await;
    let cli = cli_json(&["connect-four", "--size", "5x4"], "33\n");
    assert_eq!(board_values(&c).await, cli_values(&cli), "Connect Four after undo");

    // A position over the budget: a message, and the board without values (the empty 8x7
    // board: no book, hours of search).
    pick_game(&c, "connect-four", "--size 8x7").await;
    let error = text_of(&c, "error").await;
    assert!(error.starts_with("position too large for the budget"), "{error}");
    let values = board_values(&c).await;
    assert_eq!(values.len(), 8);
    assert!(values.values().all(Option::is_none));
    screenshot(&c, "over-budget").await;

    // A projector's 1024 x 768: the board still fits beside the controls.
    c.set_window_size(1024, 768).await.expect("window resized");
    pick_game(&c, "triangle-war", "--side 3").await;
    assert_eq!(board_values(&c).await.len(), 18);
    screenshot(&c, "triangle-war-1024x768").await;
    c.close().await.expect("session closed");
}

#[test]
fn the_page_in_headless_chromium() {
    let server = start(&["--time-budget", "3"]);
    let driver = start_driver();
    let profile =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("chromium-profile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    runtime.block_on(run(&server, &driver, &profile));
    let _ = std::fs::remove_dir_all(&profile);
}
