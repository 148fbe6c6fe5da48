#![doc = include_str!("../README.md")]

use std::fmt;
use std::io::{self, BufRead};

/// Longest piece of input quoted back in a message, in characters (longer text is cut and ends
/// in `…`).
pub const QUOTE_MAX_CHARS: usize = 40;

/// Longest line a [`LineReader`] accepts by default, in bytes (1 MiB; the judges' lines are at
/// most a few hundred bytes). Longer lines are an error ([`TextErrorKind::LineTooLong`]), so
/// that one line never needs more memory than this.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// White space between tokens: ASCII space, tab, carriage return, vertical tab, form feed.
/// Other characters (including Unicode spaces) are part of tokens, and quoted escaped.
#[must_use]
pub fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\u{b}' | '\u{c}')
}

/// Characters that do not show, or change how the terminal shows what follows: escaped by
/// [`quote`] besides control characters.
fn is_invisible(c: char) -> bool {
    (c.is_whitespace() && c != ' ')
        || matches!(c,
            '\u{ad}' | '\u{34f}' | '\u{61c}' | '\u{115f}' | '\u{1160}' | '\u{17b4}' | '\u{17b5}'
            | '\u{180b}'..='\u{180f}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}' | '\u{3164}' | '\u{fe00}'..='\u{fe0f}' | '\u{feff}'
            | '\u{ffa0}' | '\u{fff0}'..='\u{fffb}' | '\u{e0000}'..='\u{e0fff}')
        || matches!(c as u32, 0xd800..=0xdfff)
}

/// `text` quoted for an error message: in backquotes, with `\` written `\\`, tab, carriage
/// return and line feed as `\t`, `\r`, `\n`, and every other control or invisible character
/// (escape sequences, byte-order marks, bidirectional overrides, zero-width and non-ASCII
/// spaces) as `\u{..}`; cut to [`QUOTE_MAX_CHARS`] characters followed by `…`.
///
/// ```
/// assert_eq!(judge_text::quote("a\u{1b}[31mb"), "`a\\u{1b}[31mb`");
/// assert_eq!(judge_text::quote(&"x".repeat(50)), format!("`{}…`", "x".repeat(40)));
/// ```
#[must_use]
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(4 * QUOTE_MAX_CHARS) + 4);
    out.push('`');
    for (i, c) in text.chars().enumerate() {
        if i == QUOTE_MAX_CHARS {
            out.push('…');
            break;
        }
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() || is_invisible(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('`');
    out
}

/// Bytes quoted for an error message, each as `\xHH`, in backquotes.
#[must_use]
pub fn quote_bytes(bytes: &[u8]) -> String {
    let mut out = String::from("`");
    for b in bytes.iter().take(QUOTE_MAX_CHARS) {
        out.push_str(&format!("\\x{b:02x}"));
    }
    out.push('`');
    out
}

/// What the input has where something else was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// The input ended. Displays as `end of input`.
    End,
    /// Some text (a token or a line), kept as read. Displays quoted ([`quote`]).
    Text(String),
    /// A line with the wrong number of tokens. Displays as ``3 numbers: `1 2 3` ``.
    Count {
        /// How many tokens the line holds.
        count: usize,
        /// The line, trimmed.
        text: String,
    },
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::End => f.write_str("end of input"),
            Found::Text(text) => f.write_str(&quote(text)),
            Found::Count { count, text } => {
                write!(f, "{count} number{}: {}", if *count == 1 { "" } else { "s" }, quote(text))
            }
        }
    }
}

/// What went wrong, without its location; see [`TextError`].
#[derive(Debug, thiserror::Error)]
pub enum TextErrorKind {
    /// The reader failed.
    #[error("cannot read the input: {0}")]
    Io(#[source] io::Error),
    /// Bytes that are not UTF-8 (the column is that of the first of them).
    #[error("expected UTF-8 text, found {}", quote_bytes(bytes))]
    NotUtf8 {
        /// The offending bytes (an invalid sequence, at most 4 bytes).
        bytes: Vec<u8>,
    },
    /// A line longer than the reader's limit ([`MAX_LINE_BYTES`] by default).
    #[error("expected a line of at most {max} bytes, found a longer one")]
    LineTooLong {
        /// The limit, in bytes.
        max: usize,
    },
    /// The input does not follow the format here.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What the format asks for here, e.g. `the number of games T`.
        expected: String,
        /// What the input has instead.
        found: Found,
    },
}

