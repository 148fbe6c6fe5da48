//! API tests of `games-cli serve`: a server on 127.0.0.1 port 0 started from the binary, spoken
//! to over plain HTTP/1.1; its analyses are compared with the CLI's `--format json` output.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start() -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_games-cli"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("games-cli starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout piped")).read_line(&mut line).expect("URL line");
    let addr =
        line.trim().trim_start_matches("games-cli serve: open http://").trim_end_matches('/').to_string();
    Server { child, addr }
}

/// POSTs `body` to `/api/analyze`; returns the status code and the body.
fn post(server: &Server, body: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(&server.addr).expect("connect");
    let head = format!(
        "POST /api/analyze HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        server.addr,
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

fn cli_json(args: &[&str], input: &str) -> serde_json::Value {
    let mut child = Command::new(env!("CARGO_BIN_EXE_games-cli"))
        .args(args)
        .args(["--format", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("games-cli runs");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("input");
    let out = child.wait_with_output().expect("output");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    serde_json::from_str(text.lines().next().expect("one JSON line")).expect("JSON")
}

#[test]
fn tic_tac_toe_matches_board_eval() {
    let server = start();
    // x at (0,0), o at (1,1); CCF board: 1 = x, 2 = o.
    let (status, body) = post(&server, br#"{"game":"tic-tac-toe","moves":["0,0","1,1"]}"#);
    assert_eq!(status, 200, "{body}");
    let api: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    let cli = cli_json(&["board-eval"], "1\n1 0 0\n0 2 0\n0 0 0\n");
    for key in ["to_move", "value", "moves", "pv"] {
        assert_eq!(api["report"][key], cli[key], "key {key}");
    }
}

#[test]
fn bad_inputs_get_400_with_the_message() {
    let server = start();
    let (status, body) = post(&server, br#"{"game":"tic-tac-toe","moves":["9,9"]}"#);
    assert_eq!(status, 400);
    assert!(body.starts_with("move 1:"), "{body}");
    let (status, body) = post(&server, br#"{"game":"tic-tac-toe","options":["--size","9x9"]}"#);
    assert_eq!(status, 400);
    assert!(body.contains("9x9"), "{body}");
    let (status, body) = post(&server, br#"{"game":"chess"}"#);
    assert_eq!(status, 400);
    assert!(body.contains("unknown game"), "{body}");
    let (status, _) = post(&server, b"{not json");
    assert_eq!(status, 400);
}

#[test]
fn oversized_bodies_are_refused() {
    let server = start();
    let big = format!(r#"{{"game":"tic-tac-toe","moves":[],"pad":"{}"}}"#, "x".repeat(100_000));
    let (status, _) = post(&server, big.as_bytes());
    assert_eq!(status, 413);
}
