//! [`TicTacToeFront`]: the m,n,k-game as a person sees it, scored as CCF 201803-4, for every
//! front end (`games-cli`, its web page, the Python module): cells `r,c`, x and o, the grid
//! drawn, UVa 10111's and CCF 201803-4's input read and written.

use game_front::{Front, JudgeCase, ParamError, ParamSpec, Params, SolverSettings};
use search_core::{Engine, Player, SearchOptions, Value};

use crate::{default_tt_bits, parse_ccf_from, parse_uva_from, Cell, Geometry, MnkGame, Position, Scoring};

/// The grid with 0-based row and column numbers, one line per row.
fn draw(pos: &Position) -> String {
    let g = pos.geometry();
    let mut s = String::from(" ");
    for c in 0..g.cols() {
        s.push_str(&format!(" {c}"));
    }
    s.push('\n');
    for (r, row) in pos.grid().lines().enumerate() {
        s.push_str(&r.to_string());
        for ch in row.chars() {
            s.push(' ');
            s.push(ch);
        }
        s.push('\n');
    }
    s
}

/// x or o.
fn player_name(p: Player) -> &'static str {
    match p {
        Player::First => "x",
        Player::Second => "o",
    }
}

/// The lines and empty cells so far, in words.
fn score_so_far(pos: &Position) -> String {
    let n = pos.empty_cells().count() as usize;
    let empty = game_front::count(n, "empty cell", "empty cells");
    match pos.winner() {
        Some(w) => format!("{w} has completed a line, {empty} (game over)"),
        None if n == 0 => "board full without a line (draw)".to_string(),
        None => format!("no line yet, {empty}"),
    }
}

/// A cell as `r,c` (0-based row and column).
fn cell_text(geometry: Geometry, cell: Cell) -> String {
    let (r, c) = geometry.row_col(cell);
    format!("{r},{c}")
}

/// Tic-tac-toe (any m,n,k-game) as a person sees it, scored as CCF 201803-4 (a quicker win is
/// worth more): cells `r,c`, 0-based.
pub struct TicTacToeFront {
    geometry: Geometry,
}

impl TicTacToeFront {
    /// The front of the board of `geometry`.
    #[must_use]
    pub fn with_geometry(geometry: Geometry) -> Self {
        TicTacToeFront { geometry }
    }
}

/// Checks a board size `ROWSxCOLS`, each 1 to 8.
fn check_size(text: &str) -> Result<(), String> {
    match game_front::parse_size(text, "ROWSxCOLS", "3x3")? {
        (1..=8, 1..=8) => Ok(()),
        _ => Err("expected each side from 1 to 8".to_string()),
    }
}

