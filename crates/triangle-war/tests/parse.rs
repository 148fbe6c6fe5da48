//! The POJ 1085 parser: every error kind names its line (and column) in the judge-text wording,
//! quotes offending text escaped and cut, refuses empty input and trailing text, reads a stream
//! lazily (1-byte chunks give the same results; a huge generated input is not read ahead), and
//! arbitrary text never panics.

use std::io::{self, Read};

use proptest::prelude::*;
use triangle_war::{
    parse_games, parse_games_from, parse_segment, Geometry, MoveError, ParseError, ParseErrorKind,
};

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
fn every_error_kind_with_its_message() {
    let long = "9".repeat(60);
    let cases: Vec<(String, usize, String)> = vec![
        ("".into(), 0, "line 1: expected the number of games T (a non-negative integer), found end of input".into()),
        ("\n \n\t\n".into(), 0, "line 4: expected the number of games T (a non-negative integer), found end of input".into()),
        ("x\n".into(), 0, "line 1, column 1: expected the number of games T (a non-negative integer), found `x`".into()),
        ("1 2\n".into(), 0, "line 1, column 3: expected the number of games T, found 2 numbers: `1 2`".into()),
        ("+1\n".into(), 0, "line 1, column 1: expected the number of games T (a non-negative integer), found `+1`".into()),
        (format!("{long}\n"), 0, format!("line 1, column 1: expected the number of games T (a non-negative integer), found `{}…`", "9".repeat(40))),
        (format!("2\n{GAME}6\n1 2\n2 x\n"), 1, "line 11, column 3: expected a dot number (an integer from 1 to 10), found `x`".into()),
        (format!("2\n{GAME}6\n1 2\n1 5\n"), 1, "line 11, column 1: dots 1 and 5 are not joined by a segment".into()),
        ("1\n6\n1 2\n2 3\n 3 2\n".into(), 0, "line 5, column 2: segment 2-3 was already drawn on line 4".into()),
        ("1\n6\n1 2\n2 11\n".into(), 0, "line 4, column 3: expected a dot number (an integer from 1 to 10), found `11`".into()),
        ("1\n6\n1 2\n0 1\n".into(), 0, "line 4, column 1: expected a dot number (an integer from 1 to 10), found `0`".into()),
        ("1\n7\n1 2\n".into(), 0, "line 4: expected move 2 of 7 of game 1 as two dot numbers `i j`, found end of input".into()),
        (format!("3\n{GAME}"), 1, "line 9: expected the move count of game 2 of 3 (an integer from 0 to 18), found end of input".into()),
        ("1\n6\n1 2 3\n".into(), 0, "line 3, column 5: expected move 1 of 6 of game 1 as two dot numbers `i j`, found 3 numbers: `1 2 3`".into()),
        ("1\n6\n1\n".into(), 0, "line 3, column 2: expected move 1 of 6 of game 1 as two dot numbers `i j`, found 1 number: `1`".into()),
        (format!("1\n{GAME}junk\n"), 1, "line 9, column 1: expected end of input after 1 game, found `junk`".into()),
        (format!("2\n{GAME}\n0\n\n  0 \n"), 2, "line 12, column 3: expected end of input after 2 games, found `0`".into()),
        ("0\n1\n".into(), 0, "line 2, column 1: expected end of input after 0 games, found `1`".into()),
        ("1\n19\n".into(), 0, "line 2, column 1: expected the move count of game 1 of 1 (an integer from 0 to 18), found `19`".into()),
        ("1\n-1\n".into(), 0, "line 2, column 1: expected the move count of game 1 of 1 (an integer from 0 to 18), found `-1`".into()),
        ("1\n6\n1\u{1b}[31m 2\n".into(), 0, "line 3, column 1: expected a dot number (an integer from 1 to 10), found `1\\u{1b}[31m`".into()),
        ("1\n6\n1 2\u{202e}\n".into(), 0, "line 3, column 3: expected a dot number (an integer from 1 to 10), found `2\\u{202e}`".into()),
        ("1\n6\n1\u{a0}2\n".into(), 0, "line 3, column 4: expected move 1 of 6 of game 1 as two dot numbers `i j`, found 1 number: `1\\u{a0}2`".into()),
        ("\u{feff}1\n6\n\u{feff}1 2\n".into(), 0, "line 3, column 1: expected a dot number (an integer from 1 to 10), found `\\u{feff}1`".into()),
    ];
    for (text, games, message) in cases {
        let (ok, err) = parse(&text);
        let err = err.unwrap_or_else(|| panic!("no error for {text:?}"));
        assert_eq!((ok, err.to_string()), (games, message), "{text:?}");
    }
    let (_, e) = parse("1\n6\n1 2\n2 3\n3 2\n");
    assert_eq!(e.unwrap().kind, ParseErrorKind::RepeatedSegment { i: 2, j: 3, first_line: 4 });
    let (_, e) = parse("1\n6\n1 5\n");
    assert_eq!(e.unwrap().kind, ParseErrorKind::NoSuchSegment { i: 1, j: 5 });
}

#[test]
fn bytes_that_are_not_utf8_name_their_line_after_the_good_games() {
    let g = Geometry::new(3).unwrap();
    let mut input = format!("2\n{GAME}6\n1 2\n").into_bytes();
    input.extend_from_slice(b"2 \xff3\n");
    let results: Vec<_> = parse_games_from(&input[..], &g).collect();
    assert_eq!(results.len(), 2);
    assert!(results[0].is_ok());
    let e = results[1].as_ref().unwrap_err();
    assert_eq!(e.to_string(), "line 11, column 3: expected UTF-8 text, found `\\xff`");
}

