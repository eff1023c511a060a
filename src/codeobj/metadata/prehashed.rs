//! A name as a hash-table key that carries its own hash, so that a lookup
//! compares the text of a stored name only when the two hashes are equal.
//! The names borrow from a mapped file whose pages a pass lets go behind it
//! (`input::ReleaseBehind`); with a plain `&str` key, the table reads a
//! stored name again whenever a probe meets one whose 7-bit tag matches,
//! which in a table of thousands of names brings back many such pages.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::OnceLock;

/// A name and its hash.
#[derive(Clone, Copy, Debug)]
pub(super) struct Prehashed<'a> {
    hash: u64,
    text: &'a str,
}

impl<'a> Prehashed<'a> {
    pub(super) fn new(text: &'a str) -> Prehashed<'a> {
        // One seed per process: every table hashes a name alike.
        static SEED: OnceLock<RandomState> = OnceLock::new();
        let hash = SEED.get_or_init(RandomState::new).hash_one(text);
        Prehashed { hash, text }
    }
}

impl PartialEq for Prehashed<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && self.text == other.text
    }
}

impl Eq for Prehashed<'_> {}

impl Hash for Prehashed<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}
