//! LOJ 2471 parser: any bytes never panic, the chunked stream agrees with the whole buffer,
//! and every error has a line and column.
#![no_main]

use libfuzzer_sys::fuzz_target;
use young_chess::parse_from;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let chunk = data.first().map_or(1, |b| usize::from(b & 7) + 1);
    let whole = parse_from(data);
    let chunked = parse_from(common::Chunked { data, chunk });
    assert_eq!(whole, chunked);
    match whole {
        Ok(board) => assert!(board.rows() >= 1 && board.cols() >= 1),
        Err(e) => {
            assert!(e.line >= 1 && e.column >= 1);
            assert!(!e.to_string().contains('\u{1b}'), "escape sequences are quoted escaped");
        }
    }
});
