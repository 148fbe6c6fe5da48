//! [`DotsAndBoxesFront`]: dots-and-boxes as a person sees it, for every front end
//! (`games-cli`, its web page, the Python module): lines by OpenSpiel action id, the board
//! drawn as text and as a sketch, one DBN string read and written.

use game_front::{Front, JudgeCase, ParamError, ParamSpec, Params, PrunedEngine, SolverSettings};
use search_core::{Player, Value};

use crate::{parse_dbn_line, DotsAndBoxes, Geometry, Orientation, Position, Pruning};

/// A board size `ROWSxCOLS` in boxes (e.g. `2x2`), with at most 64 lines.
///
/// # Errors
/// What was expected, with the text quoted.
pub fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let (r, c) = judge_text::parse_size(text, "ROWSxCOLS (boxes)", "3x3")?;
    Geometry::new(r, c).map_err(|e| e.to_string())?;
    Ok((r, c))
}

/// Dots-and-boxes as a person sees it: A moves first, lines are OpenSpiel action ids (or
/// `h R,C` / `v R,C` by their top-left dot), positions are DBN strings.
pub struct DotsAndBoxesFront {
    geometry: Geometry,
}

impl DotsAndBoxesFront {
    /// The front of the board of `geometry`.
    #[must_use]
    pub fn with_geometry(geometry: Geometry) -> Self {
        DotsAndBoxesFront { geometry }
    }

    /// The board.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }
}

/// The board of `pos` drawn as text: `+` dots, `---` and `|` drawn lines, boxes marked with
/// their owner (`A`, `B`, or `*` for a box completed before the DBN string was read); no
/// trailing spaces.
#[must_use]
pub fn diagram(g: &Geometry, pos: &Position) -> String {
    let drawn = |o, row, col| {
        let i = g.index(crate::Line { orientation: o, row, col }).expect("on the board");
        pos.drawn() >> i & 1 == 1
    };
    let mut s = String::new();
    for r in 0..=g.rows() {
        for c in 0..g.cols() {
            s.push('+');
            s.push_str(if drawn(Orientation::Horizontal, r, c) { "---" } else { "   " });
        }
        s.push_str("+\n");
        if r == g.rows() {
            break;
        }
        for c in 0..=g.cols() {
            s.push(if drawn(Orientation::Vertical, r, c) { '|' } else { ' ' });
            if c < g.cols() {
                let bit = 1u64 << (r * g.cols() + c);
                let mark = if pos.owned(Player::First) & bit != 0 {
                    'A'
                } else if pos.owned(Player::Second) & bit != 0 {
                    'B'
                } else if pos.drawn() & g.box_lines(r, c) == g.box_lines(r, c) {
                    '*'
                } else {
                    ' '
                };
                s.push(' ');
                s.push(mark);
                s.push(' ');
            }
        }
        s.push('\n');
    }
    // No trailing spaces: a row of boxes with no line drawn is an empty line.
    s.lines().map(|l| format!("{}\n", l.trim_end())).collect()
}

/// A line typed by a person: its action id, or `h R,C` / `v R,C` (dot row and column of its
/// top-left end).
fn parse_line(g: &Geometry, text: &str) -> Result<usize, String> {
    let t = text.trim();
    let n = g.line_count();
    let expected = || {
        format!(
            "expected a line: an action id from 0 to {} or `h R,C` / `v R,C`, found {}",
            n - 1,
            judge_text::quote(t)
        )
    };
    if let Ok(id) = t.parse::<usize>() {
        return if id < n { Ok(id) } else { Err(expected()) };
    }
    let orientation = match t.chars().next() {
        Some('h' | 'H') => Orientation::Horizontal,
        Some('v' | 'V') => Orientation::Vertical,
        _ => return Err(expected()),
    };
    let (r, c) = t[1..].split_once(',').ok_or_else(expected)?;
    let (row, col) = (r.trim().parse().map_err(|_| expected())?, c.trim().parse().map_err(|_| expected())?);
    g.index(crate::Line { orientation, row, col }).ok_or_else(expected)
}

