//! The mutations: a seeded generator (SplitMix64), and edits of a text that a careless hand, a
//! cut-off copy or a hostile user makes.

/// SplitMix64: small, seeded, the same on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number from 0 to `n - 1` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The edges of the types numbers are read into, and numbers that are no numbers.
const EDGES: &[&str] = &[
    "0",
    "-1",
    "1",
    "255",
    "65535",
    "2147483647",
    "-2147483648",
    "4294967295",
    "9223372036854775807",
    "18446744073709551615",
    "1e9",
    "1e308",
    "-1e308",
    "0.000001",
    "NaN",
    "inf",
    "-0",
];

/// Characters that open and close a structure, or end a string.
const STRUCTURE: &[u8] = b"()[]{},:\"'\\/\n";

/// One to three edits of `seed`.
pub fn mutate(seed: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = seed.to_vec();
    for _ in 0..1 + rng.below(3) {
        edit(&mut out, rng);
    }
    out
}

fn edit(text: &mut Vec<u8>, rng: &mut Rng) {
    if text.is_empty() {
        text.extend_from_slice(EDGES[rng.below(EDGES.len())].as_bytes());
        return;
    }
    let at = rng.below(text.len());
    match rng.below(9) {
        // A byte flipped.
        0 => text[at] ^= 1 << rng.below(8),
        // A number swapped for an edge.
        1 | 2 => {
            let numbers = numbers(text);
            if let Some(&(from, to)) = numbers.get(rng.below(numbers.len().max(1))) {
                let edge = EDGES[rng.below(EDGES.len())].as_bytes();
                text.splice(from..to, edge.iter().copied());
            }
        }
        // Cut short.
        3 => text.truncate(at),
        // A line doubled, dropped, or two swapped.
        4..=6 => {
            let mut lines: Vec<Vec<u8>> = text.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
            let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
            match rng.below(3) {
                0 => {
                    let line = lines[i].clone();
                    lines.insert(j, line);
                }
                1 => {
                    lines.remove(i);
                }
                _ => lines.swap(i, j),
            }
            *text = lines.join(&b'\n');
        }
        // A bracket, a comma, a quote put in or taken out.
        7 => text.insert(at, STRUCTURE[rng.below(STRUCTURE.len())]),
        _ => {
            if let Some(i) = (at..text.len()).find(|&i| STRUCTURE.contains(&text[i])) {
                text.remove(i);
            }
        }
    }
}

/// Where the numbers of a text are: runs of digits with a sign, a point or an exponent.
fn numbers(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i].is_ascii_digit() {
            let mut from = i;
            if from > 0 && text[from - 1] == b'-' {
                from -= 1;
            }
            while i < text.len() && (text[i].is_ascii_digit() || b".eE".contains(&text[i])) {
                i += 1;
            }
            out.push((from, i));
        } else {
            i += 1;
        }
    }
    out
}

/// FNV-1a, to name a failing input's file.
pub fn hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}
