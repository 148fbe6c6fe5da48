//! UVa 10111 parser: any bytes (the first picks the board and a chunk size) never panic, and the
//! chunked stream agrees with the whole buffer.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tic_tac_toe::{parse_uva_from, Geometry};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Some((&head, input)) = data.split_first() else { return };
    let rows = usize::from(head & 3) + 1;
    let cols = usize::from((head >> 2) & 3) + 1;
    let g = if head & 0x80 == 0 { Geometry::UVA } else { Geometry::new(rows, cols, rows.min(cols)).unwrap() };
    let whole: Vec<_> = parse_uva_from(input, g).collect();
    assert!(whole.iter().rev().skip(1).all(Result::is_ok), "an error ends the stream");
    let chunked: Vec<_> =
        parse_uva_from(common::Chunked { data: input, chunk: usize::from(head >> 5) }, g).collect();
    assert_eq!(whole, chunked);
    for e in whole.iter().filter_map(|r| r.as_ref().err()) {
        assert!(e.line >= 1);
        assert!(!e.to_string().contains('\u{1b}'), "escape sequences are quoted escaped");
    }
});
