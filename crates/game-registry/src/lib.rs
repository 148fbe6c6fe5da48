#![doc = include_str!("../README.md")]

pub use game_front::{Front, ParamError, ParamSpec, Params, Problem, Visit, VisitProblem};

/// What the registry tells about one game without opening it.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The name: `triangle-war` ([`Front::NAME`]).
    pub name: &'static str,
    /// The title shown ([`Front::TITLE`]).
    pub title: &'static str,
    /// Example parameters as command-line words ([`Front::EXAMPLE`]).
    pub example: &'static str,
    /// The board parameters ([`Front::PARAMS`]).
    pub params: &'static [ParamSpec],
}

const fn info<F: Front>() -> GameInfo {
    GameInfo { name: F::NAME, title: F::TITLE, example: F::EXAMPLE, params: F::PARAMS }
}

/// Errors of [`visit`] and of the parameter readers.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    /// No game has this name.
    #[error("unknown game {name}: expected one of {expected}")]
    UnknownGame {
        /// The name given, quoted.
        name: String,
        /// The registered names, comma-separated.
        expected: String,
    },
    /// A parameter the game refused.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// Words or a game string that are not parameters.
    #[error("{0}")]
    Syntax(String),
}

/// What the registry tells about one judge subcommand without opening it.
#[derive(Clone, Copy, Debug)]
pub struct ProblemInfo {
    /// The subcommand: `triangle-war` ([`Problem::COMMAND`]).
    pub command: &'static str,
    /// Its one line of help ([`Problem::ABOUT`]).
    pub about: &'static str,
}

const fn problem_info<P: Problem>() -> ProblemInfo {
    ProblemInfo { command: P::COMMAND, about: P::ABOUT }
}

macro_rules! registry {
    ($($front:ty => [$($problem:ty),*]),* $(,)?) => {
        /// Every game, in the order front ends list them.
        pub const GAMES: &[GameInfo] = &[$(info::<$front>()),*];

        /// Every judge subcommand, in the order front ends list them.
        pub const PROBLEMS: &[ProblemInfo] = &[$($(problem_info::<$problem>(),)*)*];

        /// Opens game `name` with the parameters `given` (checked against its specs, defaults
        /// filled in) and runs `visitor` on its front.
        ///
        /// # Errors
        /// [`RegistryError::UnknownGame`], or the game's [`ParamError`].
        pub fn visit<V: Visit>(
            name: &str,
            given: &[(&str, &str)],
            visitor: V,
        ) -> Result<V::Output, RegistryError> {
            $(
                if name == <$front as Front>::NAME {
                    let params = Params::new(<$front as Front>::PARAMS, given.iter().copied())?;
                    let front = <$front as Front>::new(&params)?;
                    return Ok(visitor.visit(front));
                }
            )*
            let expected: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
            Err(RegistryError::UnknownGame { name: judge_text::quote(name), expected: expected.join(", ") })
        }

        /// Runs `visitor` on the problem whose subcommand is `command`; `None` if none is.
        pub fn visit_problem<V: VisitProblem>(command: &str, visitor: V) -> Option<V::Output> {
            $($(
                if command == <$problem as Problem>::COMMAND {
                    return Some(visitor.visit::<$problem>());
                }
            )*)*
            None
        }
    };
}

// One line per game: its front, then its judge subcommands.
registry!(
    triangle_war::TriangleWarFront => [triangle_war::TriangleWarProblem],
    young_chess::YoungChessFront => [young_chess::YoungChessProblem],
    tic_tac_toe::TicTacToeFront => [tic_tac_toe::WinningMoveProblem, tic_tac_toe::BoardEvalProblem],
    connect_four::ConnectFourFront => [connect_four::ConnectFourProblem],
    dots_and_boxes::DotsAndBoxesFront => [dots_and_boxes::DotsAndBoxesProblem],
    othello::OthelloFront => [othello::OthelloProblem],
);

/// The game named `name`, if registered.
#[must_use]
pub fn find(name: &str) -> Option<&'static GameInfo> {
    GAMES.iter().find(|g| g.name == name)
}

