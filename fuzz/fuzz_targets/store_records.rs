//! The store's record files: any bytes never panic in `decode_store`; a file that decodes
//! re-encodes to the same header and records; the records it holds, applied to a side-3
//! Triangle War split, either narrow the bounds or are refused, and never leave a node whose
//! lower bound is above its upper bound.
#![no_main]

use libfuzzer_sys::fuzz_target;
use split_solve::record::{decode_store, encode_header, RECORD_BYTES};
use split_solve::{Split, SplitOptions};
use triangle_war::{Geometry, Position, TriangleWar};

fuzz_target!(|data: &[u8]| {
    let Ok(read) = decode_store(data) else { return };
    assert_eq!(read.whole_len + read.tail_bytes, data.len());
    let header = encode_header(&read.identity);
    assert_eq!(&data[..header.len()], &header[..]);
    for (i, r) in read.records.iter().enumerate() {
        if let Ok(r) = r {
            let at = header.len() + i * RECORD_BYTES;
            assert_eq!(&data[at..at + RECORD_BYTES], &r.encode()[..]);
        }
    }
    let game = TriangleWar::new(Geometry::new(3).expect("side 3"));
    let mut split = Split::new(game, &Position::start(), SplitOptions { depth: 2, ..SplitOptions::default() });
    for r in read.records.into_iter().flatten() {
        let before = split.root_bounds();
        if split.apply(&r).is_err() {
            assert_eq!(split.root_bounds(), before, "a refused record changes nothing");
        }
        let (lo, hi) = split.root_bounds();
        assert!(lo <= hi, "[{lo}, {hi}]");
    }
});
