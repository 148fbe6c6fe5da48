//! Proves the Maker-Breaker game of an empty m,n,k board with [`ZoneProver`]:
//! `cargo run --release -p tic-tac-toe --example zone -- ROWS COLS K [SECONDS] [TABLE_BITS]`:
//! stops after SECONDS (default 60); the table holds `2^TABLE_BITS` positions (default 24,
//! about 48 bytes each); a progress line on stderr every 10 million positions.

use std::time::{Duration, Instant};

use tic_tac_toe::{Bitboard, Geometry, ZoneProver};

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().expect("a number")).collect();
    let (rows, cols, k) = (args[0], args[1], args[2]);
    let seconds = args.get(3).copied().unwrap_or(60) as u64;
    let geometry = Geometry::new(rows, cols, k).expect("a board up to 8x8");
    let table_bits = args.get(4).copied().unwrap_or(24).min(32);
    let mut prover = ZoneProver::new(geometry, 1 << table_bits);
    // Debug: ZONE_MAKER=a,b and ZONE_BREAKER=c,d put stones first.
    let cells = |var: &str| -> Bitboard {
        std::env::var(var).ok().map_or(Bitboard::EMPTY, |v| {
            v.split(',')
                .map(|c| c.parse::<u32>().unwrap())
                .fold(Bitboard::EMPTY, |b, c| b | Bitboard::single(c))
        })
    };
    let (m, b) = (cells("ZONE_MAKER"), cells("ZONE_BREAKER"));
    let root = prover.game().position(m, b, m.count() == b.count());
    let start = Instant::now();
    prover.set_limits(Some(start + Duration::from_secs(seconds)), None);
    let mut progress = |nodes: u64| {
        eprintln!("{nodes} positions, {:.0} s", start.elapsed().as_secs_f64());
    };
    let answer = match prover.prove_with_progress(&root, 10_000_000, &mut progress) {
        Ok(p) if p.maker_wins => format!("Maker wins (zone {} cells)", p.zone.count()),
        Ok(p) => format!("Breaker wins (zone {} cells)", p.zone.count()),
        Err(_) => "unknown (time limit)".to_string(),
    };
    println!(
        "{rows}x{cols} k={k}: {answer}, {} nodes, {} table entries, {:.3} s",
        prover.nodes(),
        prover.table_len(),
        start.elapsed().as_secs_f64()
    );
}
