//! Shared by the serve tests: a `games-cli serve` on 127.0.0.1 port 0 started from the binary,
//! plain HTTP/1.1 requests to it, and the CLI's `--format json` answer for comparison.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

/// A running server, killed when dropped.
pub struct Server {
    /// The server process.
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `games-cli serve --port 0 EXTRA...` and reads the address it prints.
pub fn start(extra: &[&str]) -> Server {
    start_with_stderr(extra, Stdio::inherit())
}

/// [`start`] with the server's standard error sent to `stderr`.
pub fn start_with_stderr(extra: &[&str], stderr: Stdio) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_games-cli"))
        .args(["serve", "--port", "0"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("games-cli starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout piped")).read_line(&mut line).expect("URL line");
    let addr =
        line.trim().trim_start_matches("games-cli serve: open http://").trim_end_matches('/').to_string();
    Server { child, addr }
}

/// Sends one request; returns the status code and the body.
pub fn request(server: &Server, method: &str, path: &str, body: &[u8]) -> (u16, String) {
    let headers = format!("Host: {}\r\nContent-Type: application/json\r\n", server.addr);
    exchange(server, method, path, &headers, body)
}

/// Sends one request with exactly the `headers` given (each line ending in CRLF) besides
/// `Content-Length` and `Connection: close`; returns the status code and the body.
pub fn exchange(server: &Server, method: &str, path: &str, headers: &str, body: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(&server.addr).expect("connect");
    let head = format!(
        "{method} {path} HTTP/1.1\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("write head");
    // A refused body may close the connection before it is all sent.
    let _ = stream.write_all(body);
    let mut reply = String::new();
    stream.read_to_string(&mut reply).expect("read reply");
    let status = reply[9..12].parse().expect("status code");
    let body = reply.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string();
    (status, body)
}

/// POSTs `body` to `/api/analyze`.
pub fn post(server: &Server, body: &[u8]) -> (u16, String) {
    request(server, "POST", "/api/analyze", body)
}

/// POSTs `body` (a JSON value) to `/api/analyze` and parses the reply.
pub fn analyze(server: &Server, body: &serde_json::Value) -> (u16, serde_json::Value) {
    let (status, text) = post(server, body.to_string().as_bytes());
    (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("JSON reply ({e}): {text}")))
}

/// The first JSON line of `games-cli ARGS --analyze --format json` on `input`.
pub fn cli_json(args: &[&str], input: &str) -> serde_json::Value {
    let mut child = Command::new(env!("CARGO_BIN_EXE_games-cli"))
        .args(args)
        .args(["--analyze", "--format", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("games-cli runs");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("input");
    let out = child.wait_with_output().expect("output");
    assert!(out.status.success(), "games-cli {args:?} failed on {input:?}");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    serde_json::from_str(text.lines().next().expect("one JSON line")).expect("JSON")
}

/// A POJ 1085 game of the given moves (`"2-5"` texts).
pub fn triangle_war_input(moves: &[&str]) -> String {
    let mut s = format!("1\n{}\n", moves.len());
    for m in moves {
        s.push_str(&m.replace('-', " "));
        s.push('\n');
    }
    s
}

/// A CCF 201803-4 board after the moves (`"r,c"` texts, x first) on 3x3.
pub fn ccf_input(moves: &[&str]) -> String {
    let mut grid = [[0; 3]; 3];
    for (i, m) in moves.iter().enumerate() {
        let (r, c) = m.split_once(',').expect("r,c");
        grid[r.parse::<usize>().unwrap()][c.parse::<usize>().unwrap()] = if i % 2 == 0 { 1 } else { 2 };
    }
    let mut s = String::from("1\n");
    for row in grid {
        s.push_str(&format!("{} {} {}\n", row[0], row[1], row[2]));
    }
    s
}
