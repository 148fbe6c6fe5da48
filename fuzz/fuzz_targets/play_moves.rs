//! The move parsers of `play`: triangle-war's `parse_segment` (checked against
//! `Geometry::segment_index`), tic-tac-toe's and young-chess's `parse_cell_text`, on any text.
//! Accepted moves are on the board; refusals quote the text escaped.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&head, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let side = head % 6 + 1;
    let g = triangle_war::Geometry::new(side).unwrap();
    match triangle_war::parse_segment(&g, text) {
        Ok(s) => {
            let seg = g.segments()[s];
            assert_eq!(g.segment_index(seg.a, seg.b), Some(s));
        }
        Err(e) => assert!(!e.to_string().contains('\u{1b}')),
    }
    let (rows, cols) = (usize::from(head & 7) + 1, usize::from((head >> 3) & 7) + 1);
    let tg = tic_tac_toe::Geometry::new(rows, cols, 1).unwrap();
    match tic_tac_toe::parse_cell_text(&tg, text) {
        Ok(cell) => assert!(cell.index() < rows * cols),
        Err(e) => assert!(!e.to_string().contains('\u{1b}')),
    }
    let values = vec![1; rows * cols];
    let board = young_chess::Board::new(rows, cols, values.clone(), values).unwrap();
    match young_chess::parse_cell_text(&board, text) {
        Ok(cell) => assert!(usize::from(cell.row) < rows && usize::from(cell.col) < cols),
        Err(e) => assert!(!e.to_string().contains('\u{1b}')),
    }
});