impl PartialEq for TextErrorKind {
    /// Equal kinds; I/O errors compare by their [`io::ErrorKind`].
    fn eq(&self, other: &Self) -> bool {
        use TextErrorKind::*;
        match (self, other) {
            (Io(a), Io(b)) => a.kind() == b.kind(),
            (NotUtf8 { bytes: a }, NotUtf8 { bytes: b }) => a == b,
            (LineTooLong { max: a }, LineTooLong { max: b }) => a == b,
            (Expected { expected: a, found: x }, Expected { expected: b, found: y }) => a == b && x == y,
            _ => false,
        }
    }
}

/// A place in the input: 1-based line, and 1-based column (in characters) where known.
/// Displays as `line 3` or `line 3, column 5`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Location {
    /// 1-based line.
    pub line: usize,
    /// 1-based column in characters, if the error is at a character.
    pub column: Option<usize>,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(c) => write!(f, "line {}, column {c}", self.line),
            None => write!(f, "line {}", self.line),
        }
    }
}

/// An input error at a line (and column): displays as `line 3, column 5: expected …, found …`.
#[derive(Debug, PartialEq, thiserror::Error)]
#[error("{}: {kind}", Location { line: *line, column: *column })]
pub struct TextError {
    /// 1-based line (one past the last line for an unexpected end of input).
    pub line: usize,
    /// 1-based column in characters, where the error is at a character.
    pub column: Option<usize>,
    /// What went wrong.
    pub kind: TextErrorKind,
}

/// A board size `AxB` (or `AXB`; spaces around the numbers allowed), each at least 1: the one
/// size parser of the command line's options. `shape` names the order in the message (e.g.
/// `ROWSxCOLS`, `COLUMNSxROWS`) and `example` is one valid size.
///
/// # Errors
/// Anything else, as `expected SHAPE such as EXAMPLE, found `TEXT`` (quoted by [`quote`]).
pub fn parse_size(text: &str, shape: &str, example: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected {shape} such as {example}, found {}", quote(text));
    let (a, b) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let (a, b): (usize, usize) = (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?);
    if a == 0 || b == 0 {
        return Err(bad());
    }
    Ok((a, b))
}

/// A parse error of one judge format, with the format's own kinds of error `K` beside the text
/// errors every format shares (`K: From<TextErrorKind>`): the one parse-error type of the
/// workspace; each game crate names it `ParseError = judge_text::ParseError<ParseErrorKind>`.
/// Displays as `line 3, column 5: …` (or `line 3: …` without a column).
#[derive(Debug, PartialEq, thiserror::Error)]
#[error("{}: {kind}", Location { line: *line, column: *column })]
pub struct ParseError<K> {
    /// 1-based line (one past the last line for an unexpected end of input).
    pub line: usize,
    /// 1-based column in characters, where the error is at a character.
    pub column: Option<usize>,
    /// What went wrong.
    pub kind: K,
}

impl<K: From<TextErrorKind>> From<TextError> for ParseError<K> {
    fn from(e: TextError) -> Self {
        ParseError { line: e.line, column: e.column, kind: K::from(e.kind) }
    }
}

impl TextError {
    /// An [`TextErrorKind::Expected`] error.
    #[must_use]
    pub fn expected(line: usize, column: Option<usize>, expected: String, found: Found) -> TextError {
        TextError { line, column, kind: TextErrorKind::Expected { expected, found } }
    }
}

/// `what` with the integer range that [`Token::int`] accepts: `the move count (an integer from
/// 0 to 18)`, or `(a non-negative integer)` when `hi` is `u64::MAX` and `lo` is 0.
#[must_use]
pub fn describe_int(what: &str, lo: u64, hi: u64) -> String {
    match (lo, hi) {
        (0, u64::MAX) => format!("{what} (a non-negative integer)"),
        (lo, u64::MAX) => format!("{what} (an integer of at least {lo})"),
        (lo, hi) => format!("{what} (an integer from {lo} to {hi})"),
    }
}

/// One token: a run of characters between ASCII white space ([`is_space`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// The token's text.
    pub text: &'a str,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters) of its first character.
    pub column: usize,
}