impl Front for TicTacToeFront {
    type G = MnkGame;
    type Solver = Engine<MnkGame>;
    const NAME: &'static str = "tic-tac-toe";
    const TITLE: &'static str = "m,n,k-game (tic-tac-toe)";
    const PARAMS: &'static [ParamSpec] = &[
        ParamSpec {
            name: "size",
            value_name: "MxN",
            help: "Board size ROWSxCOLS (each 1 to 8).",
            default: Some("3x3"),
            check: check_size,
        },
        ParamSpec {
            name: "k",
            value_name: "K",
            help: "Stones in a row needed to win [default: the shorter side of the board].",
            default: None,
            check: |t| game_front::check_int(t, 1, 8),
        },
    ];
    const EXAMPLE: &'static str = "--size 4x4 --k 3";

    fn new(params: &Params) -> Result<Self, ParamError> {
        let text = params.get("size").unwrap_or("3x3");
        let (rows, cols) = game_front::parse_size(text, "ROWSxCOLS", "3x3").map_err(ParamError::Board)?;
        // Same default as `winning-move`: k is the shorter side (3 on 3x3).
        let k = match params.get("k") {
            Some(_) => params.parse::<usize>("k")?,
            None => rows.min(cols),
        };
        let geometry = Geometry::new(rows, cols, k).map_err(|e| ParamError::Board(e.to_string()))?;
        Ok(TicTacToeFront { geometry })
    }

    fn solver(&self, settings: SolverSettings) -> Engine<MnkGame> {
        let defaults = SearchOptions { tt_bits: default_tt_bits(self.geometry), ..SearchOptions::DEFAULT };
        settings.engine(MnkGame::new(self.geometry, Scoring::EmptyPlusOne), defaults)
    }

    fn start(&self) -> Position {
        Position::empty(self.geometry)
    }

    fn player_name(&self, player: Player) -> &'static str {
        player_name(player)
    }

    fn move_text(&self, mv: &Cell) -> String {
        cell_text(self.geometry, *mv)
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Cell, String> {
        let cell = crate::parse_cell_text(&self.geometry, text).map_err(|e| e.to_string())?;
        pos.try_play(cell).map(|_| cell).map_err(|e| e.to_string())
    }

    fn move_help(&self) -> &'static str {
        "a cell as `row,col`, 0-based, e.g. `1,1`"
    }

    fn draw(&self, pos: &Position) -> String {
        draw(pos)
    }

    fn score_text(&self, pos: &Position) -> String {
        score_so_far(pos)
    }

    fn result_text(&self, value: Value) -> String {
        match value.signum() {
            1 => format!("x wins, score {value}"),
            -1 => format!("o wins, score {value}"),
            _ => "draw, score 0".to_string(),
        }
    }

    fn value_note(&self) -> &'static str {
        "CCF score, x's side: a win scores empty cells + 1"
    }

    /// Cells of 100 units with row and column numbers, x and o drawn in the players' colours;
    /// every empty cell is a move while the game goes on.
    fn board_json(&self, pos: &Position) -> serde_json::Value {
        const CELL: f64 = 100.0;
        const HEAD: f64 = 36.0;
        let g = self.geometry;
        let (rows, cols) = (g.rows(), g.cols());
        let mut s =
            game_front::Sketch::new(HEAD + CELL * cols as f64 + 8.0, HEAD + CELL * rows as f64 + 8.0, 30.0);
        s.player("x", game_front::sketch::FIRST);
        s.player("o", game_front::sketch::SECOND);
        for c in 0..cols {
            s.text(
                (HEAD + CELL * (c as f64 + 0.5), HEAD / 2.0),
                &c.to_string(),
                20.0,
                game_front::sketch::MUTED,
                false,
            );
        }
        let legal: Vec<Cell> = pos.legal_moves().collect();
        for r in 0..rows {
            let y = HEAD + CELL * r as f64;
            s.text((HEAD / 2.0, y + CELL / 2.0), &r.to_string(), 20.0, game_front::sketch::MUTED, false);
            for c in 0..cols {
                let x = HEAD + CELL * c as f64;
                let (cx, cy) = (x + CELL / 2.0, y + CELL / 2.0);
                s.add(game_front::sketch::rect(x, y, CELL, CELL, "#ffffff", "#9ca3af"));
                let Some(cell) = g.cell(r, c) else { continue };
                match pos.mark_at(cell) {
                    Some(crate::Mark::X) => {
                        let d = 28.0;
                        s.add(game_front::sketch::line(
                            (cx - d, cy - d),
                            (cx + d, cy + d),
                            game_front::sketch::FIRST,
                            11.0,
                        ));
                        s.add(game_front::sketch::line(
                            (cx - d, cy + d),
                            (cx + d, cy - d),
                            game_front::sketch::FIRST,
                            11.0,
                        ));
                    }
                    Some(crate::Mark::O) => s.add(game_front::sketch::circle(
                        (cx, cy),
                        30.0,
                        "none",
                        game_front::sketch::SECOND,
                        10.0,
                    )),
                    None if legal.contains(&cell) => {
                        let target = game_front::sketch::rect(
                            x + 4.0,
                            y + 4.0,
                            CELL - 8.0,
                            CELL - 8.0,
                            "#ffffff",
                            "none",
                        );
                        s.legal_move(cell_text(g, cell), (cx, cy), target);
                    }
                    None => {}
                }
            }
        }
        s.into_json()
    }

    /// On the 3x3 board with k = 3 one board of CCF 201803-4 (`1`, then 3 rows of `0/1/2`);
    /// on any board one case of UVa 10111's format (`?`, then the rows of `.xo`), x to move. A
    /// text with more cases is refused (only one case is read).
    fn parse_setup(&self, text: &str) -> Result<JudgeCase<Self>, String> {
        let uva = text.trim_start().starts_with('?');
        let mut cases: Box<dyn Iterator<Item = Result<crate::Case, crate::ParseError>>> = if uva {
            Box::new(parse_uva_from(text.as_bytes(), self.geometry))
        } else if self.geometry == Geometry::CCF {
            Box::new(parse_ccf_from(text.as_bytes()))
        } else {
            return Err(format!(
                "expected a UVa 10111 case on this {}x{} board: a line `?`, then {} rows of `.`, `x`, `o`",
                self.geometry.rows(),
                self.geometry.cols(),
                self.geometry.rows()
            ));
        };
        let case = cases.next().ok_or("no board in the text")?.map_err(|e| e.to_string())?;
        match cases.next() {
            None => {}
            Some(Ok(second)) => {
                return Err(format!(
                    "line {}: board {}: only one case is read: expected one board",
                    second.line, second.number
                ))
            }
            Some(Err(e)) => return Err(e.to_string()),
        }
        Ok(JudgeCase { front: None, start: case.position, moves: Vec::new() })
    }

    /// CCF 201803-4's format on the 3x3 board, UVa 10111's on the others.
    fn setup_text(&self, start: &Position, moves: &[Cell]) -> String {
        let pos = moves.iter().fold(*start, |p, &c| p.play(c));
        if self.geometry == Geometry::CCF {
            let mut s = String::from("1\n");
            for row in pos.grid().lines() {
                let cells: Vec<&str> = row
                    .chars()
                    .map(|ch| {
                        if ch == 'x' {
                            "1"
                        } else if ch == 'o' {
                            "2"
                        } else {
                            "0"
                        }
                    })
                    .collect();
                s.push_str(&cells.join(" "));
                s.push('\n');
            }
            s
        } else if pos.to_move() == crate::Mark::X {
            format!("?\n{}$\n", pos.grid())
        } else {
            // A UVa 10111 case has x to move: with o to move the text is the start's, from
            // which the moves replay.
            format!("?\n{}$\n", start.grid())
        }
    }
}

