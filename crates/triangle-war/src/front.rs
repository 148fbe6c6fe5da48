//! [`TriangleWarFront`]: Triangle War as a person sees it, for every front end (`games-cli`,
//! its web page, the Python module): dot numbers, segment notation, the board drawn, POJ 1085's
//! input read and written.

use game_front::{Front, JudgeCase, ParamError, ParamSpec, Params, PrunedEngine, SolverSettings};
use search_core::{Player, SearchOptions, Value};

use crate::{diagram, Geometry, Judge, Position, TriangleWar};

/// Triangle War as a person sees it (POJ 1085): dots numbered from the apex, moves `i-j`, A and B.
pub struct TriangleWarFront {
    geometry: Geometry,
}

impl TriangleWarFront {
    /// The front of the board of `geometry`.
    #[must_use]
    pub fn with_geometry(geometry: Geometry) -> Self {
        TriangleWarFront { geometry }
    }

    /// The board.
    #[must_use]
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }
}

impl Front for TriangleWarFront {
    type G = TriangleWar;
    type Solver = PrunedEngine<TriangleWar>;
    const NAME: &'static str = "triangle-war";
    const TITLE: &'static str = "Triangle War";
    const PARAMS: &'static [ParamSpec] = &[ParamSpec {
        name: "side",
        value_name: "N",
        help: "Side of the triangle (1 to 6; 3 is the judge's board).",
        default: Some("3"),
        check: |t| game_front::check_int(t, 1, u64::from(crate::MAX_SIDE)),
    }];
    const EXAMPLE: &'static str = "--side 3";

    fn new(params: &Params) -> Result<Self, ParamError> {
        let side = params.parse::<u8>("side")?;
        let geometry = Geometry::new(side).map_err(|e| ParamError::Board(e.to_string()))?;
        Ok(TriangleWarFront { geometry })
    }

    /// The engine with every pruning rule but folded forced captures (sessions play one
    /// segment at a time), beside the rules without pruning for move lists and analyses.
    fn solver(&self, settings: SolverSettings) -> PrunedEngine<TriangleWar> {
        let tt_bits = Judge::new(self.geometry.clone(), None).tt_bits();
        let defaults = SearchOptions { tt_bits, ..crate::SEARCH_OPTIONS };
        let rules = crate::Pruning { fold_forced: false, ..crate::Pruning::ALL };
        let engine = settings.engine(TriangleWar::with_pruning(self.geometry.clone(), rules), defaults);
        PrunedEngine::new(engine, TriangleWar::with_pruning(self.geometry.clone(), crate::Pruning::NONE))
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
        self.geometry.segments()[usize::from(*mv)].to_string()
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<u8, String> {
        let g = &self.geometry;
        let s = crate::parse_segment(g, text).map_err(|e| e.to_string())?;
        if pos.drawn().contains(s) {
            return Err(format!("segment {} is already drawn", g.segments()[s]));
        }
        Ok(s as u8)
    }

    fn move_help(&self) -> &'static str {
        "a segment as two dot numbers, e.g. `2 5` or `2-5`"
    }

    fn draw(&self, pos: &Position) -> String {
        diagram(&self.geometry, pos)
    }

    fn score_text(&self, pos: &Position) -> String {
        format!("A {}, B {}", pos.owned_a(), pos.owned_b())
    }

    fn result_text(&self, value: Value) -> String {
        game_front::margin_words(value, "A", "B")
    }

    fn value_note(&self) -> &'static str {
        "A's triangles minus B's at the end"
    }

    /// Dots numbered from the apex, drawn segments in ink, owned triangles in their owner's
    /// colour with its letter; every undrawn segment is a move anchored at its midpoint.
    fn board_json(&self, pos: &Position) -> serde_json::Value {
        board_json(&self.geometry, pos)
    }

    /// One game of POJ 1085's input (`1`, `m`, then `m` lines `i j`) on this side; a text
    /// with more games is refused (only one case is read).
    fn parse_setup(&self, text: &str) -> Result<JudgeCase<Self>, String> {
        let mut games = crate::parse_games(text, &self.geometry);
        let record = games.next().ok_or("no game in the text")?.map_err(|e| e.to_string())?;
        match games.next() {
            None => {}
            Some(Ok(second)) => {
                return Err(format!(
                    "game {}: only one case is read: expected one game (T = 1)",
                    second.number
                ))
            }
            Some(Err(e)) => return Err(e.to_string()),
        }
        Ok(JudgeCase { front: None, start: Position::start(), moves: record.moves })
    }

    fn setup_text(&self, _start: &Position, moves: &[u8]) -> String {
        let mut s = format!("1\n{}\n", moves.len());
        for &m in moves {
            let seg = self.geometry.segments()[usize::from(m)];
            s.push_str(&format!("{} {}\n", seg.a, seg.b));
        }
        s
    }
}

