//! [`YoungChessFront`]: the Young-diagram game (LOJ 2471) as a person sees it, for every front
//! end (`games-cli`, its web page, the Python module): cells `row,col`, Black and White, the
//! board drawn with each cell's two values, LOJ 2471's input read and written.

use game_front::{Front, JudgeCase, ParamError, ParamSpec, Params, SolverSettings};
use search_core::{Engine, Player, Value};

use crate::{Board, Cell, ScoredGame, ScoredPosition, SCORED_MAX_CELLS};

/// What a value of the game means (first player's side).
pub const VALUE_NOTE: &str = "Black's score minus White's";

/// Black (first player) and White.
/// The name of a player: Black (first) or White.
#[must_use]
pub fn player_name(player: Player) -> &'static str {
    match player {
        Player::First => "Black",
        Player::Second => "White",
    }
}

/// The Young-diagram game as a person sees it: cells `row,col`, Black's and White's values
/// `a/b` on the empty cells.
pub struct YoungChessFront {
    game: ScoredGame,
}

impl YoungChessFront {
    /// The front of `board` (LOJ 2471's values).
    ///
    /// # Errors
    /// A board too large for play ([`crate::SCORED_MAX_CELLS`]).
    pub fn with_board(board: Board) -> Result<Self, ParamError> {
        Ok(YoungChessFront { game: ScoredGame::new(board).map_err(|e| ParamError::Board(e.to_string()))? })
    }

    /// A `rows` x `cols` board with values 0 to 9 drawn from `seed` (deterministic).
    fn random_board(rows: usize, cols: usize, seed: u64) -> Result<Board, ParamError> {
        if !rows.checked_mul(cols).is_some_and(|cells| cells <= SCORED_MAX_CELLS) {
            return Err(ParamError::Board(format!(
                "play young-chess takes boards of 1 to {SCORED_MAX_CELLS} cells, found {rows} x {cols}"
            )));
        }
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut values = || (0..rows * cols).map(|_| rng.gen_range(0..10)).collect::<Vec<i64>>();
        let (a, b) = (values(), values());
        Board::new(rows, cols, a, b).map_err(|e| ParamError::Board(e.to_string()))
    }

    fn board(&self) -> &Board {
        self.game.board()
    }
}

