//! `games-cli serve` under load: solves beyond the queue get 503 with `Retry-After` at once,
//! a board-only request never waits behind solves, stalled connections and short bodies are
//! closed by the read timeout, and the server goes on answering.

mod serve_common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serve_common::{request, start, Server};

/// A solve that takes the whole budget: the empty 5x5 dots-and-boxes board.
fn heavy() -> Vec<u8> {
    serde_json::json!({"game": "dots-and-boxes", "options": ["--size", "5x5"], "moves": []})
        .to_string()
        .into_bytes()
}

/// POSTs `body` and returns the status, the `Retry-After` header (if any) and the body.
fn post_with_headers(server: &Server, body: &[u8]) -> (u16, Option<String>, String) {
    let mut stream = TcpStream::connect(&server.addr).expect("connect");
    let head = format!(
        "POST /api/analyze HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        server.addr,
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).unwrap();
    let status = reply[9..12].parse().unwrap();
    let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((&reply, ""));
    let retry = head
        .lines()
        .find_map(|l| l.to_ascii_lowercase().strip_prefix("retry-after:").map(|v| v.trim().to_string()));
    (status, retry, body.to_string())
}

#[test]
fn solves_beyond_the_queue_get_503_and_the_board_alone_never_waits() {
    let server = start(&["--time-budget", "3", "--queue", "1"]);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let n = cores + 6;
    let threads: Vec<_> = (0..n)
        .map(|_| {
            let addr = server.addr.clone();
            std::thread::spawn(move || {
                let s = Server { child: std::process::Command::new("true").spawn().unwrap(), addr };
                let start = Instant::now();
                let r = post_with_headers(&s, &heavy());
                (r, start.elapsed())
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    // The board alone, while every core solves and the queue is full.
    let start = Instant::now();
    let body = serde_json::json!({"game": "tic-tac-toe", "analyze": false}).to_string();
    let (status, _) = request(&server, "POST", "/api/analyze", body.as_bytes());
    let board_took = start.elapsed();
    assert_eq!(status, 200);
    assert!(board_took < Duration::from_secs(2), "the board alone waited {board_took:?}");
    let results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    // Beyond the cores, one request in the queue and one taken by the queue's worker wait (up
    // to --queue-wait, the budget by default); every other one is shed at once.
    let shed: Vec<_> = results.iter().filter(|((s, _, _), _)| *s == 503).collect();
    let at_once = shed.iter().filter(|(_, took)| *took < Duration::from_secs(2)).count();
    assert!(at_once >= n - cores - 2, "{results:?}");
    for ((_, retry, body), took) in &shed {
        assert_eq!(retry.as_deref(), Some("3"), "{body}");
        assert!(body.contains("the server is busy"), "{body}");
        assert!(*took < Duration::from_millis(4500), "503 within the wait limit: {took:?}");
    }
    assert!(results.iter().all(|((s, _, _), _)| *s == 503 || *s == 422), "{results:?}");
}

#[test]
fn stalled_connections_and_short_bodies_are_closed_by_the_read_timeout() {
    let server = start(&["--read-timeout", "1", "--max-connections", "64"]);
    // 200 connections that never send a byte: more than the server serves at once.
    let stalled: Vec<TcpStream> = (0..200).filter_map(|_| TcpStream::connect(&server.addr).ok()).collect();
    assert!(stalled.len() > 64);
    let start = Instant::now();
    let (status, _) = request(&server, "GET", "/api/games", b"");
    assert_eq!(status, 200);
    assert!(start.elapsed() < Duration::from_secs(8), "answered after {:?}", start.elapsed());
    drop(stalled);
    // A body shorter than its Content-Length: 408, or the connection closed, within seconds.
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    let head = format!(
        "POST /api/analyze HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"game\"",
        server.addr
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let start = Instant::now();
    let mut reply = String::new();
    let read = stream.read_to_string(&mut reply);
    assert!(read.is_ok(), "the connection was held: {read:?}");
    assert!(start.elapsed() < Duration::from_secs(8));
    assert!(reply.is_empty() || reply.starts_with("HTTP/1.1 408"), "{reply}");
    let (status, _) = request(&server, "GET", "/api/games", b"");
    assert_eq!(status, 200);
}
