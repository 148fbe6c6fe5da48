//! [`diagram`]: a Triangle War position drawn as text.

use search_core::Player;

use crate::{Geometry, Position};

/// The board as text: dots by number, drawn segments as lines, owned triangles by their
/// owner's letter.
///
/// Dot `(r, c)` sits at text row `3r`, column `6c + 3(n - r)`; segments use the cells between.
#[must_use]
pub fn diagram(geometry: &Geometry, pos: &Position) -> String {
    let n = usize::from(geometry.side());
    let (rows, cols) = (3 * n + 1, 6 * n + 3);
    let mut grid = vec![vec![b' '; cols]; rows];
    let at = |d: u8| {
        let d = usize::from(d) - 1;
        let r = (0..=n).rev().find(|&r| r * (r + 1) / 2 <= d).unwrap_or(0);
        let c = d - r * (r + 1) / 2;
        (3 * r, 6 * c + 3 * (n - r) + 1)
    };
    for s in pos.drawn().iter() {
        let seg = geometry.segments()[s];
        let ((y0, x0), (y1, x1)) = (at(seg.a), at(seg.b));
        if y0 == y1 {
            grid[y0][x0 + 1..x1].fill(b'-');
        } else if x1 < x0 {
            grid[y0 + 1][x0 - 1] = b'/';
            grid[y0 + 2][x0 - 2] = b'/';
        } else {
            grid[y0 + 1][x0 + 1] = b'\\';
            grid[y0 + 2][x0 + 2] = b'\\';
        }
    }
    // Owned triangles show their owner's letter at their centre.
    for (i, &t) in geometry.triangles().iter().enumerate() {
        let owner = if pos.owned(Player::First) >> i & 1 == 1 {
            b'A'
        } else if pos.owned(Player::Second) >> i & 1 == 1 {
            b'B'
        } else {
            continue;
        };
        {
            let mut dots: Vec<u8> =
                t.iter().flat_map(|s| [geometry.segments()[s].a, geometry.segments()[s].b]).collect();
            dots.sort_unstable();
            dots.dedup();
            let ys: Vec<usize> = dots.iter().map(|&d| at(d).0).collect();
            let xs: Vec<usize> = dots.iter().map(|&d| at(d).1).collect();
            let (ymin, ymax) = (*ys.iter().min().unwrap(), *ys.iter().max().unwrap());
            let top_count = ys.iter().filter(|&&y| y == ymin).count();
            let x = (xs.iter().min().unwrap() + xs.iter().max().unwrap()) / 2;
            // Upward triangles have one top dot (centre two rows down), downward ones two.
            let y = if top_count == 2 { ymin + 1 } else { ymax - 1 };
            grid[y][x] = owner;
        }
    }
    for d in 1..=geometry.dots() {
        let (y, x) = at(d);
        let label = d.to_string();
        let start = x + 1 - label.len();
        grid[y][start..=x].copy_from_slice(label.as_bytes());
    }
    grid.iter().map(|row| String::from_utf8_lossy(row).trim_end().to_string() + "\n").collect()
}
