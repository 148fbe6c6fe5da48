//! The headers of checkpoints and TT snapshots: the fuzzed bytes are the header lines (format
//! line, game, options, root), sealed with a correct checksum over a valid body, so that the
//! header comparison is what is fuzzed. Never a panic; a text is accepted only when its header
//! is exactly the expected one.
#![no_main]

use libfuzzer_sys::fuzz_target;
use search_core::{unseal, SealedKind, SolveIdentity};

fuzz_target!(|data: &[u8]| {
    let Ok(header) = std::str::from_utf8(data) else { return };
    let identity = SolveIdentity { game: "g".into(), options: "side 4".into(), root: "drawn 0x0, A to move".into() };
    for kind in [SealedKind::Checkpoint, SealedKind::TtSnapshot] {
        let mut content = header.to_string();
        if !content.ends_with('\n') {
            content.push('\n');
        }
        content.push_str("move 0 -16 16\n");
        let text = format!("{content}checksum {:08x}\n", crc32fast::hash(content.as_bytes()));
        if unseal(kind, &identity, &text).is_ok() {
            // Accepted: the format line and every field's value (a line may end in spaces and
            // name its field or not, as the reader allows) are the expected ones.
            let lines: Vec<&str> = content.lines().map(str::trim_end).collect();
            assert_eq!(lines[0], kind.format_line(), "{header:?}");
            for (line, (field, value)) in lines[1..4].iter().zip([
                ("game", &identity.game),
                ("options", &identity.options),
                ("root", &identity.root),
            ]) {
                let found = line.strip_prefix(field).and_then(|r| r.strip_prefix(' ')).unwrap_or(line);
                assert_eq!(found, value.as_str(), "accepted another header: {header:?}");
            }
        }
    }
});
