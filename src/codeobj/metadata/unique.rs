//! One export per kernel: a raw code object's kernels become exports by
//! name, resolved to their descriptors by `.symbol`, so two kernels sharing
//! either would make an export name (or its descriptor) ambiguous.
//! IREE's metadata walk accepts such objects and the lookup by symbol picks
//! one; every path here that turns kernels into exports refuses them.

use std::collections::HashMap;

use super::model::KernelMetadata;
use super::prehashed::Prehashed;
use crate::escape::echo;
use crate::{Result, Status, status};

/// The export names and symbols of the kernels seen so far, each with the
/// index of the kernel that has it.
#[derive(Debug, Default)]
pub struct KernelNames<'a> {
    names: HashMap<Prehashed<'a>, usize>,
    symbols: HashMap<Prehashed<'a>, usize>,
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
    /// its export name or `.symbol` is an earlier kernel's (the name is
    /// checked first).
    pub fn insert(&mut self, kernel: &KernelMetadata<'a>) -> Result<()> {
        let index = self.names.len();
        let name = Prehashed::new(kernel.reflection_name);
        if let Some(&earlier) = self.names.get(&name) {
            return Err(repeated(
                "export name",
                earlier,
                index,
                kernel.reflection_name,
            ));
        }
        let symbol = Prehashed::new(kernel.symbol);
        if let Some(&earlier) = self.symbols.get(&symbol) {
            return Err(repeated("symbol", earlier, index, kernel.symbol));
        }
        self.names.insert(name, index);
        self.symbols.insert(symbol, index);
        Ok(())
    }
}

/// Kernel `index` repeats kernel `first`'s `what`, `key`.
fn repeated(what: &str, first: usize, index: usize, key: &str) -> Status {
    status!(
        InvalidArgument,
        "AMDGPU metadata kernels {first} and {index} share the {what} `{}`; each kernel becomes one export and export names must be unique",
        echo(key)
    )
}
