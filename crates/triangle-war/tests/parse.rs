//! The POJ 1085 parser: every error kind names its line; arbitrary text never panics.

use proptest::prelude::*;
use triangle_war::{parse_games, Geometry, ParseError, ParseErrorKind};

/// Parses `text` on side 3 and returns the games read and the error, if any.
fn parse(text: &str) -> (usize, Option<ParseError>) {
    let g = Geometry::new(3).unwrap();
    let mut ok = 0;
    for r in parse_games(text, &g) {
        match r {
            Ok(_) => ok += 1,
            Err(e) => return (ok, Some(e)),
        }
    }
    (ok, None)
}

const GAME: &str = "6\n1 2\n2 3\n1 3\n2 4\n2 5\n4 5\n";

#[test]
fn errors_name_their_line() {
    let cases: Vec<(String, usize, usize)> = vec![
        ("".into(), 0, 1),
        ("x\n".into(), 0, 1),
        (format!("2\n{GAME}6\n1 2\n2 x\n"), 1, 11),
        (format!("2\n{GAME}6\n1 2\n1 5\n"), 1, 11),
        ("1\n6\n1 2\n2 3\n3 2\n".into(), 0, 5),
        ("1\n6\n1 2\n2 11\n".into(), 0, 4),
        ("1\n6\n1 2\n0 1\n".into(), 0, 4),
        ("1\n7\n1 2\n".into(), 0, 4),
        (format!("3\n{GAME}"), 1, 9),
        ("1\n6\n1 2 3\n".into(), 0, 3),
        (format!("1\n{GAME}junk\n"), 1, 9),
        ("1\n19\n".into(), 0, 2),
        ("1\n-1\n".into(), 0, 2),
        ("1 2\n".into(), 0, 1),
    ];
    for (text, games, line) in cases {
        let (ok, err) = parse(&text);
        let err = err.unwrap_or_else(|| panic!("no error for {text:?}"));
        assert_eq!((ok, err.line), (games, line), "{text:?}: {err}");
        assert!(err.to_string().starts_with(&format!("line {line}: ")), "{err}");
    }
}

#[test]
fn messages_say_what_was_expected_and_found() {
    let (_, e) = parse("1\n6\n1 2\n2 3\n3 2\n");
    assert_eq!(e.unwrap().kind, ParseErrorKind::RepeatedSegment { i: 2, j: 3, first_line: 4 });
    let (_, e) = parse("1\n6\n1 5\n");
    assert_eq!(e.unwrap().to_string(), "line 3: dots 1 and 5 are not joined by a segment");
    let (_, e) = parse("1\n6\n1 12\n");
    assert_eq!(e.unwrap().to_string(), "line 3: expected a dot number from 1 to 10, found 12");
    let (_, e) = parse("2\n6\n1 2\n");
    assert_eq!(
        e.unwrap().to_string(),
        "line 4: expected move 2 of 6 of game 1 as two dot numbers `i j`, found end of input"
    );
}

#[test]
fn blank_lines_crlf_and_reversed_pairs_are_accepted() {
    let text = "\r\n2\r\n\r\n6\r\n2 1\r\n3 2\r\n1 3\r\n4 2\r\n5 2\r\n5 4\r\n\r\n\r\n0\r\n";
    assert_eq!(parse(text), (2, None));
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in "[0-9 \\n\\-x]{0,200}") {
        let _ = parse(&text);
    }

    #[test]
    fn near_valid_text_never_panics(games in proptest::collection::vec(
        (0u64..25, proptest::collection::vec((0u64..14, 0u64..14), 0..20)), 0..4)) {
        let mut text = format!("{}\n", games.len());
        for (m, moves) in &games {
            text.push_str(&format!("{m}\n"));
            for (i, j) in moves {
                text.push_str(&format!("{i} {j}\n"));
            }
        }
        let _ = parse(&text);
    }
}
