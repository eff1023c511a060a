//! Copies of a wrapped module's kernel symbols, taken as its metadata is
//! decoded, for resolving its exports afterwards without reading the note
//! again.
//!
//! An `AMD1` executable's exports name their kernels by symbol, so `inspect`
//! looks each one up after the decode. By then `ReleaseBehind` has let the
//! note's pages go, and comparing with the symbols there faults the whole
//! note back in on one thread. IREE's compiler (and `pack`) write the
//! exports in metadata order, so export `i`'s kernel is almost always
//! kernel `i`: compared with the copy of kernel `i`'s symbol, it is found
//! with no lookup and no read of the note.

/// Bytes reserved per symbol: LLVM's symbols for IREE's dispatches run to
/// a few tens of bytes (`main$async_dispatch_0_elementwise_4_f32.kd`).
pub(crate) const SYMBOL_ROOM_BYTES: usize = 64;

/// Every kernel's `.symbol`, in metadata order, in one buffer.
#[derive(Debug, Default)]
pub(crate) struct SymbolCopies {
    bytes: String,
    /// Where each symbol ends in `bytes`.
    ends: Vec<usize>,
}

impl SymbolCopies {
    /// Empty, with room for `symbols` symbols' ends.
    pub(crate) fn with_capacity(symbols: usize) -> Self {
        let mut copies = SymbolCopies::default();
        copies.reserve(symbols);
        copies
    }

    /// Copies the next kernel's symbol.
    pub(crate) fn push(&mut self, symbol: &str) {
        self.bytes.push_str(symbol);
        self.ends.push(self.bytes.len());
    }

    /// Appends `later`'s symbols after these.
    pub(crate) fn append(&mut self, later: SymbolCopies) {
        let base = self.bytes.len();
        self.bytes.push_str(&later.bytes);
        self.ends.extend(later.ends.iter().map(|end| end + base));
    }

    /// Kernel `index`'s symbol, if there is such a kernel.
    pub(crate) fn get(&self, index: usize) -> Option<&str> {
        let end = *self.ends.get(index)?;
        let start = match index.checked_sub(1) {
            Some(before) => *self.ends.get(before)?,
            None => 0,
        };
        self.bytes.get(start..end)
    }

    /// Makes room for `more` symbols of about [`SYMBOL_ROOM_BYTES`] each
    /// (address space only: a page is taken when a symbol first reaches it,
    /// and the buffer is never copied to grow while symbols are short).
    pub(crate) fn reserve(&mut self, more: usize) {
        self.ends.reserve_exact(more);
        self.bytes.reserve(more.saturating_mul(SYMBOL_ROOM_BYTES));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copies(symbols: &[&str]) -> SymbolCopies {
        let mut copies = SymbolCopies::with_capacity(symbols.len());
        for symbol in symbols {
            copies.push(symbol);
        }
        copies
    }

    fn all(copies: &SymbolCopies) -> Vec<&str> {
        (0..copies.ends.len())
            .map(|i| copies.get(i).unwrap())
            .collect()
    }

    #[test]
    fn symbols_come_back_by_index_empty_ones_included() {
        let copies = copies(&["a.kd", "", "bb.kd", "ccc.kd"]);
        assert_eq!(all(&copies), ["a.kd", "", "bb.kd", "ccc.kd"]);
        assert_eq!(copies.get(4), None);
        assert_eq!(SymbolCopies::default().get(0), None);
    }

    #[test]
    fn appended_symbols_follow_in_order() {
        let mut head = copies(&["k0.kd", "k1.kd"]);
        head.append(copies(&["k2.kd", "k33.kd"]));
        head.append(SymbolCopies::default());
        head.push("k4.kd");
        assert_eq!(all(&head), ["k0.kd", "k1.kd", "k2.kd", "k33.kd", "k4.kd"]);
    }
}
