//! [`Board`] (the two value matrices) and [`YoungGame`], the [`search_core::Game`] impl.

use search_core::{Engine, Game, Player, SearchOptions, Value};
use thiserror::Error;

use crate::{Cell, Staircase};

/// Largest accepted cell value (`10^15`). With at most 1024 cells (`n + m <= 64`) every score
/// and margin stays below `2^61`, inside the engine's window ([`search_core::INFINITY`]), so no
/// arithmetic can overflow. The judge's values are at most `100000`.
pub const MAX_VALUE: i64 = 1_000_000_000_000_000;

/// Largest accepted `n + m`: the lattice path of a [`Staircase`] fits in a `u64`.
pub const MAX_SIDE_SUM: usize = 64;

/// Why [`Board::new`] rejected its arguments.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum BoardError {
    /// `n` or `m` is zero.
    #[error("the board must have at least one row and one column, got {n} x {m}")]
    Empty {
        /// Rows asked for.
        n: usize,
        /// Columns asked for.
        m: usize,
    },
    /// `n + m` exceeds [`MAX_SIDE_SUM`].
    #[error("board {n} x {m} too large: n + m must be at most {MAX_SIDE_SUM}")]
    TooLarge {
        /// Rows asked for.
        n: usize,
        /// Columns asked for.
        m: usize,
    },
    /// A matrix does not have `n * m` entries.
    #[error("matrix {matrix} has {len} entries, expected {expected}")]
    WrongLength {
        /// `'A'` or `'B'`.
        matrix: char,
        /// Entries given.
        len: usize,
        /// `n * m`.
        expected: usize,
    },
    /// A value is negative or above [`MAX_VALUE`].
    #[error("matrix {matrix}, cell ({row}, {col}): value {value} outside 0..={MAX_VALUE}")]
    BadValue {
        /// `'A'` or `'B'`.
        matrix: char,
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// The value.
        value: i64,
    },
}

/// A board: its size `n x m` (rows x columns) and the value matrices `A` (Black's) and `B`
/// (White's), row-major, values in `0..=MAX_VALUE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    n: usize,
    m: usize,
    a: Vec<i64>,
    b: Vec<i64>,
}

impl Board {
    /// A board of `n` rows and `m` columns with row-major value matrices `a` (Black's) and `b`
    /// (White's), each of `n * m` entries.
    ///
    /// # Errors
    /// [`BoardError`] if `n` or `m` is 0, `n + m > MAX_SIDE_SUM`, a matrix has the wrong length,
    /// or a value is outside `0..=MAX_VALUE`.
    pub fn new(n: usize, m: usize, a: Vec<i64>, b: Vec<i64>) -> Result<Self, BoardError> {
        if n == 0 || m == 0 {
            return Err(BoardError::Empty { n, m });
        }
        if n + m > MAX_SIDE_SUM {
            return Err(BoardError::TooLarge { n, m });
        }
        for (matrix, v) in [('A', &a), ('B', &b)] {
            if v.len() != n * m {
                return Err(BoardError::WrongLength { matrix, len: v.len(), expected: n * m });
            }
            if let Some(i) = v.iter().position(|x| !(0..=MAX_VALUE).contains(x)) {
                return Err(BoardError::BadValue { matrix, row: i / m, col: i % m, value: v[i] });
            }
        }
        Ok(Board { n, m, a, b })
    }

    /// Number of rows.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.n
    }

    /// Number of columns.
    #[must_use]
    pub fn cols(&self) -> usize {
        self.m
    }

    /// Black's value of cell `(r, c)`. Panics outside the board.
    #[must_use]
    pub fn a(&self, r: usize, c: usize) -> i64 {
        assert!(c < self.m);
        self.a[r * self.m + c]
    }

    /// White's value of cell `(r, c)`. Panics outside the board.
    #[must_use]
    pub fn b(&self, r: usize, c: usize) -> i64 {
        assert!(c < self.m);
        self.b[r * self.m + c]
    }

    /// Black's matrix, row-major.
    #[must_use]
    pub fn a_values(&self) -> &[i64] {
        &self.a
    }

    /// White's matrix, row-major.
    #[must_use]
    pub fn b_values(&self) -> &[i64] {
        &self.b
    }

    /// An upper bound on the absolute value of any margin of the game: the sum over all cells of
    /// `max(A, B)` (at most `1024 * MAX_VALUE`).
    #[must_use]
    pub fn value_bound(&self) -> i64 {
        self.a.iter().zip(&self.b).map(|(&x, &y)| x.max(y)).sum()
    }

    /// The empty board's position.
    #[must_use]
    pub fn start(&self) -> Staircase {
        Staircase::empty(self.n, self.m)
    }

    /// The value of `cell` for the player who fills it in `pos` (A if Black is to move, B
    /// otherwise).
    #[must_use]
    pub fn gain(&self, pos: &Staircase, cell: Cell) -> i64 {
        let i = cell.row as usize * self.m + cell.col as usize;
        if pos.black_to_move() {
            self.a[i]
        } else {
            self.b[i]
        }
    }
}

/// The Young-diagram game on one [`Board`], for the [`search_core`] engine.
///
/// Positions are [`Staircase`]s, moves are [`Cell`]s; a move banks the mover's value of the
/// cell. The TT key is the lattice path (unique for a fixed board size). [`Game::banked`] is 0:
/// a staircase does not record who filled which cell, so analyses are meant for the start
/// position (or report margins of the remaining play).
#[derive(Clone, Copy, Debug)]
pub struct YoungGame<'a> {
    board: &'a Board,
}

impl<'a> YoungGame<'a> {
    /// The game on `board`.
    #[must_use]
    pub fn new(board: &'a Board) -> Self {
        YoungGame { board }
    }

    /// The board.
    #[must_use]
    pub fn board(&self) -> &'a Board {
        self.board
    }

    /// How the engine should search this game: principal variation search off (move ordering
    /// by gain is weak and values spread widely, so null-window re-searches cost more than they
    /// save: 10x10, 47M nodes with PVS, 3.7M without), a TT of 2^20 entries.
    pub const SEARCH_OPTIONS: SearchOptions =
        SearchOptions { principal_variation_search: false, tt_bits: 20, ..SearchOptions::DEFAULT };

    /// A search-core engine for this game with [`YoungGame::SEARCH_OPTIONS`].
    #[must_use]
    pub fn solver(self) -> Engine<Self> {
        Engine::with_options(self, Self::SEARCH_OPTIONS)
    }
}

impl Game for YoungGame<'_> {
    type Position = Staircase;
    type Move = Cell;
    type Key = u64;

    fn to_move(&self, pos: &Staircase) -> Player {
        if pos.black_to_move() {
            Player::First
        } else {
            Player::Second
        }
    }

    fn terminal_value(&self, pos: &Staircase) -> Option<Value> {
        pos.is_full().then_some(0)
    }

    fn generate_moves(&self, pos: &Staircase, moves: &mut Vec<Cell>) {
        moves.extend(pos.moves());
    }

    fn play(&self, pos: &Staircase, mv: Cell) -> (Staircase, Value) {
        let child = pos.fill(mv).expect("search-core plays only legal moves");
        (child, self.board.gain(pos, mv))
    }

    fn key(&self, pos: &Staircase) -> u64 {
        pos.path()
    }

    fn order_moves(&self, pos: &Staircase, moves: &mut [Cell]) {
        // Most valuable cell for the mover first (stable: ties keep generation order).
        moves.sort_by_key(|&c| std::cmp::Reverse(self.board.gain(pos, c)));
    }
}
