//! The line reader, tokens, integers and quoting: line and column numbers, BOM and CRLF, bytes
//! that are not UTF-8, overlong lines, I/O errors, chunked readers, escapes and truncation.

use std::io::{self, BufRead, Read};

use judge_text::{describe_int, parse_pair, quote, Found, LineReader, TextErrorKind, QUOTE_MAX_CHARS};

/// Every line of `reader` as (number, text), then the error if any.
fn all_lines<R: BufRead>(mut lines: LineReader<R>) -> (Vec<(usize, String)>, Option<String>) {
    let mut out = Vec::new();
    loop {
        match lines.next_line() {
            Ok(Some(line)) => out.push((line.number, line.text.to_string())),
            Ok(None) => return (out, None),
            Err(e) => {
                assert!(lines.next_line().unwrap().is_none(), "errors are sticky");
                return (out, Some(e.to_string()));
            }
        }
    }
}

#[test]
fn lines_are_numbered_with_bom_and_crlf_removed() {
    let text = "\u{feff}a\r\n\r\nb c\n\u{feff}d\rx\r\nlast";
    let want = vec![
        (1, "a".to_string()),
        (2, String::new()),
        (3, "b c".to_string()),
        (4, "\u{feff}d\rx".to_string()),
        (5, "last".to_string()),
    ];
    for chunk in [1, 2, 3, 100] {
        let (lines, err) = all_lines(LineReader::new(judge_text::ChunkedReader::new(text.as_bytes(), chunk)));
        assert_eq!((lines, err), (want.clone(), None), "chunks of {chunk}");
    }
    assert_eq!(all_lines(LineReader::new(&b""[..])), (vec![], None));
    assert_eq!(all_lines(LineReader::new(&b"\n"[..])), (vec![(1, String::new())], None));
}

#[test]
fn not_utf8_names_line_and_column() {
    for chunk in [1, 4, 100] {
        let data = b"ok\n\xc3\xa9\xc3\xa9 \xff rest\nnever\n";
        let (lines, err) = all_lines(LineReader::new(judge_text::ChunkedReader::new(data, chunk)));
        assert_eq!(lines, vec![(1, "ok".to_string())]);
        assert_eq!(err.unwrap(), "line 2, column 4: expected UTF-8 text, found `\\xff`");
    }
    // A sequence cut by the end of the line.
    let (_, err) = all_lines(LineReader::new(&b"\xe2\x82\n"[..]));
    assert_eq!(err.unwrap(), "line 1, column 1: expected UTF-8 text, found `\\xe2\\x82`");
}

#[test]
fn overlong_lines_are_refused_without_reading_them_whole() {
    let lines = LineReader::new(&b"12345\n123456\n"[..]).with_max_line_bytes(5);
    let (ok, err) = all_lines(lines);
    assert_eq!(ok, vec![(1, "12345".to_string())]);
    assert_eq!(err.unwrap(), "line 2: expected a line of at most 5 bytes, found a longer one");
    // `\r\n` does not count.
    let (ok, err) = all_lines(LineReader::new(&b"12345\r\n"[..]).with_max_line_bytes(5));
    assert_eq!((ok, err), (vec![(1, "12345".to_string())], None));
    // An endless line: the reader stops soon after the limit.
    struct Endless(usize);
    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            buf.fill(b'7');
            self.0 += buf.len();
            Ok(buf.len())
        }
    }
    let mut reader = io::BufReader::with_capacity(1000, Endless(0));
    let mut lines = LineReader::new(&mut reader).with_max_line_bytes(10_000);
    let e = lines.next_line().unwrap_err();
    assert_eq!(e.kind, TextErrorKind::LineTooLong { max: 10_000 });
    drop(lines);
    assert!(reader.get_ref().0 <= 12_000, "read {} bytes", reader.get_ref().0);
}

#[test]
fn io_errors_pass_through_with_the_line() {
    struct Failing;
    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::PermissionDenied, "no"))
        }
    }
    let reader = io::BufReader::new(Read::chain(&b"a\nb"[..], Failing));
    let (ok, err) = all_lines(LineReader::new(reader));
    assert_eq!(ok, vec![(1, "a".to_string())]);
    assert_eq!(err.unwrap(), "line 2: cannot read the input: no");
}