/// The board of [`TriangleWarFront::board_json`]: edges of 100 units.
fn board_json(g: &Geometry, pos: &Position) -> serde_json::Value {
    const EDGE: f64 = 100.0;
    const MARGIN: f64 = 50.0;
    let n = f64::from(g.side());
    let height = 3f64.sqrt() / 2.0 * EDGE;
    let at = |d: u8| {
        let d = usize::from(d) - 1;
        let row = (0..=usize::from(g.side())).rev().find(|&r| r * (r + 1) / 2 <= d).unwrap_or(0);
        let col = d - row * (row + 1) / 2;
        let (row, col) = (row as f64, col as f64);
        (MARGIN + EDGE * (col + (n - row) / 2.0), MARGIN + height * row)
    };
    let mut s = game_front::Sketch::new(2.0 * MARGIN + EDGE * n, 2.0 * MARGIN + height * n, 22.0);
    s.player("A", game_front::sketch::FIRST);
    s.player("B", game_front::sketch::SECOND);
    for (i, &t) in g.triangles().iter().enumerate() {
        let owner = if pos.owned(Player::First) >> i & 1 == 1 {
            ("A", game_front::sketch::FIRST)
        } else if pos.owned(Player::Second) >> i & 1 == 1 {
            ("B", game_front::sketch::SECOND)
        } else {
            continue;
        };
        let mut dots: Vec<u8> = t.iter().flat_map(|k| [g.segments()[k].a, g.segments()[k].b]).collect();
        dots.sort_unstable();
        dots.dedup();
        let corners: Vec<_> = dots.iter().map(|&d| at(d)).collect();
        s.polygon(&corners, owner.1, 0.75);
        let c = corners.iter().fold((0.0, 0.0), |(x, y), p| (x + p.0 / 3.0, y + p.1 / 3.0));
        s.text(c, owner.0, 34.0, "#ffffff", true);
    }
    let over = pos.is_over(g);
    for (k, seg) in g.segments().iter().enumerate() {
        let (a, b) = (at(seg.a), at(seg.b));
        if pos.drawn().contains(k) {
            s.add(game_front::sketch::line(a, b, game_front::sketch::INK, 7.0));
        } else if over {
            s.add(game_front::sketch::line(a, b, "#d1d5db", 3.0));
        } else {
            let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            s.legal_move(seg.to_string(), mid, game_front::sketch::line(a, b, "#d1d5db", 3.0));
        }
    }
    for d in 1..=g.dots() {
        let p = at(d);
        s.add(game_front::sketch::circle(p, 8.0, game_front::sketch::INK, game_front::sketch::INK, 1.0));
        s.label((p.0, p.1 - 19.0), &d.to_string(), 17.0, game_front::sketch::MUTED);
    }
    s.into_json()
}

/// The long solve of a Triangle War game (`games-cli triangle-war` with `--time-limit`,
/// `--checkpoint`, `--store`): values are the margin of the remaining play for the side to move.
impl game_front::Solvable for TriangleWarFront {
    type G = crate::TriangleWar;
    type Root = Position;

    fn solve_identity(&self, root: &Position) -> search_core::SolveIdentity {
        search_core::SolveIdentity {
            game: "triangle-war".to_string(),
            options: format!("side {}", self.geometry.side()),
            root: format!(
                "drawn {:#x}, {} to move",
                root.drawn().0,
                if root.to_move() == Player::First { "A" } else { "B" }
            ),
        }
    }

    /// A margin the board allows, a segment of the board.
    fn entry_possible(&self, _root: &Position, entry: &search_core::TtEntry<u64, u8>) -> bool {
        let (triangles, segments) = (self.geometry.triangles().len() as i64, self.geometry.segments().len());
        entry.value.abs() <= triangles && entry.best.map_or(true, |m| usize::from(m) < segments)
    }

    fn root_move_text(&self, mv: u8) -> String {
        self.geometry.segments()[usize::from(mv)].to_string()
    }

    /// The final margins (A minus B) the bounds give.
    fn bounds_text(&self, root: &Position, (lo, hi): (i64, i64)) -> String {
        let (margin, sign) = (root.margin(), root.to_move().sign());
        let (lo, hi) = if sign == 1 { (margin + lo, margin + hi) } else { (margin - hi, margin - lo) };
        format!("final margin in [{lo:+}, {hi:+}]")
    }
}
