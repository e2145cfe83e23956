//! The loader never panics: arbitrary text, and valid levels with random damage.

use delve::level::load_level_str;
use delve::level::spans::{Seg, SpanIndex};
use proptest::prelude::*;

const CRYPT: &str = include_str!("../../levels/crypt.ron");

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_text_never_panics(src in "\\PC{0,400}") {
        let _ = load_level_str(&src, "fuzz.ron", None);
        let ix = SpanIndex::build(&src);
        let _ = ix.pos(&[Seg::Field("map"), Seg::Index(2)]);
    }

    #[test]
    fn ron_shaped_text_never_panics(src in "[(){}\\[\\]:,'\"a-z0-9 .#+~\n-]{0,300}") {
        let _ = load_level_str(&src, "fuzz.ron", None);
    }

    #[test]
    fn damaged_levels_never_panic(
        edits in proptest::collection::vec((0usize..CRYPT.len(), 0usize..4, any::<char>()), 1..6)
    ) {
        let mut s: Vec<char> = CRYPT.chars().collect();
        for (at, kind, c) in edits {
            let at = at % s.len().max(1);
            match kind {
                0 => { s.remove(at); }
                1 => s.insert(at, c),
                2 => s[at] = c,
                _ => { let digit = char::from(b'0' + (at % 10) as u8); s[at] = digit; }
            }
        }
        let src: String = s.into_iter().collect();
        match load_level_str(&src, "damaged.ron", None) {
            Ok(_) => {}
            Err(problems) => {
                prop_assert!(problems.has_errors());
                for d in &problems.0 {
                    prop_assert!(d.line >= 1 && d.col >= 1, "{d}");
                }
            }
        }
    }
}
