//! The web server's request handling (`games-cli serve`, `POST /api/analyze` without the HTTP
//! layer): any body never panics; every reply is a board or a 400 / 422 failure with a message;
//! no request opens a file (option words that are not the game's board parameters are refused
//! unread). The first byte picks the mode: raw bytes as the body, or a well-formed
//! request built from the rest (game, option words, setup text, moves), so that the games'
//! parsers and the allow-list are what is fuzzed. Solves run under a node budget of 200 (the
//! search itself is tested elsewhere; this keeps the run fast).
//! Also: `Guard::host_ok` on arbitrary `Host` values.
#![no_main]

use std::net::SocketAddr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use games_web::{analyze, parse_request, Budget, Guard};
use libfuzzer_sys::fuzz_target;

const GAMES: [&str; 5] = ["triangle-war", "young-chess", "tic-tac-toe", "connect-four", "chess"];

fuzz_target!(|data: &[u8]| {
    let Some((&head, rest)) = data.split_first() else { return };
    let budget = Budget { time: Duration::from_secs(5), nodes: Some(200) };
    let stop = Arc::new(AtomicBool::new(false));
    let body = if head & 1 == 0 {
        rest.to_vec()
    } else {
        // Fields split on NUL: options (space-separated), setup, moves (space-separated).
        let text = String::from_utf8_lossy(rest);
        let mut parts = text.split('\0');
        let options: Vec<&str> = parts.next().unwrap_or("").split_whitespace().collect();
        let setup = parts.next();
        let moves: Vec<&str> = parts.next().unwrap_or("").split_whitespace().collect();
        let mut request = serde_json::json!({
            "game": GAMES[usize::from(head >> 1) % GAMES.len()],
            "options": options,
            "moves": moves,
            "analyze": head & 0x40 != 0,
        });
        if let Some(setup) = setup {
            request["setup"] = serde_json::json!(setup);
        }
        request.to_string().into_bytes()
    };
    match parse_request(&body).and_then(|r| analyze(&r, &stop, &budget)) {
        Ok(reply) => assert!(reply.get("board").is_some(), "{reply}"),
        Err((status, message)) => {
            assert!(status.as_u16() == 400 || status.as_u16() == 422, "{status} {message}");
            assert!(!message.is_empty());
        }
    }
    let guard = Guard { bound: SocketAddr::from(([127, 0, 0, 1], 8080)), names: vec![] };
    let _ = guard.host_ok(&String::from_utf8_lossy(rest));
});
