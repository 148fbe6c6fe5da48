//! Solves the empty board of one size and prints one line for `cargo xtask c4-table`:
//! `WxH RESULT NODES SECONDS PUBLISHED MATCH`, e.g. `7x6 1st-41 414000000 158.2 1st-41 yes`
//! (RESULT: winner `1st` / `2nd` / `draw` and the move on which the perfect game ends;
//! PUBLISHED: J. Tromp's / C. Steininger's value, `-` if none; MATCH: `yes`, `no` or `-`).
//!
//! Usage: `board_size WxH [--tt-bits N]`.

use std::time::Instant;

use connect_four::{published, GameResult, Geometry, Position, Solver};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bits = match args.iter().position(|a| a == "--tt-bits") {
        Some(i) => args.get(i + 1).ok_or("--tt-bits needs a value")?.parse()?,
        None => 24,
    };
    if !(4..=32).contains(&bits) {
        return Err(format!("--tt-bits {bits}: expected 4 to 32").into());
    }
    let size = args
        .iter()
        .enumerate()
        .find(|(i, a)| !a.starts_with("--") && (*i == 0 || args[i - 1] != "--tt-bits"))
        .map(|(_, a)| a.clone())
        .ok_or("usage: board_size WxH [--tt-bits N]")?;
    let (w, h) = size.split_once('x').ok_or("size must be WxH, e.g. 7x6")?;
    let geom = Geometry::new(w.parse()?, h.parse()?)?;
    let pos = Position::empty(geom);
    let mut solver = Solver::with_tt_bits(geom, bits);
    let t = Instant::now();
    let score = solver.score(&pos);
    let secs = t.elapsed().as_secs_f64();
    let ours = GameResult::from_score(&pos, score).ok_or("the solver gave an impossible score")?;
    let known = published(&geom);
    let (known_text, matches) = match known {
        Some(k) => (k.label().replace(' ', "-"), if k == ours { "yes" } else { "no" }),
        None => ("-".to_string(), "-"),
    };
    println!(
        "{}x{} {} {} {secs:.2} {known_text} {matches}",
        geom.width(),
        geom.height(),
        ours.label().replace(' ', "-"),
        solver.stats().nodes
    );
    Ok(())
}