impl Token<'_> {
    /// An error at this token: `expected {expected}, found `{text}``.
    #[must_use]
    pub fn expected(&self, expected: String) -> TextError {
        TextError::expected(self.line, Some(self.column), expected, Found::Text(self.text.to_string()))
    }

    /// The token as a decimal integer from `lo` to `hi`: ASCII digits only (no sign, no spaces).
    ///
    /// # Errors
    /// Any other token, or a number outside the range (including one beyond `u64`):
    /// `expected {what} (an integer from {lo} to {hi}), found `{token}`` ([`describe_int`]).
    pub fn int(&self, what: &str, lo: u64, hi: u64) -> Result<u64, TextError> {
        let bad = || self.expected(describe_int(what, lo, hi));
        if self.text.is_empty() || !self.text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let mut value: u64 = 0;
        for b in self.text.bytes() {
            value = value.checked_mul(10).and_then(|v| v.checked_add(u64::from(b - b'0'))).ok_or_else(bad)?;
        }
        if (lo..=hi).contains(&value) {
            Ok(value)
        } else {
            Err(bad())
        }
    }
}

/// Iterator over the [`Token`]s of a [`Line`].
#[derive(Debug, Clone)]
pub struct Tokens<'a> {
    rest: std::str::CharIndices<'a>,
    text: &'a str,
    line: usize,
    column: usize,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let (start, column) = loop {
            let (i, c) = self.rest.next()?;
            self.column += 1;
            if !is_space(c) {
                break (i, self.column);
            }
        };
        let mut end = self.text.len();
        for (i, c) in self.rest.by_ref() {
            self.column += 1;
            if is_space(c) {
                end = i;
                break;
            }
        }
        Some(Token { text: &self.text[start..end], line: self.line, column })
    }
}

/// One line of the input, without its line ending (`\n` or `\r\n`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line<'a> {
    /// 1-based line number.
    pub number: usize,
    /// The text, as read (a leading byte-order mark of the input removed).
    pub text: &'a str,
}

impl<'a> Line<'a> {
    /// The tokens of the line, separated by ASCII white space.
    #[must_use]
    pub fn tokens(&self) -> Tokens<'a> {
        Tokens { rest: self.text.char_indices(), text: self.text, line: self.number, column: 0 }
    }

    /// Whether the line holds only ASCII white space.
    #[must_use]
    pub fn is_blank(&self) -> bool {
        self.text.chars().all(is_space)
    }

    /// The text without surrounding ASCII white space, and the 1-based column where it starts.
    #[must_use]
    pub fn trimmed(&self) -> (usize, &'a str) {
        let start = self.text.trim_start_matches(is_space);
        let column = self.text[..self.text.len() - start.len()].chars().count() + 1;
        (column, start.trim_end_matches(is_space))
    }

    /// An error at this line's first non-blank character: `expected {expected}, found `{line}``
    /// (the line trimmed).
    #[must_use]
    pub fn expected(&self, expected: String) -> TextError {
        let (column, text) = self.trimmed();
        TextError::expected(self.number, Some(column), expected, Found::Text(text.to_string()))
    }

    /// Exactly `N` tokens.
    ///
    /// # Errors
    /// Another count: `expected {what()}, found {k} numbers: `{line}``, at the first extra
    /// token, or just past the last one when there are too few.
    pub fn fields<const N: usize>(&self, what: impl FnOnce() -> String) -> Result<[Token<'a>; N], TextError> {
        let mut out = [Token { text: "", line: self.number, column: 1 }; N];
        self.count_into(&mut out, N, what).map(|()| out)
    }

    /// Exactly `n` tokens, in a vector.
    ///
    /// # Errors
    /// As [`Line::fields`].
    pub fn exactly(&self, n: usize, what: impl FnOnce() -> String) -> Result<Vec<Token<'a>>, TextError> {
        let mut out = vec![Token { text: "", line: self.number, column: 1 }; n];
        self.count_into(&mut out, n, what).map(|()| out)
    }

    fn count_into(
        &self,
        out: &mut [Token<'a>],
        n: usize,
        what: impl FnOnce() -> String,
    ) -> Result<(), TextError> {
        let mut count = 0;
        let mut extra_column = None;
        let mut end_column = 1;
        for token in self.tokens() {
            if count < n {
                out[count] = token;
            } else if extra_column.is_none() {
                extra_column = Some(token.column);
            }
            end_column = token.column + token.text.chars().count();
            count += 1;
        }
        if count == n {
            return Ok(());
        }
        let found = Found::Count { count, text: self.trimmed().1.to_string() };
        Err(TextError::expected(self.number, Some(extra_column.unwrap_or(end_column)), what(), found))
    }
}

