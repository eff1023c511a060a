//! One export per kernel: a raw code object's kernels become exports by
//! name, resolved to their descriptors by `.symbol`, so two kernels sharing
//! either would make an export name (or its descriptor) ambiguous.
//! IREE's metadata walk accepts such objects and the lookup by symbol picks
//! one; every path here that turns kernels into exports refuses them.

use super::model::KernelMetadata;
use super::name_table::NameTable;
use crate::escape::echo;
use crate::{Result, status};

/// The export names and symbols of the kernels seen so far (by hash: a new
/// kernel's names are compared with no earlier kernel's unless their hashes
/// match, so the earlier names' pages are not read again).
#[derive(Debug, Default)]
pub struct KernelNames<'a> {
    names: NameTable<'a>,
    symbols: NameTable<'a>,
    count: usize,
}

impl<'a> KernelNames<'a> {
    /// Makes room for `additional` more kernels, so that recording them
    /// does not rehash (callers cap a count a file claims by what the file
    /// could hold).
    pub fn reserve(&mut self, additional: usize) {
        self.names.reserve(additional);
        self.symbols.reserve(additional);
    }

    /// Records the next kernel (in metadata order); `INVALID_ARGUMENT` when
    /// its export name or `.symbol` is an earlier kernel's.
    pub fn insert(&mut self, kernel: &KernelMetadata<'a>) -> Result<()> {
        let index = self.count;
        self.count += 1;
        for (what, key, seen) in [
            ("export name", kernel.reflection_name, &mut self.names),
            ("symbol", kernel.symbol, &mut self.symbols),
        ] {
            // One hash per key: the insertion is the lookup.
            if let Err(first) = seen.insert(key, index) {
                return Err(status!(
                    InvalidArgument,
                    "AMDGPU metadata kernels {} and {index} share the {what} `{}`; each kernel becomes one export and export names must be unique",
                    first,
                    echo(key)
                ));
            }
        }
        Ok(())
    }
}
