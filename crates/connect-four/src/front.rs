//! [`ConnectFourFront`]: Connect Four as a person sees it, for every front end (`games-cli`,
//! its web page, the Python module): columns 1 to W, X and O, the board drawn, one input line
//! (a move string) read and written. Sessions follow the plain rules ([`PlainConnectFour`]); values come
//! from the fast [`Solver`].

use game_front::{Front, JudgeCase, ParamError, ParamSpec, Params, SolverSettings};
use search_core::{Analysis, Interrupted, Limits, Player, Value};

use crate::{parse_line, Column, Geometry, PlainConnectFour, Position, Solver};

/// A board size `COLUMNSxROWS` (e.g. `7x6`).
///
/// # Errors
/// What was expected, with the text quoted.
pub fn parse_size(text: &str) -> Result<(usize, usize), String> {
    judge_text::parse_size(text, "COLUMNSxROWS", "7x6")
}

/// What a Connect Four value means.
const VALUE_NOTE: &str = "Pons' score for X: a win with one's k-th stone is worth 22 - k on 7x6 \
                          (more for a quicker win), a loss the negative, a draw 0";

/// X or O.
fn player_name(p: Player) -> &'static str {
    match p {
        Player::First => "X",
        Player::Second => "O",
    }
}

/// The position of one line of `games-cli connect-four`'s input that is not blank (a move
/// string, optionally followed by a score as in Pons' test sets), or what is wrong with it (with its
/// 1-based column). Fields are separated by ASCII white space ([`judge_text::is_space`]).
pub fn parse_position_line(geom: Geometry, line: &str) -> Result<Position, String> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let mut fields = line.split(judge_text::is_space).filter(|f| !f.is_empty());
    match (fields.next(), fields.next()) {
        (None, _) => Err("column 1: expected a move string such as 4453, found a blank line".to_string()),
        (Some(moves), None) => {
            let start = line.chars().take_while(|&c| judge_text::is_space(c)).count();
            Position::parse(geom, moves).map_err(|e| format!("column {}: {e}", start + e.index()))
        }
        _ => parse_line(geom, line).map(|j| j.position).map_err(|e| e.to_string()),
    }
}

/// The stones played and the line if any, in words.
fn score_text(pos: &Position) -> String {
    let n = pos.moves_played();
    match pos.winner() {
        Some(w) => format!(
            "{} has four in a row after {} (game over)",
            player_name(w),
            game_front::count(n, "stone", "stones")
        ),
        None if pos.is_full() => "board full, no line (draw)".to_string(),
        None => format!("{} played, no line yet", game_front::count(n, "stone", "stones")),
    }
}

/// Connect Four as a person sees it: columns 1 to W from the left, X moves first. Sessions
/// follow the plain rules ([`PlainConnectFour`]); hints and the solver's moves come from the fast
/// [`Solver`].
pub struct ConnectFourFront {
    geom: Geometry,
}

impl ConnectFourFront {
    /// The front of the board of `geom`.
    #[must_use]
    pub fn with_geometry(geom: Geometry) -> Self {
        ConnectFourFront { geom }
    }
}

