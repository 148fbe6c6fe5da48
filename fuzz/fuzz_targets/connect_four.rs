//! Connect Four line parser and move strings: any bytes never panic; a parsed position's move
//! string parses back to the same move string.
#![no_main]

use connect_four::{parse_line, Geometry, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let geometries = [Geometry::STANDARD, Geometry::new(4, 4).unwrap(), Geometry::new(9, 5).unwrap()];
    let geom = geometries[data.first().map_or(0, |&b| usize::from(b) % geometries.len())];
    for line in text.lines().take(8) {
        let _ = parse_line(geom, line);
        if let Ok(pos) = Position::parse(geom, line) {
            let again = Position::parse(geom, &pos.moves_string()).expect("its own move string parses");
            assert_eq!(again.moves_string(), pos.moves_string());
        }
    }
});