#[test]
fn tokens_have_line_and_column() {
    let mut lines = LineReader::new("\n \té 12\u{a0}x  7 \r\n".as_bytes());
    let line = lines.next_non_blank().unwrap().unwrap();
    assert_eq!(line.number, 2);
    let tokens: Vec<(&str, usize)> = line.tokens().map(|t| (t.text, t.column)).collect();
    assert_eq!(tokens, vec![("é", 3), ("12\u{a0}x", 5), ("7", 11)]);
    assert_eq!(line.trimmed(), (3, "é 12\u{a0}x  7"));
    let err = line.fields::<2>(|| "two numbers".into()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 2, column 11: expected two numbers, found 3 numbers: `é 12\\u{a0}x  7`"
    );
    let err = line.exactly(4, || "four numbers".into()).unwrap_err();
    assert_eq!((err.line, err.column), (2, Some(12)));
    assert_eq!(line.exactly(3, String::new).unwrap().len(), 3);
    assert!(lines.next_non_blank().unwrap().is_none());
    assert_eq!(lines.end_of_input("more").to_string(), "line 3: expected more, found end of input");
}

#[test]
fn integers_are_plain_ascii_digits_in_range() {
    let mut lines =
        LineReader::new("0 18 19 007 +1 -0 1_0 18446744073709551615 18446744073709551616".as_bytes());
    let line = lines.next_line().unwrap().unwrap();
    let t: Vec<_> = line.tokens().collect();
    assert_eq!(t[0].int("m", 0, 18).unwrap(), 0);
    assert_eq!(t[1].int("m", 0, 18).unwrap(), 18);
    assert_eq!(
        t[2].int("m", 0, 18).unwrap_err().to_string(),
        "line 1, column 6: expected m (an integer from 0 to 18), found `19`"
    );
    assert_eq!(t[3].int("m", 0, 18).unwrap(), 7);
    for bad in &t[4..7] {
        assert!(bad.int("m", 0, 18).is_err(), "{}", bad.text);
    }
    assert_eq!(t[7].int("T", 0, u64::MAX).unwrap(), u64::MAX);
    let e = t[8].int("T", 0, u64::MAX).unwrap_err();
    assert_eq!(
        e.kind,
        TextErrorKind::Expected {
            expected: "T (a non-negative integer)".into(),
            found: Found::Text("18446744073709551616".into())
        }
    );
    assert_eq!(describe_int("n", 1, u64::MAX), "n (an integer of at least 1)");
}

#[test]
fn quotes_escape_and_cut() {
    assert_eq!(quote("plain é 字"), "`plain é 字`");
    assert_eq!(quote("a\u{1b}[31mb\u{7}"), "`a\\u{1b}[31mb\\u{7}`");
    assert_eq!(quote("t\tr\rn\n\\"), "`t\\tr\\rn\\n\\\\`");
    assert_eq!(
        quote("\u{202e}rtl\u{200b}\u{feff}\u{a0}\u{3000}"),
        "`\\u{202e}rtl\\u{200b}\\u{feff}\\u{a0}\\u{3000}`"
    );
    assert_eq!(quote("\u{9b}31m"), "`\\u{9b}31m`");
    let long = "é".repeat(QUOTE_MAX_CHARS + 1);
    assert_eq!(quote(&long), format!("`{}…`", "é".repeat(QUOTE_MAX_CHARS)));
    assert_eq!(quote(&"é".repeat(QUOTE_MAX_CHARS)), format!("`{}`", "é".repeat(QUOTE_MAX_CHARS)));
    assert_eq!(Found::End.to_string(), "end of input");
    assert_eq!(Found::Count { count: 1, text: "x".into() }.to_string(), "1 number: `x`");
}

#[test]
fn pairs_typed_by_people() {
    assert_eq!(parse_pair("2 5", '-'), Some((2, 5)));
    assert_eq!(parse_pair("2-5", '-'), Some((2, 5)));
    assert_eq!(parse_pair("\t1 ,2 ", ','), Some((1, 2)));
    for bad in
        ["", "1", "1 2 3", "1,2,3", "a,1", "1,", ",1", "1,-2", "1 ,, 2", "99999999999999999999,1", "1\u{a0}2"]
    {
        assert_eq!(parse_pair(bad, ','), None, "{bad:?}");
    }
}

#[test]
fn sizes_parse_and_bad_ones_are_quoted() {
    use judge_text::parse_size;
    assert_eq!(parse_size("5x4", "ROWSxCOLS", "4x4"), Ok((5, 4)));
    assert_eq!(parse_size(" 7 X 6 ", "COLUMNSxROWS", "7x6"), Ok((7, 6)));
    for bad in ["5", "ax3", "0x3", "3x0", "-1x3", "3x", ""] {
        let e = parse_size(bad, "ROWSxCOLS", "4x4").unwrap_err();
        assert!(e.starts_with("expected ROWSxCOLS such as 4x4, found `"), "{bad}: {e}");
    }
    let long = "9".repeat(1000) + "x3";
    assert!(parse_size(&long, "ROWSxCOLS", "4x4").unwrap_err().len() < 120, "quoted cut");
}
