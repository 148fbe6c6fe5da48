//! CCF 201803-4 parser: any bytes never panic, the 1- to 8-byte-chunk stream agrees with the
//! whole buffer, and board errors speak of 1 and 2, never of x and o.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tic_tac_toe::{parse_ccf_from, ParseErrorKind};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let chunk = data.first().map_or(1, |b| usize::from(b & 7) + 1);
    let whole: Vec<_> = parse_ccf_from(data).collect();
    assert!(whole.iter().rev().skip(1).all(Result::is_ok), "an error ends the stream");
    let chunked: Vec<_> = parse_ccf_from(common::Chunked { data, chunk }).collect();
    assert_eq!(whole, chunked);
    for e in whole.iter().filter_map(|r| r.as_ref().err()) {
        assert!(!e.to_string().contains('\u{1b}'), "escape sequences are quoted escaped");
        if let ParseErrorKind::ImpossibleBoard { .. } = e.kind {
            let text = e.to_string();
            assert!(!text.contains(" x ") && !text.contains(" o "), "{text}");
        }
    }
});
