//! One export per kernel: a raw code object's kernels become exports by
//! name, resolved to their descriptors by `.symbol`, so two kernels sharing
//! either would make an export name (or its descriptor) ambiguous.
//! IREE's metadata walk accepts such objects and the lookup by symbol picks
//! one; every path here that turns kernels into exports refuses them.

use super::model::KernelMetadata;
use super::name_table::NameTable;
use crate::escape::echo;
use crate::{Result, Status, status};

/// The export names and symbols of the kernels seen so far (by hash: a new
/// kernel's names are compared with no earlier kernel's unless their hashes
/// match, so the earlier names' pages are not read again).
#[derive(Debug, Default)]
pub struct KernelNames<'a> {
    names: NameTable<'a>,
    symbols: NameTable<'a>,
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
    names: NameTable<'a>,
    symbols: NameTable<'a>,
    first: usize,
}

impl<'a> KernelNames<'a> {
    /// Makes room for `additional` more kernels, so that recording them
    /// does not rehash (callers cap a count a file claims by what the file
    /// could hold).
    pub fn reserve(&mut self, additional: usize) {
        self.settle();
        self.names.reserve(additional);
        self.symbols.reserve(additional);
    }

    /// An empty record for the kernels after this one's (with this one's
    /// hashing), room for `kernels` of them; [`KernelNames::join`] puts
    /// them in place.
    pub fn fork(&self, kernels: usize) -> KernelNames<'a> {
        KernelNames {
            names: self.names.fork(kernels),
            symbols: self.symbols.fork(kernels),
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
        // (kernel, which key: 0 the name, 1 the symbol, the earlier kernel, the key)
        let mut first_repeat: Option<(usize, u8, usize, &'a str)> = None;
        for (which, table, seen) in [
            (0, &tail.names, &self.names),
            (1, &tail.symbols, &self.symbols),
        ] {
            seen.repeats(table, |key, index, earlier| {
                let repeat = (first + index, which, earlier, key);
                if first_repeat.is_none_or(|(i, w, ..)| (first + index, which) < (i, w)) {
                    first_repeat = Some(repeat);
                }
            });
        }
        if let Some((index, which, earlier, key)) = first_repeat {
            return Err(repeated(
                if which == 0 { "export name" } else { "symbol" },
                earlier,
                index,
                key,
            ));
        }
        self.count += tail.count;
        self.joined = Some(Joined {
            names: tail.names,
            symbols: tail.symbols,
            first,
        });
        Ok(())
    }

    /// Merges the joined part's tables into these (checked when it was
    /// joined: no name repeats).
    fn settle(&mut self) {
        let Some(Joined {
            names,
            symbols,
            first,
        }) = self.joined.take()
        else {
            return;
        };
        for (table, into) in [(names, &mut self.names), (symbols, &mut self.symbols)] {
            into.absorb(table, |index| index + first, |_, _, _| {});
        }
    }

    /// Records the next kernel (in metadata order); `INVALID_ARGUMENT` when
    /// its export name or `.symbol` is an earlier kernel's.
    pub fn insert(&mut self, kernel: &KernelMetadata<'a>) -> Result<()> {
        self.settle();
        let index = self.count;
        self.count += 1;
        for (what, key, seen) in [
            ("export name", kernel.reflection_name, &mut self.names),
            ("symbol", kernel.symbol, &mut self.symbols),
        ] {
            // One hash per key: the insertion is the lookup.
            if let Err(first) = seen.insert(key, index) {
                return Err(repeated(what, *first, index, key));
            }
        }
        Ok(())
    }
}

/// Kernel `index` repeats kernel `first`'s `what` (`key`).
fn repeated(what: &str, first: usize, index: usize, key: &str) -> Status {
    status!(
        InvalidArgument,
        "AMDGPU metadata kernels {first} and {index} share the {what} `{}`; each kernel becomes one export and export names must be unique",
        echo(key)
    )
}