/// Reads lines from a [`BufRead`], one at a time, numbering them from 1.
///
/// A leading UTF-8 byte-order mark is skipped; lines end at `\n`, and a `\r` before it is
/// dropped; the last line may lack its `\n`. Errors are sticky: after one, every call returns
/// `Ok(None)`.
#[derive(Debug)]
pub struct LineReader<R> {
    reader: R,
    buf: Vec<u8>,
    /// Lines read so far (the number of the last one).
    lines: usize,
    max_line_bytes: usize,
    done: bool,
}

impl<R: BufRead> LineReader<R> {
    /// A reader of `reader`'s lines, with the default line limit [`MAX_LINE_BYTES`].
    pub fn new(reader: R) -> Self {
        LineReader { reader, buf: Vec::new(), lines: 0, max_line_bytes: MAX_LINE_BYTES, done: false }
    }

    /// The same reader with another line limit, in bytes (at least 1).
    #[must_use]
    pub fn with_max_line_bytes(mut self, max: usize) -> Self {
        self.max_line_bytes = max.max(1);
        self
    }

    /// The number of lines read so far.
    #[must_use]
    pub fn lines_read(&self) -> usize {
        self.lines
    }

    /// The error for an input that ended where `expected` was due, at the line after the last.
    #[must_use]
    pub fn end_of_input(&self, expected: impl Into<String>) -> TextError {
        TextError::expected(self.lines + 1, None, expected.into(), Found::End)
    }

    fn fail(&mut self, column: Option<usize>, kind: TextErrorKind) -> TextError {
        self.done = true;
        TextError { line: self.lines, column, kind }
    }

    /// The next line, or `None` at the end of the input.
    ///
    /// # Errors
    /// An I/O error of the reader, a line longer than the limit, or a line that is not UTF-8
    /// (at the column of the first bad byte), each naming the line.
    pub fn next_line(&mut self) -> Result<Option<Line<'_>>, TextError> {
        if self.done {
            return Ok(None);
        }
        self.buf.clear();
        let mut any = false;
        loop {
            let available = match self.reader.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.lines += 1;
                    return Err(self.fail(None, TextErrorKind::Io(e)));
                }
            };
            if available.is_empty() {
                if !any {
                    self.done = true;
                    return Ok(None);
                }
                break;
            }
            any = true;
            let (take, newline) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (available.len(), false),
            };
            // Keep at most `max + 2` bytes: the limit, a `\r` before the `\n`, and one to tell.
            let cap = self.max_line_bytes + 2;
            let room = cap - self.buf.len().min(cap);
            self.buf.extend_from_slice(&available[..take.min(room)]);
            self.reader.consume(if newline { take + 1 } else { take });
            if newline || self.buf.len() > self.max_line_bytes + 1 {
                break;
            }
        }
        self.lines += 1;
        if self.buf.last() == Some(&b'\r') && self.buf.len() <= self.max_line_bytes + 1 {
            self.buf.pop();
        }
        if self.buf.len() > self.max_line_bytes {
            let max = self.max_line_bytes;
            return Err(self.fail(None, TextErrorKind::LineTooLong { max }));
        }
        let start = if self.lines == 1 && self.buf.starts_with(b"\xef\xbb\xbf") { 3 } else { 0 };
        match std::str::from_utf8(&self.buf[start..]) {
            Ok(_) => {}
            Err(e) => {
                let good = e.valid_up_to();
                let bad_len = e.error_len().unwrap_or(self.buf.len() - start - good);
                let bytes = self.buf[start + good..start + good + bad_len].to_vec();
                // The valid prefix is UTF-8: count its characters.
                let column = String::from_utf8_lossy(&self.buf[start..start + good]).chars().count() + 1;
                return Err(self.fail(Some(column), TextErrorKind::NotUtf8 { bytes }));
            }
        }
        let text = std::str::from_utf8(&self.buf[start..]).unwrap_or_default();
        Ok(Some(Line { number: self.lines, text }))
    }

    /// The next line that is not blank ([`Line::is_blank`]), or `None` at the end of the input.
    ///
    /// # Errors
    /// As [`LineReader::next_line`].
    pub fn next_non_blank(&mut self) -> Result<Option<Line<'_>>, TextError> {
        loop {
            match self.next_line()? {
                None => return Ok(None),
                Some(line) if line.is_blank() => {}
                Some(_) => break,
            }
        }
        // Re-borrow the line just read (the loop above cannot return it past the borrow checker).
        let start = if self.lines == 1 && self.buf.starts_with(b"\xef\xbb\xbf") { 3 } else { 0 };
        let text = std::str::from_utf8(&self.buf[start..]).unwrap_or_default();
        Ok(Some(Line { number: self.lines, text }))
    }

    /// Refuses any non-blank text left in the input: the rule after the last case of every
    /// format.
    ///
    /// # Errors
    /// `expected end of input after {after}, found `{line}`` at the first non-blank line, or a
    /// reading error.
    pub fn expect_end(&mut self, after: &str) -> Result<(), TextError> {
        match self.next_non_blank()? {
            None => Ok(()),
            Some(line) => Err(line.expected(format!("end of input after {after}"))),
        }
    }
}

