//! One export per kernel: a raw code object's kernels become exports by
//! name, resolved to their descriptors by `.symbol`, so two kernels sharing
//! either would make an export name (or its descriptor) ambiguous.
//! IREE's metadata walk accepts such objects and the lookup by symbol picks
//! one; every path here that turns kernels into exports refuses them.
//!
//! Nearly every kernel's symbol is its name with `.kd` appended (what
//! LLVM emits), so such a symbol gets no table of its own: the name's entry
//! says it has one, and the few other symbols are kept apart, those ending
//! `.kd` under the part before it. Two kernels then share a symbol exactly
//! when they share a name, an implied symbol is another kernel's explicit
//! one, or two explicit ones are equal, and each of those is one lookup by
//! a hash already taken. At 10,000 kernels that halves the tables' memory
//! (`docs/PERFORMANCE.md`).

use super::model::KernelMetadata;
use super::name_table::NameTable;
use crate::escape::echo;
use crate::{Result, Status, status};

/// The suffix LLVM gives a kernel's descriptor symbol.
const DESCRIPTOR_SUFFIX: &str = ".kd";

/// The export names and symbols of the kernels seen so far (by hash: a new
/// kernel's names are compared with no earlier kernel's unless their hashes
/// match, so the earlier names' pages are not read again).
#[derive(Debug)]
pub struct KernelNames<'a> {
    tables: Tables<'a>,
    /// Kernels recorded, `joined`'s included.
    count: usize,
    /// The last part joined on, checked against these names but kept in
    /// its own tables until another kernel comes: a join that ends the
    /// array (the usual case) then never builds one table for all of it,
    /// so each thread's table need only hold its own part.
    joined: Option<Joined<'a>>,
}

/// A part's tables, and the index its first kernel takes.
#[derive(Debug)]
struct Joined<'a> {
    tables: Tables<'a>,
    first: usize,
}

/// The names and symbols of some kernels, all hashed alike (one hasher,
/// forked), so that one table's hashes look names up in another.
#[derive(Debug)]
struct Tables<'a> {
    /// Export names; each maps to its kernel's index shifted left by one,
    /// the low bit set when the kernel's symbol is the name and `.kd`
    /// ([`implied`]).
    names: NameTable<'a>,
    /// Symbols ending `.kd` that are not their kernel's name and `.kd`,
    /// keyed by the part before `.kd` (so an implied symbol is looked up
    /// by its name), mapped to the kernel's index.
    descriptors: NameTable<'a>,
    /// Symbols not ending `.kd`, mapped to the kernel's index.
    others: NameTable<'a>,
}

/// Whether `symbol` is `name` and `.kd`.
fn implied(name: &str, symbol: &str) -> bool {
    symbol.len() == name.len() + DESCRIPTOR_SUFFIX.len()
        && symbol.starts_with(name)
        && symbol.ends_with(DESCRIPTOR_SUFFIX)
}

/// A name's entry in [`Tables::names`].
fn name_entry(index: usize, implied: bool) -> usize {
    index << 1 | usize::from(implied)
}

/// Which key two kernels share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    /// The export name (reported before a symbol of the same kernel).
    Name,
    Symbol,
}

/// A key that kernel `index` repeats from kernel `earlier`. A descriptor
/// symbol is held as its name part (`kd`), so the message appends `.kd`.
#[derive(Clone, Copy, Debug)]
struct Repeat<'a> {
    index: usize,
    key: Key,
    earlier: usize,
    text: &'a str,
    kd: bool,
}

impl Repeat<'_> {
    fn into_status(self) -> Status {
        let what = match self.key {
            Key::Name => "export name",
            Key::Symbol => "symbol",
        };
        let suffix = if self.kd { DESCRIPTOR_SUFFIX } else { "" };
        repeated(what, self.earlier, self.index, self.text, suffix)
    }
}