impl Front for ConnectFourFront {
    type G = PlainConnectFour;
    type Solver = Solver;
    const NAME: &'static str = "connect-four";
    const TITLE: &'static str = "Connect Four";
    const PARAMS: &'static [ParamSpec] = &[ParamSpec {
        name: "size",
        value_name: "WxH",
        help: "Board size as COLUMNSxROWS with columns x (rows + 1) <= 64.",
        default: Some("7x6"),
        check: |t| parse_size(t).map(|_| ()),
    }];
    const EXAMPLE: &'static str = "--size 5x4";

    fn new(params: &Params) -> Result<Self, ParamError> {
        let text = params.get("size").unwrap_or("7x6");
        let (w, h) = parse_size(text).map_err(ParamError::Board)?;
        let geom = Geometry::new(w, h).map_err(|e| ParamError::Board(format!("--size {w}x{h}: {e}")))?;
        Ok(ConnectFourFront::with_geometry(geom))
    }

    /// The fast solver with the settings' threads, TT budget and book (the game's defaults for
    /// those not given; the budget sized for the table the solver builds:
    /// [`Solver::tt_bits_within`]; a book of another board is not read; without a book, the
    /// bundled one on 7 x 6 ([`crate::bundled_book`]) unless `no_bundled_book`; the bundled
    /// reply book on 7 x 6 ([`crate::bundled_replies`]) unless `no_bundled_book`).
    fn solver(&self, settings: SolverSettings) -> Solver {
        let threads = settings.threads.unwrap_or(crate::DEFAULT_THREADS).max(1);
        let tt_bits =
            settings.tt_bytes.map_or(crate::DEFAULT_TT_BITS, |b| Solver::tt_bits_within(b, threads));
        let mut solver =
            Solver::with_threads(self.geom, tt_bits.min(settings.max_tt_bits.unwrap_or(u32::MAX)), threads);
        let book = crate::bundled::book_to_read(self.geom, settings.book, settings.no_bundled_book);
        if book.as_deref().is_some_and(|b| self.check_book(b).is_ok()) {
            solver.set_book(book).expect("a book of this board");
        }
        solver.set_replies(crate::bundled::replies_to_read(self.geom, settings.no_bundled_book));
        solver
    }

    /// A book of this board's positions ([`crate::ConnectFour::book_identity`]).
    fn check_book(&self, book: &search_core::Book) -> Result<(), search_core::BookError> {
        book.check(&crate::ConnectFour::new(self.geom).book_identity())
    }

    fn start(&self) -> Position {
        Position::empty(self.geom)
    }

    fn player_name(&self, player: Player) -> &'static str {
        player_name(player)
    }

    fn move_text(&self, mv: &Column) -> String {
        mv.to_string()
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Column, String> {
        let width = self.geom.width();
        let bad = || format!("expected a column number from 1 to {width}, found {}", judge_text::quote(text));
        let c: usize = text.trim().parse().map_err(|_| bad())?;
        if c == 0 || c > width {
            return Err(bad());
        }
        pos.try_play(c - 1).map(|_| Column((c - 1) as u8)).map_err(|e| e.to_string())
    }

    fn move_help(&self) -> &'static str {
        "a column number, 1 = leftmost"
    }

    fn draw(&self, pos: &Position) -> String {
        pos.to_string()
    }

    fn score_text(&self, pos: &Position) -> String {
        score_text(pos)
    }

    fn result_text(&self, value: Value) -> String {
        match value.signum() {
            1 => format!("X wins, score {value}"),
            -1 => format!("O wins, score {value}"),
            _ => "draw".to_string(),
        }
    }

    fn value_note(&self) -> &'static str {
        VALUE_NOTE
    }

    /// Columns of 100-unit cells, X red and O yellow; each playable column is a move anchored
    /// in the row above the board; column numbers (the notation) below.
    fn board_json(&self, pos: &Position) -> serde_json::Value {
        const CELL: f64 = 100.0;
        const X: &str = "#dc2626";
        const O: &str = "#facc15";
        let (w, h) = (self.geom.width(), self.geom.height());
        let top = CELL;
        let mut s = game_front::Sketch::new(CELL * w as f64, top + CELL * h as f64 + 40.0, 30.0);
        s.player("X", X);
        s.player("O", O);
        s.add(game_front::sketch::rect(0.0, top, CELL * w as f64, CELL * h as f64, "#1e3a8a", "#1e3a8a"));
        for c in 0..w {
            let x = CELL * c as f64;
            for row in 0..h {
                let cy = top + CELL * (h - 1 - row) as f64 + CELL / 2.0;
                let fill = match pos.cell(c, row) {
                    Some(Player::First) => X,
                    Some(Player::Second) => O,
                    None => "#ffffff",
                };
                s.add(game_front::sketch::circle((x + CELL / 2.0, cy), 40.0, fill, "#0f172a", 2.0));
            }
            let label = (x + CELL / 2.0, top + CELL * h as f64 + 20.0);
            s.text(label, &(c + 1).to_string(), 22.0, game_front::sketch::MUTED, false);
            if !pos.is_over() && pos.can_play(c) {
                let target =
                    game_front::sketch::rect(x + 6.0, 6.0, CELL - 12.0, CELL - 12.0, "#ffffff", "none");
                s.legal_move(Column(c as u8).to_string(), (x + CELL / 2.0, CELL / 2.0), target);
            }
        }
        s.into_json()
    }

    /// One line of the input (`connect-four`'s): the columns played from the empty board.
    /// Blank lines are skipped as in the input; a text with no position is the empty board
    /// (the page's start), and a second position is refused: only one case is read.
    fn parse_setup(&self, text: &str) -> Result<JudgeCase<Self>, String> {
        let is_blank = |l: &str| l.chars().all(judge_text::is_space);
        let mut lines = text.lines().enumerate().filter(|(_, l)| !is_blank(l));
        let pos = match lines.next() {
            None => Position::empty(self.geom),
            Some((i, line)) => {
                parse_position_line(self.geom, line).map_err(|e| format!("line {}, {e}", i + 1))?
            }
        };
        if let Some((i, _)) = lines.next() {
            return Err(format!("line {}: expected one position: only one case of the text is read", i + 1));
        }
        Ok(JudgeCase { front: None, start: Position::empty(self.geom), moves: pos.history().collect() })
    }

    fn setup_text(&self, start: &Position, moves: &[Column]) -> String {
        let pos = moves.iter().fold(*start, |p, c| p.play(c.index()));
        format!("{}\n", pos.moves_string())
    }
}

