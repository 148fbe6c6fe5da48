//! The one registry of games: every [`Front`] of the workspace by name ([`GAMES`]), opened
//! with checked board parameters and handed to generic code ([`visit`]). `games-cli` (`play`,
//! `serve`) and the Python module are adapters over it: adding a game is its crate (rules,
//! parser, front), one line in the `registry!` call below, its generator and its test data.
//!
//! Parameters are given as (name, value) pairs, as command-line words `--side 5` /
//! `--side=5` ([`params_from_words`]) or in a game string `triangle-war(side=5)`
//! ([`parse_game_string`], as OpenSpiel's `load_game` takes them). None names a file.

pub use game_front::{Front, ParamError, ParamSpec, Params, Visit};

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

macro_rules! registry {
    ($($front:ty),* $(,)?) => {
        /// Every game, in the order front ends list them.
        pub const GAMES: &[GameInfo] = &[$(info::<$front>()),*];

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
    };
}

registry!(
    triangle_war::TriangleWarFront,
    young_chess::YoungChessFront,
    tic_tac_toe::TicTacToeFront,
    connect_four::ConnectFourFront,
    dots_and_boxes::DotsAndBoxesFront,
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

/// A game string read by [`parse_game_string`]: the registered name and the (key, value)
/// pairs.
pub type GameString = (&'static str, Vec<(String, String)>);

/// A game string as OpenSpiel's `load_game` takes it: `name` or `name(key=value,...)`, e.g.
/// `triangle-war(side=5)`; `_` in the name reads as `-` (`connect_four`). Returns the
/// registered name and the (key, value) pairs, not yet checked against the game's parameters.
///
/// # Errors
/// [`RegistryError::Syntax`] for a string of another shape, [`RegistryError::UnknownGame`].
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
    let Some(info) = find(&name) else {
        let expected: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
        return Err(RegistryError::UnknownGame {
            name: judge_text::quote(&name),
            expected: expected.join(", "),
        });
    };
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
    Ok((info.name, pairs))
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
}