/// The long solve of Find the Winning Move (`games-cli winning-move --checkpoint`, `--store`):
/// the win / draw / loss m,n,k game ([`crate::Scoring::WinLoss`]), each root cell in order
/// asked whether the side to move wins after it.
impl game_front::Solvable for TicTacToeFront {
    type G = crate::MnkGame;
    type Root = Position;

    fn solve_identity(&self, root: &Position) -> search_core::SolveIdentity {
        let geometry = self.geometry;
        let mut rows = String::new();
        for row in root.grid().lines() {
            rows.push_str(row);
            rows.push('/');
        }
        search_core::SolveIdentity {
            game: "winning-move".to_string(),
            options: format!("size {}x{} k {}", geometry.rows(), geometry.cols(), geometry.k()),
            root: format!("{rows} {} to move", root.to_move()),
        }
    }

    /// A win, draw or loss, a cell of the board.
    fn entry_possible(&self, _root: &Position, entry: &search_core::TtEntry<u128, Cell>) -> bool {
        entry.value.abs() <= 1 && entry.best.map_or(true, |c| c.index() < self.geometry.cells())
    }

    fn root_move_text(&self, mv: Cell) -> String {
        cell_text(self.geometry, mv)
    }

    /// What the bounds say of a winning cell.
    fn bounds_text(&self, _root: &Position, (lo, hi): (i64, i64)) -> String {
        match (lo >= 1, hi <= 0) {
            (true, _) => "a winning cell found".to_string(),
            (_, true) => "no winning cell".to_string(),
            _ => "looking for a winning cell".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_is_drawn_with_coordinates() {
        let p = Position::empty(Geometry::CCF).play(Cell(4));
        assert_eq!(draw(&p), "  0 1 2\n0 . . .\n1 . x .\n2 . . .\n");
    }
}
