//! Scratch: where the nodes go.
use search_core::{Game, Player, Solver, Value};
use std::cell::RefCell;
use triangle_war::{Geometry, Position, TriangleWar};

struct Counting {
    g: TriangleWar,
    hist: RefCell<Vec<[u64; 3]>>,
    nmoves: RefCell<[[u64; 50]; 3]>,
    tri: Vec<u64>,
}
impl Game for Counting {
    type Position = Position;
    type Move = u8;
    type Key = u64;
    fn to_move(&self, p: &Position) -> Player {
        self.g.to_move(p)
    }
    fn terminal_value(&self, p: &Position) -> Option<Value> {
        self.g.terminal_value(p)
    }
    fn generate_moves(&self, p: &Position, m: &mut Vec<u8>) {
        self.g.generate_moves(p, m);
        let d = p.drawn().0;
        let cap = self.tri.iter().any(|t| (t & !d).count_ones() == 1);
        let all = self.g.geometry().all_segments().0;
        let safe = (0..64).filter(|&s| all >> s & 1 == 1 && d >> s & 1 == 0).any(|s| {
            let a = d | 1u64 << s;
            !self.tri.iter().any(|t| (t & !a).count_ones() == 1)
        });
        let k = if cap {
            0
        } else if safe {
            1
        } else {
            2
        };
        self.hist.borrow_mut()[d.count_ones() as usize][k] += 1;
        self.nmoves.borrow_mut()[k][m.len()] += 1;
    }
    fn play(&self, p: &Position, m: u8) -> (Position, Value) {
        self.g.play(p, m)
    }
    fn key(&self, p: &Position) -> u64 {
        self.g.key(p)
    }
    fn value_bounds(&self, p: &Position) -> (Value, Value) {
        self.g.value_bounds(p)
    }
    fn order_moves(&self, p: &Position, m: &mut [u8]) {
        self.g.order_moves(p, m)
    }
}
fn main() {
    let side: u8 = std::env::args().nth(1).map_or(4, |s| s.parse().unwrap());
    let g = Geometry::new(side).unwrap();
    let tri = g.triangles().iter().map(|t| t.0).collect();
    let c = Counting {
        g: TriangleWar::new(g),
        hist: RefCell::new(vec![[0; 3]; 64]),
        nmoves: RefCell::new([[0; 50]; 3]),
        tri,
    };
    let mut s = Solver::new(c, 22);
    let v = s.value_exceeds(&Position::start(), 0);
    println!("A wins {v} nodes {}", s.stats().nodes);
    let h = s.game().hist.borrow();
    let mut tot = [0u64; 3];
    for (i, r) in h.iter().enumerate() {
        if r.iter().sum::<u64>() > 0 {
            println!("{i:2} capt {:9} safe {:9} loony {:9}", r[0], r[1], r[2]);
            for k in 0..3 {
                tot[k] += r[k];
            }
        }
    }
    println!("tot capt {} safe {} loony {}", tot[0], tot[1], tot[2]);
    let nm = s.game().nmoves.borrow();
    for k in 0..3 {
        println!("kind {k}: {:?}", nm[k].iter().enumerate().filter(|x| *x.1 > 0).collect::<Vec<_>>());
    }
}