#[test]
fn io_errors_are_typed() {
    struct Failing;
    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::BrokenPipe, "pipe gone"))
        }
    }
    let g = Geometry::new(3).unwrap();
    let input = io::BufReader::new(io::Read::chain(&b"1\n6\n1 2\n"[..], Failing));
    let results: Vec<_> = parse_games_from(input, &g).collect();
    let e = results.last().unwrap().as_ref().unwrap_err();
    match &e.kind {
        ParseErrorKind::Text(judge_text::TextErrorKind::Io(io)) => {
            assert_eq!(io.kind(), io::ErrorKind::BrokenPipe)
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(e.to_string(), "line 4: cannot read the input: pipe gone");
}

#[test]
fn blank_lines_crlf_bom_and_reversed_pairs_are_accepted() {
    let text = "\u{feff}\r\n2\r\n\r\n6\r\n2 1\r\n3 2\r\n1 3\r\n4 2\r\n5\t2\r\n5 4 \r\n\r\n\r\n0";
    assert_eq!(parse(text).0, 2);
    assert!(parse(text).1.is_none());
}

#[test]
fn one_byte_chunks_give_the_same_results() {
    let g = Geometry::new(3).unwrap();
    let inputs = [
        format!("3\n{GAME}\r\n{GAME}7\n1 2\n"),
        format!("\u{feff}2\n{GAME}{GAME}trailing"),
        format!("1\n{GAME}").replace("2 5", "2 \u{1b}5"),
        String::new(),
    ];
    for text in &inputs {
        let whole: Vec<_> = parse_games(text, &g).collect();
        for chunk in [1, 2, 7] {
            let chunked: Vec<_> =
                parse_games_from(judge_text::ChunkedReader::new(text.as_bytes(), chunk), &g).collect();
            assert_eq!(whole, chunked, "{text:?} in chunks of {chunk}");
        }
    }
}

/// An endless input: `T` = 10^12, then the same game over and over, made on demand; counts the
/// bytes handed out.
struct Endless {
    head: Vec<u8>,
    served: usize,
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let game = GAME.as_bytes();
        let mut n = 0;
        while n < buf.len() {
            let i = self.served + n;
            buf[n] =
                if i < self.head.len() { self.head[i] } else { game[(i - self.head.len()) % game.len()] };
            n += 1;
        }
        self.served += n;
        Ok(n)
    }
}

#[test]
fn a_huge_input_is_read_lazily() {
    let g = Geometry::new(3).unwrap();
    let endless = Endless { head: b"1000000000000\n".to_vec(), served: 0 };
    let mut reader = io::BufReader::with_capacity(4096, endless);
    let games: Vec<_> = parse_games_from(&mut reader, &g).take(1000).collect::<Result<_, _>>().unwrap();
    assert_eq!(games.len(), 1000);
    assert_eq!(games[999].number, 1000);
    // 1000 games are 24 kB of text; the parser did not read further than one buffer ahead.
    let served = reader.get_ref().served;
    assert!(served <= 1000 * GAME.len() + 14 + 4096, "read {served} bytes");
}

#[test]
fn move_texts_parse_like_the_judge_pairs() {
    let g = Geometry::new(3).unwrap();
    for text in ["2 5", "2-5", " 5 - 2 ", "5\t2"] {
        assert_eq!(parse_segment(&g, text), Ok(g.segment_index(2, 5).unwrap()), "{text:?}");
    }
    assert_eq!(parse_segment(&g, "1 5"), Err(MoveError::NoSuchSegment { i: 1, j: 5 }));
    assert_eq!(parse_segment(&g, "0 1"), Err(MoveError::NoSuchDot { dot: 0, dots: 10 }));
    assert_eq!(parse_segment(&g, "1 300"), Err(MoveError::NoSuchDot { dot: 300, dots: 10 }));
    assert_eq!(
        parse_segment(&g, "-1 3").unwrap_err().to_string(),
        "expected a segment as two dot numbers like `2 5` or `2-5`, found `-1 3`"
    );
    assert_eq!(
        parse_segment(&g, "\u{1b}[2J").unwrap_err().to_string(),
        "expected a segment as two dot numbers like `2 5` or `2-5`, found `\\u{1b}[2J`"
    );
    assert_eq!(parse_segment(&g, "1 5").unwrap_err().to_string(), "dots 1 and 5 are not joined by a segment");
    assert_eq!(
        parse_segment(&g, "0-1").unwrap_err().to_string(),
        "dot 0 is not on the board: dots are numbered 1 to 10"
    );
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in "[0-9 \\n\\-x]{0,200}") {
        let _ = parse(&text);
    }

    #[test]
    fn arbitrary_unicode_never_panics_and_chunks_agree(text in "\\PC{0,80}", chunk in 1usize..5) {
        let g = Geometry::new(3).unwrap();
        let whole: Vec<_> = parse_games(&text, &g).collect();
        let chunked: Vec<_> = parse_games_from(judge_text::ChunkedReader::new(text.as_bytes(), chunk), &g).collect();
        prop_assert_eq!(whole, chunked);
        let _ = parse_segment(&g, &text);
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