/// Command-line words (`--side 5`, `--size=7x6`) as (name, value) pairs. Every word must be an
/// option of `allowed` with a value of 1 to `max_len` characters not starting with `-`.
///
/// # Errors
/// [`RegistryError::Syntax`] naming the word and what was expected.
pub fn params_from_words<'a>(
    words: &'a [String],
    allowed: &[ParamSpec],
    max_len: usize,
) -> Result<Vec<(&'a str, &'a str)>, RegistryError> {
    let names: Vec<String> = allowed.iter().map(|p| format!("--{}", p.name)).collect();
    let expected = if names.is_empty() { "no options".to_string() } else { names.join(", ") };
    let mut pairs = Vec::new();
    let mut words = words.iter();
    while let Some(word) = words.next() {
        let (name, value) = match word.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (word.as_str(), None),
        };
        let Some(bare) = name.strip_prefix("--").filter(|b| allowed.iter().any(|p| p.name == *b)) else {
            return Err(RegistryError::Syntax(if name.starts_with("--") {
                format!("option {} is not offered here: expected {expected}", judge_text::quote(name))
            } else {
                format!("expected an option ({expected}), found a value without one")
            }));
        };
        let value = match value {
            Some(v) => v,
            None => {
                words.next().ok_or_else(|| RegistryError::Syntax(format!("option {name} needs a value")))?
            }
        };
        if value.is_empty() || value.starts_with('-') || value.len() > max_len {
            return Err(RegistryError::Syntax(format!(
                "option {name}: expected a value of 1 to {max_len} characters not starting with `-`"
            )));
        }
        pairs.push((bare, value));
    }
    Ok(pairs)
}

/// The (key, value) parameter pairs of a game string.
pub type Pairs = Vec<(String, String)>;

/// A game string read by [`parse_game_string`]: the registered name and the (key, value)
/// pairs.
pub type GameString = (&'static str, Pairs);

/// A game string as OpenSpiel's `load_game` takes it: `name` or `name(key=value,...)`, e.g.
/// `triangle-war(side=5)`; `_` in the name reads as `-` (`connect_four`). Returns the
/// registered name and the (key, value) pairs, not yet checked against the game's parameters.
///
/// OpenSpiel's own names and parameters of the games it shares with this project load the
/// same game ([`from_openspiel`]): `connect_four(rows=6,columns=7)`, `mnk(m=4,n=4,k=4)`,
/// `dots_and_boxes(num_rows=3,num_cols=3)`, `othello` (OpenSpiel's 8x8 game, which has no
/// parameters; pyspiel writes it `othello()`); this project's (`size=7x6`) work as before.
///
/// # Errors
/// [`RegistryError::Syntax`] for a string of another shape, [`RegistryError::UnknownGame`],
/// and [`from_openspiel`]'s errors.
pub fn parse_game_string(text: &str) -> Result<GameString, RegistryError> {
    let text = text.trim();
    let (name, rest) = match text.split_once('(') {
        Some((name, rest)) => {
            let inner = rest.strip_suffix(')').ok_or_else(|| {
                RegistryError::Syntax(format!(
                    "game string {}: expected `)` at the end",
                    judge_text::quote(text)
                ))
            })?;
            (name.trim(), Some(inner))
        }
        None => (text, None),
    };
    let name = name.replace('_', "-");
    let mut pairs = Vec::new();
    for item in rest.unwrap_or("").split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, value) = item.split_once('=').ok_or_else(|| {
            RegistryError::Syntax(format!(
                "game string: expected key=value, found {}",
                judge_text::quote(item)
            ))
        })?;
        pairs.push((key.trim().to_string(), value.trim().to_string()));
    }
    let (name, pairs) = from_openspiel(&name, pairs)?;
    let Some(info) = find(name) else {
        let expected: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
        return Err(RegistryError::UnknownGame {
            name: judge_text::quote(name),
            expected: expected.join(", "),
        });
    };
    Ok((info.name, pairs))
}

