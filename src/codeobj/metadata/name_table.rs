//! Names borrowed from a large input, looked up by their 64-bit hashes.
//!
//! A hash table keyed by `&str` compares a probed key's bytes with the
//! stored one whenever their short tags agree, which reads the input page
//! that holds the stored name again. Over a 10,000-kernel metadata note
//! that brings most of it back into memory behind a pass that lets it go
//! (`input::ReleaseBehind`). Keyed by the hash instead, the stored name is
//! read only when a full 64-bit hash matches: a repeat of the name, or a
//! collision, which is checked and kept apart.

use std::collections::HashMap;
use std::collections::hash_map::{Entry, RandomState};
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};

/// The hash of a key that is already a hash.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used (the keys are `u64`); fold anything else.
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// Names mapped to a `usize` each (a kernel index), hashed by `S` (keyed
/// per process by default; tests give one that makes every name collide).
#[derive(Clone, Debug, Default)]
pub(crate) struct NameTable<'a, S = RandomState> {
    hasher: S,
    by_hash: HashMap<u64, (&'a str, usize), BuildHasherDefault<Prehashed>>,
    /// Names whose hash an earlier, different name has.
    collided: HashMap<&'a str, usize>,
}

impl<S: BuildHasher> PartialEq for NameTable<'_, S> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len()
            && self
                .by_hash
                .values()
                .all(|&(name, value)| other.get(name) == Some(value))
            && self
                .collided
                .iter()
                .all(|(name, &value)| other.get(name) == Some(value))
    }
}

impl<S: BuildHasher> Eq for NameTable<'_, S> {}

impl<'a> NameTable<'a> {
    /// A table with room for `names` names.
    pub(crate) fn with_capacity(names: usize) -> NameTable<'a> {
        NameTable {
            by_hash: HashMap::with_capacity_and_hasher(names, BuildHasherDefault::default()),
            ..NameTable::default()
        }
    }
}

