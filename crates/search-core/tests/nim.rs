//! The tutorial's game (`examples/nim.rs`, `docs/tutorial.md`) against Nim's theory, and the
//! tutorial's code against the example it is taken from.

#[allow(dead_code)]
#[path = "../examples/nim.rs"]
mod nim;

use nim::{nim_move, unpack, Heaps, Nim};
use search_core::{Engine, Player};

fn xor(heaps: &Heaps) -> u8 {
    heaps.stones.iter().fold(0, |x, &s| x ^ s)
}

#[test]
fn values_follow_the_xor_rule() {
    let mut engine = Engine::new(Nim, 16);
    for a in 0..=5 {
        for b in 0..=5 {
            for c in 0..=5 {
                let heaps = Heaps::new(&[a, b, c]);
                let expected = if xor(&heaps) != 0 { 1 } else { -1 };
                assert_eq!(engine.solve(&heaps), expected, "heaps {a} {b} {c}");
            }
        }
    }
}

#[test]
fn winning_moves_leave_a_zero_xor_and_the_pv_ends_the_game() {
    let mut engine = Engine::new(Nim, 16);
    let start = Heaps::new(&[3, 4, 5]);
    let values = engine.move_values(&start);
    assert_eq!(values.len(), 12);
    for (mv, value) in values {
        // Values are from the first player's side; the first player is to move.
        let (heap, take) = unpack(mv);
        let mut after = start;
        after.stones[heap] -= take;
        assert_eq!(value == 1, xor(&after) == 0, "move {}", mv);
    }
    // 3 ^ 4 ^ 5 = 2: the only winning move takes 2 from the heap of 3.
    let pv = engine.principal_variation(&start);
    assert_eq!(pv[0], nim_move(0, 2));
    let mut pos = start;
    for &mv in &pv {
        let (heap, take) = unpack(mv);
        pos.stones[heap] -= take;
        pos.to_move = pos.to_move.opponent();
    }
    assert_eq!(pos.stones, [0; 4]);
    assert_eq!(pos.to_move, Player::Second, "the first player takes the last stone");
}

#[test]
fn the_tutorial_shows_the_example_code() {
    let tutorial = include_str!("../../../docs/tutorial.md");
    let example = include_str!("../examples/nim.rs");
    let mut blocks = 0;
    let mut rest = tutorial;
    while let Some(start) = rest.find("```rust\n") {
        let body = &rest[start + 8..];
        let end = body.find("```").expect("a closed code block");
        let code = &body[..end];
        assert!(example.contains(code), "docs/tutorial.md shows code not in examples/nim.rs:\n{code}");
        blocks += 1;
        rest = &body[end + 3..];
    }
    assert!(blocks >= 3, "the tutorial shows the game's code");
}
