//! Checkpoint and TT snapshot readers: any bytes never panic. The first byte picks the mode:
//! raw text (the checksum almost always refuses it), or the rest sealed for the expected
//! identity first, so that the body's parser and its range checks are what is fuzzed. A
//! checkpoint that is accepted has the fresh checkpoint's moves and bounds within the game's.
#![no_main]

use libfuzzer_sys::fuzz_target;
use search_core::{
    seal, tt_snapshot_from_text, Checkpoint, RootMove, SealedKind, SolveIdentity, TtEntry,
};

fuzz_target!(|data: &[u8]| {
    let Some((&head, rest)) = data.split_first() else { return };
    let Ok(body) = std::str::from_utf8(rest) else { return };
    let identity = SolveIdentity { game: "g".into(), options: "side 4".into(), root: "drawn 0x0, A to move".into() };
    let fresh = Checkpoint {
        moves: (0..6u8).map(|mv| RootMove { mv, lo: -16, hi: 16 }).collect(),
    };
    let (cp_text, tt_text) = if head & 1 == 0 {
        (body.to_string(), body.to_string())
    } else {
        (seal(SealedKind::Checkpoint, &identity, body), seal(SealedKind::TtSnapshot, &identity, body))
    };
    if let Ok(cp) = Checkpoint::<u8>::from_sealed_text(&cp_text, &identity, &fresh) {
        assert_eq!(cp.moves.len(), fresh.moves.len());
        for (m, f) in cp.moves.iter().zip(&fresh.moves) {
            assert_eq!(m.mv, f.mv);
            assert!(f.lo <= m.lo && m.lo <= m.hi && m.hi <= f.hi, "{m:?}");
        }
        // Written back and read again: the same checkpoint.
        let again = Checkpoint::<u8>::from_sealed_text(&cp.to_sealed_text(&identity), &identity, &fresh);
        assert_eq!(again.as_ref(), Ok(&cp));
    }
    let possible = |e: &TtEntry<u64, u8>| e.value.abs() <= 16 && e.best.map_or(true, |m| m < 30);
    if let Ok(entries) = tt_snapshot_from_text::<u64, u8>(&tt_text, &identity, possible) {
        assert!(entries.iter().all(possible));
    }
});