impl Front for DotsAndBoxesFront {
    type G = DotsAndBoxes;
    type Solver = PrunedEngine<DotsAndBoxes>;
    const NAME: &'static str = "dots-and-boxes";
    const TITLE: &'static str = "Dots and Boxes";
    const PARAMS: &'static [ParamSpec] = &[ParamSpec {
        name: "size",
        value_name: "RxC",
        help: "Rows x columns of boxes (OpenSpiel's num_rows x num_cols), at most 64 lines.",
        default: Some("2x2"),
        check: |t| parse_size(t).map(|_| ()),
    }];
    const EXAMPLE: &'static str = "--size 2x2";

    fn new(params: &Params) -> Result<Self, ParamError> {
        let text = params.get("size").ok_or_else(|| ParamError::Board("parameter size is missing".into()))?;
        let (r, c) = parse_size(text).map_err(ParamError::Board)?;
        let geometry = Geometry::new(r, c).map_err(|e| ParamError::Board(e.to_string()))?;
        Ok(DotsAndBoxesFront { geometry })
    }

    /// The engine with every pruning rule but folded forced captures (sessions play one line
    /// at a time), beside the rules without pruning for move lists and analyses.
    fn solver(&self, settings: SolverSettings) -> PrunedEngine<DotsAndBoxes> {
        let defaults = crate::search_options(crate::default_tt_bits(&self.geometry), 1);
        let rules = Pruning { fold_forced: false, ..Pruning::ALL };
        let options = settings.options::<DotsAndBoxes>(defaults);
        let engine = crate::engine(DotsAndBoxes::with_pruning(self.geometry.clone(), rules), options);
        PrunedEngine::new(engine, DotsAndBoxes::with_pruning(self.geometry.clone(), Pruning::NONE))
    }

    fn start(&self) -> Position {
        Position::start()
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "A",
            Player::Second => "B",
        }
    }

    fn move_text(&self, mv: &u8) -> String {
        mv.to_string()
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<u8, String> {
        let s = parse_line(&self.geometry, text)?;
        if pos.drawn() >> s & 1 == 1 {
            return Err(format!("line {s} ({}) is already drawn", self.geometry.lines()[s]));
        }
        Ok(s as u8)
    }

    fn move_help(&self) -> &'static str {
        "a line as its OpenSpiel action id (horizontal lines row by row, then vertical ones), \
         e.g. `0`, or as `h R,C` / `v R,C` by its top-left dot"
    }

    fn draw(&self, pos: &Position) -> String {
        diagram(&self.geometry, pos)
    }

    fn score_text(&self, pos: &Position) -> String {
        format!("A {}, B {}", pos.owned(Player::First).count_ones(), pos.owned(Player::Second).count_ones())
    }

    fn result_text(&self, value: Value) -> String {
        game_front::margin_words(value, "A", "B")
    }

    fn value_note(&self) -> &'static str {
        "A's boxes minus B's at the end, counting from the position given"
    }

    /// Dots on a grid of 100 units, drawn lines in ink, owned boxes in their owner's colour
    /// with its letter; every undrawn line is a move (its action id) anchored at its midpoint.
    fn board_json(&self, pos: &Position) -> serde_json::Value {
        use game_front::sketch;
        const EDGE: f64 = 100.0;
        const MARGIN: f64 = 50.0;
        let g = &self.geometry;
        let at = |r: usize, c: usize| (MARGIN + EDGE * c as f64, MARGIN + EDGE * r as f64);
        let mut s = game_front::Sketch::new(
            2.0 * MARGIN + EDGE * g.cols() as f64,
            2.0 * MARGIN + EDGE * g.rows() as f64,
            22.0,
        );
        s.player("A", sketch::FIRST);
        s.player("B", sketch::SECOND);
        for r in 0..g.rows() {
            for c in 0..g.cols() {
                let bit = 1u64 << (r * g.cols() + c);
                let owner = if pos.owned(Player::First) & bit != 0 {
                    ("A", sketch::FIRST)
                } else if pos.owned(Player::Second) & bit != 0 {
                    ("B", sketch::SECOND)
                } else if pos.drawn() & g.box_lines(r, c) == g.box_lines(r, c) {
                    ("*", sketch::MUTED)
                } else {
                    continue;
                };
                let corners = [at(r, c), at(r, c + 1), at(r + 1, c + 1), at(r + 1, c)];
                s.polygon(&corners, owner.1, 0.75);
                let centre = (at(r, c).0 + EDGE / 2.0, at(r, c).1 + EDGE / 2.0);
                s.text(centre, owner.0, 34.0, "#ffffff", true);
            }
        }
        let over = pos.is_over(g);
        for (i, l) in g.lines().iter().enumerate() {
            let a = at(l.row, l.col);
            let b = match l.orientation {
                Orientation::Horizontal => at(l.row, l.col + 1),
                Orientation::Vertical => at(l.row + 1, l.col),
            };
            if pos.drawn() >> i & 1 == 1 {
                s.add(sketch::line(a, b, sketch::INK, 7.0));
            } else if over {
                s.add(sketch::line(a, b, "#d1d5db", 3.0));
            } else {
                let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
                s.legal_move(i.to_string(), mid, sketch::line(a, b, "#d1d5db", 3.0));
            }
        }
        for r in 0..=g.rows() {
            for c in 0..=g.cols() {
                s.add(sketch::circle(at(r, c), 8.0, sketch::INK, sketch::INK, 1.0));
            }
        }
        s.into_json()
    }

    /// One DBN string (one line; blank lines around it are skipped); a text with more is
    /// refused (only one case is read). The position has A to move and no box owned.
    fn parse_setup(&self, text: &str) -> Result<JudgeCase<Self>, String> {
        let mut lines = judge_text::LineReader::new(text.as_bytes());
        let mut drawn = None;
        while let Some(line) = lines.next_line().map_err(|e| e.to_string())? {
            if line.is_blank() {
                continue;
            }
            if drawn.is_some() {
                return Err(format!("line {}: only one case is read: expected one DBN string", line.number));
            }
            drawn = Some(parse_dbn_line(&self.geometry, line.number, line.text).map_err(|e| e.to_string())?);
        }
        let drawn = drawn.ok_or_else(|| lines.end_of_input("a DBN string").to_string())?;
        let start = Position::from_drawn(&self.geometry, drawn).map_err(|e| e.to_string())?;
        Ok(JudgeCase { front: None, start, moves: Vec::new() })
    }

    fn setup_text(&self, start: &Position, moves: &[u8]) -> String {
        let drawn = moves.iter().fold(start.drawn(), |d, &m| d | 1 << m);
        format!("{}\n", crate::dbn_string(&self.geometry, drawn))
    }
}