impl Front for YoungChessFront {
    type G = ScoredGame;
    type Solver = Engine<ScoredGame>;
    const NAME: &'static str = "young-chess";
    const TITLE: &'static str = "Young-diagram game";
    const PARAMS: &'static [ParamSpec] = &[
        ParamSpec {
            name: "size",
            value_name: "ROWSxCOLS",
            help: "Board size `ROWSxCOLS` (at most 128 cells), with random values 0 to 9.",
            default: Some("3x3"),
            check: |t| game_front::parse_size(t, "ROWSxCOLS", "4x4").map(|_| ()),
        },
        ParamSpec {
            name: "seed",
            value_name: "SEED",
            help: "Seed of the random values.",
            default: Some("1"),
            check: |t| game_front::check_int(t, 0, u64::MAX),
        },
    ];
    const EXAMPLE: &'static str = "--size 3x4 --seed 7";

    /// A board of random values; a board of given values comes from its judge text
    /// ([`Front::parse_setup`]) or [`YoungChessFront::with_board`].
    fn new(params: &Params) -> Result<Self, ParamError> {
        let text = params.get("size").unwrap_or("3x3");
        let (rows, cols) = game_front::parse_size(text, "ROWSxCOLS", "4x4").map_err(ParamError::Board)?;
        Self::with_board(Self::random_board(rows, cols, params.parse::<u64>("seed")?)?)
    }

    fn solver(&self, settings: SolverSettings) -> Engine<ScoredGame> {
        settings.engine(self.game.clone(), crate::YoungGame::SEARCH_OPTIONS)
    }

    fn start(&self) -> ScoredPosition {
        self.game.start()
    }

    fn player_name(&self, player: Player) -> &'static str {
        player_name(player)
    }

    fn move_text(&self, mv: &Cell) -> String {
        mv.to_string()
    }

    fn parse_move(&self, pos: &ScoredPosition, text: &str) -> Result<Cell, String> {
        let cell = crate::parse_cell_text(self.board(), text).map_err(|e| e.to_string())?;
        let (r, c) = (usize::from(cell.row), usize::from(cell.col));
        if pos.staircase().is_filled(r, c) {
            return Err(format!("cell {r},{c} is already filled"));
        }
        if pos.staircase().moves().any(|m| m == cell) {
            return Ok(cell);
        }
        let legal: Vec<String> = pos.staircase().moves().map(|m| m.to_string()).collect();
        Err(format!(
            "cell {r},{c} cannot take a stone now (the cells above and to its left must be filled); legal: {}",
            legal.join(" ")
        ))
    }

    fn move_help(&self) -> &'static str {
        "a cell as `row,col`, 0-based, e.g. `0,0`"
    }

    /// Filled cells show `B` or `W`; empty ones Black's and White's values `a/b`.
    fn draw(&self, pos: &ScoredPosition) -> String {
        let board = self.board();
        let (n, m) = (board.rows(), board.cols());
        let width = (0..n)
            .flat_map(|r| (0..m).map(move |c| (r, c)))
            .map(|(r, c)| format!("{}/{}", board.a(r, c), board.b(r, c)).len())
            .max()
            .unwrap_or(1);
        let mut s = format!("{:>3}", "");
        for c in 0..m {
            s.push_str(&format!(" {c:>width$}"));
        }
        s.push('\n');
        for r in 0..n {
            s.push_str(&format!("{r:>3}"));
            for c in 0..m {
                let cell = match pos.owner(r, c, m) {
                    None => format!("{}/{}", board.a(r, c), board.b(r, c)),
                    Some(Player::First) => "B".to_string(),
                    Some(Player::Second) => "W".to_string(),
                };
                s.push_str(&format!(" {cell:>width$}"));
            }
            s.push('\n');
        }
        s
    }

    fn score_text(&self, pos: &ScoredPosition) -> String {
        format!("Black minus White {:+}", pos.margin())
    }

    fn result_text(&self, value: Value) -> String {
        game_front::margin_words(value, "Black", "White")
    }

    fn value_note(&self) -> &'static str {
        VALUE_NOTE
    }

    /// Cells of 100 units with row and column numbers: Black's cells dark, White's white, each
    /// with the value its owner took; empty cells show `a/b`; the playable corners are moves.
    fn board_json(&self, pos: &ScoredPosition) -> serde_json::Value {
        const CELL: f64 = 100.0;
        const HEAD: f64 = 36.0;
        let board = self.board();
        let (n, m) = (board.rows(), board.cols());
        let mut s = game_front::Sketch::new(HEAD + CELL * m as f64 + 8.0, HEAD + CELL * n as f64 + 8.0, 26.0);
        s.player("Black", game_front::sketch::INK);
        s.player("White", "#ffffff");
        for c in 0..m {
            s.text(
                (HEAD + CELL * (c as f64 + 0.5), HEAD / 2.0),
                &c.to_string(),
                20.0,
                game_front::sketch::MUTED,
                false,
            );
        }
        let moves: Vec<Cell> = pos.staircase().moves().collect();
        for r in 0..n {
            let y = HEAD + CELL * r as f64;
            s.text((HEAD / 2.0, y + CELL / 2.0), &r.to_string(), 20.0, game_front::sketch::MUTED, false);
            for c in 0..m {
                let x = HEAD + CELL * c as f64;
                let centre = (x + CELL / 2.0, y + CELL / 2.0);
                match pos.owner(r, c, m) {
                    Some(Player::First) => {
                        s.add(game_front::sketch::rect(x, y, CELL, CELL, game_front::sketch::INK, "#9ca3af"));
                        s.text(centre, &format!("B +{}", board.a(r, c)), 28.0, "#ffffff", true);
                    }
                    Some(Player::Second) => {
                        s.add(game_front::sketch::rect(x, y, CELL, CELL, "#ffffff", "#9ca3af"));
                        s.text(centre, &format!("W +{}", board.b(r, c)), 28.0, game_front::sketch::INK, true);
                    }
                    None => {
                        s.add(game_front::sketch::rect(x, y, CELL, CELL, "#fdf6e3", "#9ca3af"));
                        let ab = format!("{}/{}", board.a(r, c), board.b(r, c));
                        s.text((centre.0, y + 20.0), &ab, 20.0, game_front::sketch::MUTED, false);
                        let cell = Cell { row: r as u8, col: c as u8 };
                        if moves.contains(&cell) {
                            let target = game_front::sketch::rect(
                                x + 4.0,
                                y + 4.0,
                                CELL - 8.0,
                                CELL - 8.0,
                                "#fdf6e3",
                                "none",
                            );
                            s.legal_move(cell.to_string(), (centre.0, y + 62.0), target);
                        }
                    }
                }
            }
        }
        s.into_json()
    }

    /// A board in LOJ 2471's format (`n m`, n rows of Black's values, n rows of White's): the
    /// empty board with those values (the format has no filled cells).
    fn parse_setup(&self, text: &str) -> Result<JudgeCase<Self>, String> {
        let board = crate::parse(text).map_err(|e| e.to_string())?;
        let front = YoungChessFront { game: ScoredGame::new(board).map_err(|e| e.to_string())? };
        let start = front.start();
        Ok(JudgeCase { front: Some(front), start, moves: Vec::new() })
    }

    /// The board's values in LOJ 2471's format (the moves played are not part of it).
    fn setup_text(&self, _start: &ScoredPosition, _moves: &[Cell]) -> String {
        let board = self.board();
        let (n, m) = (board.rows(), board.cols());
        let mut s = format!("{n} {m}\n");
        for value in [Board::a, Board::b] {
            for r in 0..n {
                let row: Vec<String> = (0..m).map(|c| value(board, r, c).to_string()).collect();
                s.push_str(&row.join(" "));
                s.push('\n');
            }
        }
        s
    }
}