impl<'a> Tables<'a> {
    /// Tables hashing as `names` does, which they start from.
    fn new(names: NameTable<'a>) -> Tables<'a> {
        Tables {
            descriptors: names.fork(0),
            others: names.fork(0),
            names,
        }
    }

    /// Empty tables hashing as these, with room for `kernels` names (the
    /// symbol tables grow only for symbols that are not implied).
    fn fork(&self, kernels: usize) -> Tables<'a> {
        Tables::new(self.names.fork(kernels))
    }

    /// Records kernel `index`, or gives the key it repeats (its name
    /// before its symbol).
    fn insert(
        &mut self,
        index: usize,
        name: &'a str,
        symbol: &'a str,
    ) -> std::result::Result<(), Repeat<'a>> {
        let repeat = |key, earlier, text| Repeat {
            index,
            key,
            earlier,
            text,
            kd: false,
        };
        let implied = implied(name, symbol);
        if let Err(entry) = self.names.insert(name, name_entry(index, implied)) {
            return Err(repeat(Key::Name, *entry >> 1, name));
        }
        if implied {
            // Unless an earlier kernel gave this symbol explicitly, it is
            // as unique as the name. (No hash at all while there are none.)
            if self.descriptors.len() != 0
                && let Some(earlier) = self.descriptors.get(name)
            {
                return Err(repeat(Key::Symbol, earlier, symbol));
            }
        } else if let Some(part) = symbol.strip_suffix(DESCRIPTOR_SUFFIX) {
            // `part` is not this kernel's name (the symbol is not implied).
            if let Some(entry) = self.names.get(part)
                && entry & 1 == 1
            {
                return Err(repeat(Key::Symbol, entry >> 1, symbol));
            }
            if let Err(earlier) = self.descriptors.insert(part, index) {
                return Err(repeat(Key::Symbol, *earlier, symbol));
            }
        } else if let Err(earlier) = self.others.insert(symbol, index) {
            return Err(repeat(Key::Symbol, *earlier, symbol));
        }
        Ok(())
    }

    /// The first key `tail` (a fork of these, its kernels numbered from
    /// `first`) repeats from these tables: the lowest kernel index, a name
    /// before a symbol. Only the tail's tables and the (usually empty)
    /// explicit symbols are walked; nothing is hashed again.
    fn first_repeat(&self, tail: &Tables<'a>, first: usize) -> Option<Repeat<'a>> {
        let mut found: Option<Repeat<'a>> = None;
        let mut consider = |repeat: Repeat<'a>| {
            if found.is_none_or(|f| (repeat.index, repeat.key) < (f.index, f.key)) {
                found = Some(repeat);
            }
        };
        let symbol = |index, earlier, text, kd| Repeat {
            index,
            key: Key::Symbol,
            earlier,
            text,
            kd,
        };
        self.names.repeats(&tail.names, |name, entry, earlier| {
            consider(Repeat {
                index: first + (entry >> 1),
                key: Key::Name,
                earlier: earlier >> 1,
                text: name,
                kd: false,
            })
        });
        // A tail kernel's implied symbol given explicitly here.
        tail.names
            .repeats(&self.descriptors, |part, earlier, entry| {
                if entry & 1 == 1 {
                    consider(symbol(first + (entry >> 1), earlier, part, true));
                }
            });
        // A tail kernel's explicit symbol implied here.
        self.names.repeats(&tail.descriptors, |part, index, entry| {
            if entry & 1 == 1 {
                consider(symbol(first + index, entry >> 1, part, true));
            }
        });
        self.descriptors
            .repeats(&tail.descriptors, |part, index, earlier| {
                consider(symbol(first + index, earlier, part, true))
            });
        self.others.repeats(&tail.others, |text, index, earlier| {
            consider(symbol(first + index, earlier, text, false))
        });
        found
    }

    /// Takes in `tail`'s entries (checked by [`Tables::first_repeat`]: no
    /// key repeats), its kernels numbered from `first`.
    fn absorb(&mut self, tail: Tables<'a>, first: usize) {
        let none = |_: &str, _: usize, _: &mut usize| {};
        self.names
            .absorb(tail.names, |entry| entry + (first << 1), none);
        self.descriptors
            .absorb(tail.descriptors, |index| index + first, none);
        self.others.absorb(tail.others, |index| index + first, none);
    }
}