/// A pair of non-negative decimal integers typed by a person: `a b`, or `a{separator}b` with
/// optional ASCII white space around the separator (`2-5`, `1, 2`). ASCII digits only (no
/// sign), each fitting `u64`; anything else is `None`.
///
/// ```
/// assert_eq!(judge_text::parse_pair(" 2-5 ", '-'), Some((2, 5)));
/// assert_eq!(judge_text::parse_pair("1 , 2", ','), Some((1, 2)));
/// assert_eq!(judge_text::parse_pair("1 2", ','), Some((1, 2)));
/// assert_eq!(judge_text::parse_pair("-1 2", '-'), None);
/// assert_eq!(judge_text::parse_pair("1 2 3", ','), None);
/// ```
#[must_use]
pub fn parse_pair(text: &str, separator: char) -> Option<(u64, u64)> {
    let number = |t: &str| -> Option<u64> {
        let t = t.trim_matches(is_space);
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        t.parse().ok()
    };
    match text.split_once(separator) {
        Some((a, b)) => Some((number(a)?, number(b)?)),
        None => {
            let mut words = text.split(is_space).filter(|w| !w.is_empty());
            let (a, b) = (words.next()?, words.next()?);
            if words.next().is_some() {
                return None;
            }
            Some((number(a)?, number(b)?))
        }
    }
}

/// A reader that hands out its bytes at most `chunk` at a time, for testing that a streaming
/// parser gives the same results however its input arrives (a pipe may deliver any split).
///
/// ```
/// use std::io::BufRead;
/// let mut r = judge_text::ChunkedReader::new(b"2 5\n", 2);
/// assert_eq!(r.fill_buf().unwrap(), b"2 ");
/// ```
#[derive(Clone, Debug)]
pub struct ChunkedReader<'a> {
    data: &'a [u8],
    chunk: usize,
}

impl<'a> ChunkedReader<'a> {
    /// A reader over `data` giving at most `chunk` bytes (at least 1) per read.
    #[must_use]
    pub fn new(data: &'a [u8], chunk: usize) -> Self {
        ChunkedReader { data, chunk: chunk.max(1) }
    }
}

impl std::io::Read for ChunkedReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        use std::io::BufRead;
        let n = self.fill_buf()?.len().min(buf.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl std::io::BufRead for ChunkedReader<'_> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        Ok(&self.data[..self.chunk.min(self.data.len())])
    }
    fn consume(&mut self, n: usize) {
        self.data = &self.data[n..];
    }
}

/// `b` bytes in the largest binary unit that keeps a number of at least 1 (`1.5 GiB`).
#[must_use]
pub fn human_bytes(b: u128) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut x = b as f64;
    let mut u = 0;
    while x >= 1024.0 && u + 1 < UNITS.len() {
        x /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{x:.1} {}", UNITS[u])
    }
}

#[cfg(test)]
mod human_bytes_tests {
    #[test]
    fn human_sizes() {
        assert_eq!(super::human_bytes(512), "512 B");
        assert_eq!(super::human_bytes(3 << 29), "1.5 GiB");
    }
}