/// The boxes not yet completed in `pos`.
#[must_use]
pub fn open_boxes(geometry: &Geometry, pos: &Position) -> i64 {
    i64::from(geometry.board().open_coins(pos.drawn()).count_ones())
}

/// The long solve of a dots-and-boxes position (`games-cli dots-and-boxes --checkpoint`,
/// `--store`): values are the boxes the side to move still takes minus the opponent's.
impl game_front::Solvable for DotsAndBoxesFront {
    type G = crate::DotsAndBoxes;
    type Root = Position;

    fn solve_identity(&self, root: &Position) -> search_core::SolveIdentity {
        let geometry = self.geometry();
        search_core::SolveIdentity {
            game: "dots-and-boxes".to_string(),
            options: format!("size {}x{}", geometry.rows(), geometry.cols()),
            root: format!("dbn {}", crate::dbn_string(geometry, root.drawn())),
        }
    }

    /// A value the board allows, a line of the board.
    fn entry_possible(&self, _root: &Position, entry: &search_core::TtEntry<u128, u8>) -> bool {
        let geometry = self.geometry();
        let (boxes, lines) = (geometry.boxes() as i64, geometry.line_count());
        entry.value.abs() <= boxes && entry.best.map_or(true, |m| usize::from(m) < lines)
    }

    fn root_move_text(&self, mv: u8) -> String {
        mv.to_string()
    }

    /// The bounds clamped to the boxes still open in `root`.
    fn bounds_text(&self, root: &Position, (lo, hi): (i64, i64)) -> String {
        let open = open_boxes(self.geometry(), root);
        format!("value in [{}, {}]", lo.clamp(-open, open), hi.clamp(-open, open))
    }
}