impl Default for KernelNames<'_> {
    fn default() -> Self {
        KernelNames {
            tables: Tables::new(NameTable::default()),
            count: 0,
            joined: None,
        }
    }
}

impl<'a> KernelNames<'a> {
    /// Makes room for `additional` more kernels, so that recording them
    /// does not rehash (callers cap a count a file claims by what the file
    /// could hold).
    pub fn reserve(&mut self, additional: usize) {
        self.settle();
        self.tables.names.reserve(additional);
    }

    /// An empty record for the kernels after this one's (with this one's
    /// hashing), room for `kernels` of them; [`KernelNames::join`] puts
    /// them in place.
    pub fn fork(&self, kernels: usize) -> KernelNames<'a> {
        KernelNames {
            tables: self.tables.fork(kernels),
            count: 0,
            joined: None,
        }
    }

    /// Records `tail`'s kernels (a [`KernelNames::fork`] of this record)
    /// after this one's, with the error [`KernelNames::insert`] would have
    /// given for the first of them to repeat an earlier kernel's name or
    /// symbol. The names are not hashed again, and the tail's tables are
    /// only looked up in, not merged, until another kernel is recorded.
    pub fn join(&mut self, mut tail: KernelNames<'a>) -> Result<()> {
        self.settle();
        tail.settle();
        let first = self.count;
        if let Some(repeat) = self.tables.first_repeat(&tail.tables, first) {
            return Err(repeat.into_status());
        }
        self.count += tail.count;
        self.joined = Some(Joined {
            tables: tail.tables,
            first,
        });
        Ok(())
    }

    /// Merges the joined part's tables into these.
    fn settle(&mut self) {
        if let Some(Joined { tables, first }) = self.joined.take() {
            self.tables.absorb(tables, first);
        }
    }

    /// Records the next kernel (in metadata order); `INVALID_ARGUMENT` when
    /// its export name or `.symbol` is an earlier kernel's.
    pub fn insert(&mut self, kernel: &KernelMetadata<'a>) -> Result<()> {
        self.settle();
        let index = self.count;
        self.count += 1;
        self.tables
            .insert(index, kernel.reflection_name, kernel.symbol)
            .map_err(Repeat::into_status)
    }
}

/// Kernel `index` repeats kernel `first`'s `what` (`key` and `suffix`).
fn repeated(what: &str, first: usize, index: usize, key: &str, suffix: &str) -> Status {
    status!(
        InvalidArgument,
        "AMDGPU metadata kernels {first} and {index} share the {what} `{}{suffix}`; each kernel becomes one export and export names must be unique",
        echo(key)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_symbol_that_is_not_its_name_and_kd_is_tabled() {
        let mut tables = Tables::new(NameTable::default());
        let kernels = [
            ("a", "a.kd"),    // implied
            ("b", "b.kd"),    // implied
            ("c", "d.kd"),    // explicit, kept as `d`
            ("e", "e"),       // no `.kd`
            ("ab", "a.kdb"),  // as long as `ab.kd`, not it
            ("f", "f.kd.kd"), // ends `.kd`, not `f.kd`
        ];
        for (index, (name, symbol)) in kernels.into_iter().enumerate() {
            tables.insert(index, name, symbol).unwrap();
        }
        assert_eq!(tables.names.len(), 6);
        assert_eq!(
            (0..6)
                .map(|index| tables.names.get(kernels[index].0).map(|entry| entry & 1))
                .collect::<Vec<_>>(),
            [Some(1), Some(1), Some(0), Some(0), Some(0), Some(0)]
        );
        assert_eq!(tables.names.get("b"), Some(name_entry(1, true)));
        assert_eq!(tables.names.get("c"), Some(name_entry(2, false)));
        assert_eq!(tables.descriptors.len(), 2);
        assert_eq!(tables.descriptors.get("d"), Some(2));
        assert_eq!(tables.descriptors.get("f.kd"), Some(5));
        assert_eq!(tables.others.len(), 2);
        assert_eq!(tables.others.get("a.kdb"), Some(4));
    }
}
