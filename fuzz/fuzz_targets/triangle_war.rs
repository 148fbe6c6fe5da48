//! POJ 1085 parser: any bytes (the first picks the side of the board and a chunk size) never
//! panic, the 1-byte-chunk stream agrees with the whole-buffer stream, and on UTF-8 input the
//! `&str` entry point agrees too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use triangle_war::{parse_games, parse_games_from, Geometry};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Some((&head, input)) = data.split_first() else { return };
    let g = Geometry::new(head % 4 + 1).unwrap();
    let whole: Vec<_> = parse_games_from(input, &g).collect();
    assert!(whole.iter().rev().skip(1).all(Result::is_ok), "an error ends the stream");
    let chunked: Vec<_> =
        parse_games_from(common::Chunked { data: input, chunk: usize::from(head >> 4) }, &g).collect();
    assert_eq!(whole, chunked);
    if let Ok(text) = std::str::from_utf8(input) {
        let from_str: Vec<_> = parse_games(text, &g).collect();
        assert_eq!(whole, from_str);
    }
    for r in whole.iter().filter_map(|r| r.as_ref().err()) {
        assert!(r.line >= 1);
        assert!(!r.to_string().contains('\u{1b}'), "escape sequences are quoted escaped");
    }
});