/// The least and greatest scores the side to move can have in `pos` (Pons' convention): a win
/// with its next stone, a loss to the opponent's next one.
#[must_use]
pub fn score_range(pos: &Position) -> (i64, i64) {
    let cells = pos.geometry().cells() as i64;
    let n = pos.moves_played() as i64;
    (-((cells - n) / 2), (cells + 1 - n) / 2)
}

/// Sessions play by the plain rules ([`PlainConnectFour`]); values, analyses and the solver's
/// moves come from the fast engine.
impl game_front::Solver<PlainConnectFour> for Solver {
    fn game(&self) -> &PlainConnectFour {
        self.plain_rules()
    }

    fn nodes(&self) -> u64 {
        self.stats().nodes
    }

    /// Pons' score for the side to move.
    fn try_value(&mut self, pos: &Position, limits: Limits) -> Result<Value, Interrupted> {
        self.set_limits(limits);
        self.try_score(pos).map(Value::from)
    }

    fn try_analyze(&mut self, pos: &Position, limits: Limits) -> Result<Analysis<Column>, Interrupted> {
        self.set_limits(limits);
        Solver::try_analyze(self, pos)
    }

    /// The leftmost best column ([`Solver::try_best_column`]: the position's score, then a
    /// null-window test per column up to it; a position within an opening book's depth is
    /// answered from the book alone).
    fn try_best_move(&mut self, pos: &Position, limits: Limits) -> Result<Column, Interrupted> {
        self.set_limits(limits);
        self.try_best_column(pos)
    }
}

/// The long solve of a Connect Four position (`games-cli connect-four --checkpoint`, `--store`)
/// with the fast solver's game: values are Pons' scores for the side to move.
impl game_front::Solvable for ConnectFourFront {
    type G = crate::ConnectFour;
    type Root = Position;

    fn solve_identity(&self, root: &Position) -> search_core::SolveIdentity {
        search_core::SolveIdentity {
            game: "connect-four".to_string(),
            options: format!("size {}x{}", self.geom.width(), self.geom.height()),
            root: format!("moves {}", root.moves_string()),
        }
    }

    /// A score possible below `root`, a column of the board.
    fn entry_possible(&self, root: &Position, entry: &search_core::TtEntry<u64, Column>) -> bool {
        let (min, max) = score_range(root);
        entry.value.abs() <= max.max(-min) + 1
            && entry.best.map_or(true, |c| usize::from(c.0) < self.geom.width())
    }

    fn root_move_text(&self, mv: Column) -> String {
        mv.to_string()
    }

    /// The bounds clamped to the scores possible in `root`.
    fn bounds_text(&self, root: &Position, (lo, hi): (i64, i64)) -> String {
        let (min, max) = score_range(root);
        format!("score in [{}, {}]", lo.clamp(min, max), hi.clamp(min, max))
    }
}
