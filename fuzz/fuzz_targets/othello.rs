//! Othello's OBF line parser: any bytes never panic; a parsed position's OBF line parses back
//! to the same position, and every legal move's text reads back as that move.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::{obf_line, parse_obf_line, Geometry};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let size = [4, 6, 8][data.first().map_or(0, |&b| usize::from(b) % 3)];
    let geometry = Geometry::new(size).expect("an even size from 4 to 8");
    for line in text.lines().take(8) {
        let Ok(pos) = parse_obf_line(geometry, line) else { continue };
        let again = parse_obf_line(geometry, &obf_line(&pos)).expect("its own OBF line parses");
        assert_eq!(obf_line(&again), obf_line(&pos));
        for mv in pos.legal_moves() {
            assert_eq!(othello::Move::parse(&mv.to_string()), Some(mv));
        }
    }
});