impl<'a, S: BuildHasher> NameTable<'a, S> {
    /// Makes room for `additional` more names.
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.by_hash.reserve(additional);
    }

    /// How many names the table holds.
    pub(crate) fn len(&self) -> usize {
        self.by_hash.len() + self.collided.len()
    }

    /// Adds `name` with `value`; when it is already there, leaves the table
    /// as it is and gives the stored value to change.
    pub(crate) fn insert(&mut self, name: &'a str, value: usize) -> Result<(), &mut usize> {
        let hash = self.hasher.hash_one(name);
        self.insert_hashed(hash, name, value)
    }

    /// [`NameTable::insert`] of a name whose hash (by this table's hasher)
    /// is `hash`.
    fn insert_hashed(&mut self, hash: u64, name: &'a str, value: usize) -> Result<(), &mut usize> {
        match self.by_hash.entry(hash) {
            Entry::Vacant(slot) => {
                slot.insert((name, value));
                Ok(())
            }
            Entry::Occupied(slot) if slot.get().0 == name => Err(&mut slot.into_mut().1),
            Entry::Occupied(_) => match self.collided.entry(name) {
                Entry::Vacant(slot) => {
                    slot.insert(value);
                    Ok(())
                }
                Entry::Occupied(slot) => Err(slot.into_mut()),
            },
        }
    }

    /// An empty table hashing as this one does (so that
    /// [`NameTable::absorb`] takes its names without hashing them again),
    /// with room for `names` names.
    pub(crate) fn fork(&self, names: usize) -> NameTable<'a, S>
    where
        S: Clone,
    {
        NameTable {
            hasher: self.hasher.clone(),
            by_hash: HashMap::with_capacity_and_hasher(names, BuildHasherDefault::default()),
            collided: HashMap::new(),
        }
    }

    /// Inserts every name of `other` (a [`NameTable::fork`] of this table),
    /// its value mapped by `place`, in no particular order. A name already
    /// here is left as it is and handed to `repeat` with its new value and
    /// the stored one to change.
    pub(crate) fn absorb(
        &mut self,
        other: NameTable<'a, S>,
        place: impl Fn(usize) -> usize,
        mut repeat: impl FnMut(&'a str, usize, &mut usize),
    ) {
        for (hash, (name, value)) in other.by_hash {
            let value = place(value);
            if let Err(stored) = self.insert_hashed(hash, name, value) {
                repeat(name, value, stored);
            }
        }
        for (name, value) in other.collided {
            let value = place(value);
            if let Err(stored) = self.insert(name, value) {
                repeat(name, value, stored);
            }
        }
    }

    /// Calls `repeat` with each name of `other` (a [`NameTable::fork`] of
    /// this table) that this table holds too, its value in `other` and the
    /// one stored here, in no particular order; neither table changes and
    /// no name is hashed again.
    pub(crate) fn repeats(
        &self,
        other: &NameTable<'a, S>,
        mut repeat: impl FnMut(&'a str, usize, usize),
    ) {
        for (hash, &(name, value)) in &other.by_hash {
            let stored = match self.by_hash.get(hash) {
                None => None,
                Some(&(stored, value)) if stored == name => Some(value),
                Some(_) => self.collided.get(name).copied(),
            };
            if let Some(stored) = stored {
                repeat(name, value, stored);
            }
        }
        for (&name, &value) in &other.collided {
            if let Some(stored) = self.get(name) {
                repeat(name, value, stored);
            }
        }
    }

    /// The value stored with `name`.
    pub(crate) fn get(&self, name: &str) -> Option<usize> {
        match self.by_hash.get(&self.hasher.hash_one(name)) {
            None => None,
            Some(&(stored, value)) if stored == name => Some(value),
            Some(_) => self.collided.get(name).copied(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_by_content_and_repeats_are_reported() {
        let mut table = NameTable::with_capacity(2);
        assert_eq!(table.insert("k0.kd", 0), Ok(()));
        assert_eq!(table.insert("k1.kd", 1), Ok(()));
        let owned = String::from("k0.kd");
        assert_eq!(table.get(&owned), Some(0));
        assert_eq!(table.get("k1.kd"), Some(1));
        assert_eq!(table.get("k2.kd"), None);
        *table.insert(&owned, 7).unwrap_err() = 9;
        assert_eq!(table.get("k0.kd"), Some(9));
        assert_eq!(table.len(), 2);
    }

    #[test]
    fn a_prehashed_key_is_its_own_hash() {
        let mut hasher = Prehashed::default();
        hasher.write_u64(0x1234_5678_9abc_def0);
        assert_eq!(hasher.finish(), 0x1234_5678_9abc_def0);
        // Bytes (never written by the `u64` keys) still give a hash of
        // each byte: different bytes, different hashes.
        let bytes = |data: &[u8]| {
            let mut hasher = Prehashed::default();
            hasher.write(data);
            hasher.finish()
        };
        assert_eq!(bytes(&[1, 2]), 0x0102);
        assert_ne!(bytes(&[1, 2]), bytes(&[1, 3]));
        assert_ne!(bytes(&[3, 3]), bytes(&[3]));
        // Past eight bytes the first byte comes round again and folds in.
        assert_eq!(bytes(&[0xff, 0, 0, 0, 0, 0, 0, 0, 0xff]), 0);
    }

    #[test]
    fn tables_are_equal_when_they_map_the_same_names_to_the_same_values() {
        let table = |entries: &[(&'static str, usize)]| {
            let mut table: NameTable<'_> = NameTable::default();
            for &(name, value) in entries {
                table.insert(name, value).unwrap();
            }
            table
        };
        let ab = table(&[("a", 0), ("b", 1)]);
        assert_eq!(ab, table(&[("b", 1), ("a", 0)]));
        assert_ne!(ab, table(&[("a", 0), ("b", 2)]));
        assert_ne!(ab, table(&[("a", 0), ("c", 1)]));
        assert_ne!(ab, table(&[("a", 0)]));
        assert_ne!(table(&[("a", 0)]), ab);
        // A collided name counts as any other.
        let colliding = |entries: &[(&'static str, usize)]| {
            let mut table = Colliding::default();
            for &(name, value) in entries {
                table.insert(name, value).unwrap();
            }
            table
        };
        let abc = colliding(&[("a", 0), ("b", 1), ("c", 2)]);
        assert_eq!(abc, colliding(&[("a", 0), ("b", 1), ("c", 2)]));
        assert_ne!(abc, colliding(&[("a", 0), ("b", 1), ("c", 3)]));
        assert_ne!(abc, colliding(&[("a", 0), ("b", 1), ("d", 2)]));
        assert_ne!(abc, colliding(&[("a", 1), ("b", 1), ("c", 2)]));
    }

    /// Every name's hash is 7: every name after the first collides.
    #[derive(Default)]
    struct Seven;

    impl Hasher for Seven {
        fn finish(&self) -> u64 {
            7
        }

        fn write(&mut self, _bytes: &[u8]) {}
    }

    type Colliding<'a> = NameTable<'a, BuildHasherDefault<Seven>>;

    #[test]
    fn repeats_are_the_names_both_tables_hold_with_both_values() {
        fn found<S: BuildHasher + Clone>(
            earlier: &NameTable<'static, S>,
            names: &[&'static str],
        ) -> Vec<(&'static str, usize, usize)> {
            let mut later = earlier.fork(names.len());
            for (value, name) in names.iter().enumerate() {
                later.insert(name, value).unwrap();
            }
            let mut repeats = Vec::new();
            earlier.repeats(&later, |name, value, stored| {
                repeats.push((name, value, stored))
            });
            repeats.sort();
            repeats
        }
        let mut plain: NameTable<'_> = NameTable::default();
        let mut colliding = Colliding::default();
        for (value, name) in ["a", "b", "c"].into_iter().enumerate() {
            plain.insert(name, value).unwrap();
            colliding.insert(name, value).unwrap();
        }
        for names in [&["d", "b", "e", "a"][..], &["x"], &[]] {
            let expected: Vec<_> = names
                .iter()
                .enumerate()
                .filter_map(|(value, name)| plain.get(name).map(|stored| (*name, value, stored)))
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
            assert_eq!(found(&plain, names), expected, "{names:?}");
            // Every name shares one hash: found by content, in either map.
            assert_eq!(found(&colliding, names), expected, "{names:?}, colliding");
        }
        assert_eq!(found(&plain, &["c", "a"]), [("a", 1, 0), ("c", 0, 2)]);
    }

    #[test]
    fn names_sharing_a_hash_are_kept_apart() {
        let mut table = Colliding::default();
        assert_eq!(table.insert("a", 0), Ok(()));
        assert_eq!(table.get("b"), None);
        assert_eq!(table.insert("b", 1), Ok(()));
        assert_eq!(table.insert("c", 2), Ok(()));
        assert_eq!(
            (table.get("a"), table.get("b"), table.get("c")),
            (Some(0), Some(1), Some(2))
        );
        assert_eq!(*table.insert("b", 5).unwrap_err(), 1);
        assert_eq!(*table.insert("a", 5).unwrap_err(), 0);
        assert_eq!(table.len(), 3);
        assert_eq!(table.by_hash.len(), 1, "one hash");
    }
}