/// OpenSpiel's parameters of a game it shares with this project, as this project's: a game
/// string written for OpenSpiel's `pyspiel.load_game` opens the same game here.
///
/// - `mnk(m=COLS,n=ROWS,k=K)` is `tic-tac-toe(size=ROWSxCOLS,k=K)`, OpenSpiel's defaults
///   (15, 15, 5) for those not given (boards up to 8x8 here);
/// - `connect-four` with `rows` / `columns` (defaults 6 and 7) is `size=COLUMNSxROWS`;
///   `x_in_row` must be 4; `egocentric_obs_tensor` (the layout of OpenSpiel's observation
///   tensor) changes nothing here and is dropped;
/// - `dots-and-boxes` with `num_rows` / `num_cols` (boxes; defaults 2 and 2) is
///   `size=ROWSxCOLS`; `utility_margin` may only be `true` (returns here are always the
///   margin of boxes).
///
/// Any other name or parameter is returned as given (`name` with `-`, e.g. `connect-four`):
/// OpenSpiel's `othello` and `othello()` are this project's Othello with its default 8x8
/// board, whose action ids are OpenSpiel's (`row * 8 + column`, the pass 64).
///
/// # Errors
/// [`RegistryError::Syntax`] for OpenSpiel's and this project's parameters mixed (`size`
/// with `num_rows`), [`ParamError::Invalid`] for a value that is not a whole number or not
/// supported, [`ParamError::Unknown`] for `mnk` given another parameter.
pub fn from_openspiel(name: &str, pairs: Pairs) -> Result<(&str, Pairs), RegistryError> {
    /// OpenSpiel's name, the name here, the two sides of `size` here (OpenSpiel's parameter,
    /// its default), OpenSpiel's other parameters (with the one value accepted, `None`: any
    /// value, dropped).
    struct Alias {
        openspiel: &'static str,
        ours: &'static str,
        sides: [(&'static str, u32); 2],
        others: &'static [(&'static str, Option<&'static str>)],
    }
    const ALIASES: [Alias; 3] = [
        Alias { openspiel: "mnk", ours: "tic-tac-toe", sides: [("n", 15), ("m", 15)], others: &[] },
        Alias {
            openspiel: "connect-four",
            ours: "connect-four",
            sides: [("columns", 7), ("rows", 6)],
            others: &[("x_in_row", Some("4")), ("egocentric_obs_tensor", None)],
        },
        Alias {
            openspiel: "dots-and-boxes",
            ours: "dots-and-boxes",
            sides: [("num_rows", 2), ("num_cols", 2)],
            others: &[("utility_margin", Some("true"))],
        },
    ];
    let Some(alias) = ALIASES.iter().find(|a| a.openspiel == name) else {
        return Ok((name, pairs));
    };
    let mnk = alias.openspiel == "mnk";
    let theirs = |k: &str| alias.sides.iter().any(|s| s.0 == k) || alias.others.iter().any(|o| o.0 == k);
    if !mnk && !pairs.iter().any(|(k, _)| theirs(k)) {
        return Ok((alias.ours, pairs));
    }
    let invalid = |key: &str, value: &str, reason: String| {
        RegistryError::Param(ParamError::Invalid {
            name: key.to_string(),
            found: judge_text::quote(value),
            reason,
        })
    };
    let mut size = alias.sides.map(|(_, default)| default);
    let mut k = mnk.then(|| "5".to_string());
    for (key, value) in pairs {
        if let Some(i) = alias.sides.iter().position(|s| s.0 == key) {
            size[i] =
                value.parse().ok().filter(|&v| v >= 1).ok_or_else(|| {
                    invalid(&key, &value, "expected a whole number, at least 1".to_string())
                })?;
        } else if let Some(&(_, only)) = alias.others.iter().find(|o| o.0 == key) {
            if let Some(only) = only.filter(|only| !value.eq_ignore_ascii_case(only)) {
                return Err(invalid(&key, &value, format!("only {key}={only} is offered here")));
            }
        } else if mnk && key == "k" {
            k = Some(value);
        } else if mnk {
            return Err(RegistryError::Param(ParamError::Unknown {
                name: judge_text::quote(&key),
                expected: "m, n, k".to_string(),
            }));
        } else {
            let openspiel: Vec<&str> =
                alias.sides.iter().map(|s| s.0).chain(alias.others.iter().map(|o| o.0)).collect();
            return Err(RegistryError::Syntax(format!(
                "game string: {} is not one of OpenSpiel's parameters of {} ({}): give OpenSpiel's or this project's, not both",
                judge_text::quote(&key),
                alias.openspiel.replace('-', "_"),
                openspiel.join(", "),
            )));
        }
    }
    let mut out = vec![("size".to_string(), format!("{}x{}", size[0], size[1]))];
    out.extend(k.map(|k| ("k".to_string(), k)));
    Ok((alias.ours, out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_front::Session;

    /// A visit that plays the first legal move of the start and reports the game's name, the
    /// moves and whether undo / redo restore the positions.
    struct FirstMove;

    impl Visit for FirstMove {
        type Output = (String, usize, bool);
        fn visit<F: Front>(self, front: F) -> Self::Output {
            let mut session = Session::new(front);
            let drawn = |s: &Session<F>| s.front().draw(s.position());
            let start = drawn(&session);
            let moves = session.legal_moves();
            session.play(moves[0]);
            let after = drawn(&session);
            let back = start != after && session.undo() && drawn(&session) == start && !session.undo();
            let again = session.redo() && drawn(&session) == after && !session.redo();
            (F::NAME.to_string(), moves.len(), back && again)
        }
    }

    #[test]
    fn every_game_opens_plays_undoes_and_redoes() {
        for g in GAMES {
            let (name, moves, ok) = visit(g.name, &[], FirstMove).unwrap();
            assert_eq!(name, g.name);
            assert!(moves > 0 && ok, "{name}");
        }
        // Parameters reach the front: side 2 has 9 segments, 4x4 Connect Four 4 columns.
        assert_eq!(visit("triangle-war", &[("side", "2")], FirstMove).unwrap().1, 9);
        assert_eq!(visit("connect-four", &[("size", "4x4")], FirstMove).unwrap().1, 4);
    }

    #[test]
    fn bad_names_and_parameters_are_refused() {
        let err = visit("chess", &[], FirstMove).unwrap_err().to_string();
        assert!(err.starts_with("unknown game `chess`: expected one of triangle-war"), "{err}");
        let err = visit("triangle-war", &[("side", "9")], FirstMove).unwrap_err().to_string();
        assert!(err.contains("option --side"), "{err}");
        let err = visit("young-chess", &[("file", "/etc/passwd")], FirstMove).unwrap_err().to_string();
        assert!(err.contains("unknown parameter `file`"), "{err}");
    }

    #[test]
    fn words_and_game_strings() {
        let words: Vec<String> = ["--side", "5"].map(String::from).to_vec();
        let specs = find("triangle-war").unwrap().params;
        assert_eq!(params_from_words(&words, specs, 40).unwrap(), [("side", "5")]);
        let words: Vec<String> = ["--file", "/etc/passwd"].map(String::from).to_vec();
        assert!(params_from_words(&words, specs, 40).is_err());
        let (name, pairs) = parse_game_string("connect_four(size=6x5)").unwrap();
        assert_eq!((name, pairs), ("connect-four", vec![("size".to_string(), "6x5".to_string())]));
        assert!(parse_game_string("triangle-war(side=5").is_err());
        assert!(parse_game_string("go").is_err());
    }

    #[test]
    fn openspiel_game_strings_load_the_same_games() {
        let read = |text: &str| {
            let (name, pairs) = parse_game_string(text).unwrap();
            let pairs: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
            format!("{name}({})", pairs.join(","))
        };
        assert_eq!(read("mnk(m=4,n=3,k=3)"), "tic-tac-toe(size=3x4,k=3)");
        assert_eq!(read("mnk(k=4,m=5)"), "tic-tac-toe(size=15x5,k=4)");
        assert_eq!(read("mnk"), "tic-tac-toe(size=15x15,k=5)");
        assert_eq!(read("connect_four(rows=4,columns=5)"), "connect-four(size=5x4)");
        assert_eq!(read("connect_four(x_in_row=4,egocentric_obs_tensor=true)"), "connect-four(size=7x6)");
        assert_eq!(read("connect_four(size=5x4)"), "connect-four(size=5x4)");
        assert_eq!(read("connect_four"), "connect-four()");
        assert_eq!(read("dots_and_boxes(num_rows=2,num_cols=3)"), "dots-and-boxes(size=2x3)");
        assert_eq!(read("dots_and_boxes(num_cols=3,utility_margin=true)"), "dots-and-boxes(size=2x3)");
        assert_eq!(read("tic_tac_toe"), "tic-tac-toe()");
        assert_eq!(read("othello"), "othello()");
        assert_eq!(read("othello()"), "othello()");
        assert_eq!(read("othello(size=6)"), "othello(size=6)");
        let (name, pairs) = parse_game_string("othello()").unwrap();
        assert!(pairs.is_empty() && visit(name, &[], FirstMove).unwrap().1 == 4);
        let err = |text: &str| parse_game_string(text).unwrap_err().to_string();
        assert_eq!(
            err("connect_four(x_in_row=5)"),
            "option --x_in_row: only x_in_row=4 is offered here (found `5`)"
        );
        assert!(err("dots_and_boxes(num_rows=x)").contains("expected a whole number"));
        assert!(err("dots_and_boxes(utility_margin=false)").contains("only utility_margin=true"));
        assert!(err("dots_and_boxes(num_rows=2,size=2x2)").contains("not both"));
        assert_eq!(err("mnk(size=3x3)"), "unknown parameter `size`: expected one of m, n, k");
        // The translated sizes go through the game's own checks.
        let (name, pairs) = parse_game_string("mnk").unwrap();
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert!(visit(name, &pairs, FirstMove).is_err());
    }
}
