//! [`Sketch`]: a board drawn as a list of SVG shapes plus the anchors of the legal moves, the
//! JSON every front's `board_json` returns and the web page renders without knowing the game.
//!
//! Shapes are `{"el": "line" | "rect" | "circle" | "polygon" | "text", "attrs": {..}, "text"?}`
//! in board units (the page scales the `width` x `height` view box to the window). Each legal
//! move is `{"move": text in the judge's notation, "at": [x, y], "target": shape}`: the page
//! colours `target` by the move's value, puts a badge of radius `badge` with the value at
//! `at`, and plays the move when either is clicked.

use serde_json::{json, Value};

/// A point in board units.
pub type Point = (f64, f64);

/// The first player's colour where a game has no colours of its own (A, x).
pub const FIRST: &str = "#1d4ed8";
/// The second player's colour (B, o).
pub const SECOND: &str = "#ea580c";
/// Drawn lines, dots and labels.
pub const INK: &str = "#111827";
/// Coordinates and other secondary text.
pub const MUTED: &str = "#6b7280";

/// A board being drawn: see the module docs for the JSON it becomes.
#[derive(Debug, Clone)]
pub struct Sketch {
    width: f64,
    height: f64,
    badge: f64,
    legend: Vec<Value>,
    shapes: Vec<Value>,
    moves: Vec<Value>,
}

/// Rounds to a tenth of a unit (keeps the JSON short).
fn r(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// A shape's JSON.
fn shape(el: &str, attrs: Value) -> Value {
    json!({ "el": el, "attrs": attrs })
}

/// A line from `a` to `b`.
pub fn line(a: Point, b: Point, stroke: &str, width: f64) -> Value {
    shape(
        "line",
        json!({ "x1": r(a.0), "y1": r(a.1), "x2": r(b.0), "y2": r(b.1), "stroke": stroke,
                "stroke-width": width, "stroke-linecap": "round" }),
    )
}

/// A rectangle with its top-left corner at `(x, y)`.
pub fn rect(x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: &str) -> Value {
    shape(
        "rect",
        json!({ "x": r(x), "y": r(y), "width": r(w), "height": r(h), "fill": fill, "stroke": stroke,
                "stroke-width": 2 }),
    )
}

/// A circle of radius `radius` around `c`.
pub fn circle(c: Point, radius: f64, fill: &str, stroke: &str, width: f64) -> Value {
    shape(
        "circle",
        json!({ "cx": r(c.0), "cy": r(c.1), "r": r(radius), "fill": fill, "stroke": stroke,
                "stroke-width": width }),
    )
}

impl Sketch {
    /// An empty board of `width` x `height` units whose move badges have radius `badge`.
    pub fn new(width: f64, height: f64, badge: f64) -> Self {
        Sketch { width, height, badge, legend: Vec::new(), shapes: Vec::new(), moves: Vec::new() }
    }

    /// Adds a legend entry: a player's name and colour.
    pub fn player(&mut self, name: &str, color: &str) {
        self.legend.push(json!({ "name": name, "color": color }));
    }

    /// Adds a shape built by [`line()`], [`rect()`], [`circle()`], [`Sketch::polygon`] or
    /// [`Sketch::text`].
    pub fn add(&mut self, shape: Value) {
        self.shapes.push(shape);
    }

    /// Adds a filled polygon through `points`.
    pub fn polygon(&mut self, points: &[Point], fill: &str, opacity: f64) {
        let pts: Vec<String> = points.iter().map(|p| format!("{},{}", r(p.0), r(p.1))).collect();
        self.add(shape("polygon", json!({ "points": pts.join(" "), "fill": fill, "fill-opacity": opacity })));
    }

    /// Adds `text` centred at `at` (font size `size` units).
    pub fn text(&mut self, at: Point, text: &str, size: f64, fill: &str, bold: bool) {
        let mut s = shape(
            "text",
            json!({ "x": r(at.0), "y": r(at.1), "font-size": size, "fill": fill,
                    "text-anchor": "middle", "dominant-baseline": "central",
                    "font-weight": if bold { "bold" } else { "normal" } }),
        );
        s["text"] = json!(text);
        self.add(s);
    }

    /// Adds [`Sketch::text`] with a white halo, readable over lines.
    pub fn label(&mut self, at: Point, text: &str, size: f64, fill: &str) {
        self.text(at, text, size, fill, false);
        if let Some(Value::Object(attrs)) = self.shapes.last_mut().map(|s| &mut s["attrs"]) {
            attrs.insert("stroke".into(), json!("#ffffff"));
            attrs.insert("stroke-width".into(), json!(4));
            attrs.insert("paint-order".into(), json!("stroke"));
        }
    }

    /// Adds a legal move `mv` (judge's notation) with its value badge at `at` and its clickable
    /// `target` shape (coloured by the page).
    pub fn legal_move(&mut self, mv: String, at: Point, target: Value) {
        self.moves.push(json!({ "move": mv, "at": [r(at.0), r(at.1)], "target": target }));
    }

    /// The JSON the page renders.
    pub fn into_json(self) -> Value {
        json!({
            "width": r(self.width),
            "height": r(self.height),
            "badge": r(self.badge),
            "legend": self.legend,
            "shapes": self.shapes,
            "moves": self.moves,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_and_moves_serialise() {
        let mut s = Sketch::new(100.0, 50.0, 10.0);
        s.player("A", FIRST);
        s.add(line((0.0, 0.0), (1.04, 2.0), INK, 3.0));
        s.text((5.0, 5.0), "7", 20.0, MUTED, false);
        s.legal_move("1-2".into(), (0.5, 1.0), line((0.0, 0.0), (1.0, 2.0), MUTED, 2.0));
        let j = s.into_json();
        assert_eq!(j["width"], 100.0);
        assert_eq!(j["shapes"][0]["el"], "line");
        assert_eq!(j["shapes"][0]["attrs"]["x2"], 1.0);
        assert_eq!(j["shapes"][1]["text"], "7");
        assert_eq!(j["moves"][0]["move"], "1-2");
        assert_eq!(j["legend"][0]["name"], "A");
    }
}
