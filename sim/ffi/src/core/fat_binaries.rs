//! The fat binaries a program registered (`__hipRegisterFatBinary`), the
//! kernels and variables registered with them by host address, and the
//! module each binary has on each device once one was loaded there.
//! Pure bookkeeping: loading, lookups and the exports are
//! `hip::registration`'s.

use std::collections::BTreeMap;

/// Most fat binaries one process registers (a program registers one per
/// translation unit with device code; ROCm libraries one each).
pub(crate) const MAX_FAT_BINARIES: usize = 4096;
/// Most kernels and variables registered in all.
pub(crate) const MAX_REGISTERED: usize = 1 << 20;
/// First handle value handed out for a fat binary (never null, and no
/// address a program could mistake for one of its own).
const FIRST_HANDLE: u64 = 0xfa7b_0000_0000;
/// Handles step by this, so that none is mistaken for another's interior.
const HANDLE_STEP: u64 = 16;

/// One registered fat binary.
#[derive(Debug)]
pub(crate) struct FatBinary {
    /// Where the offload bundle lies in the program (static data, live as
    /// long as the binary is registered).
    pub(crate) bundle: usize,
    /// Its module on each device it was used on.
    pub(crate) modules: BTreeMap<i32, u64>,
    /// The managed variables' memory (host memory HIP allocated), freed
    /// with the binary.
    pub(crate) managed: Vec<usize>,
    /// The host addresses its kernels and variables were registered by,
    /// so that unregistering it touches only its own entries: a ROCm
    /// library registers a hundred binaries and ten thousand kernels, and
    /// scanning every kernel for each binary at exit cost more than the
    /// rest of the library's start and end together.
    registered: Vec<Registered>,
}

/// One entry a binary registered, by its host address.
#[derive(Clone, Copy, Debug)]
enum Registered {
    Kernel(usize),
    Variable(usize),
}

/// What kind of variable a host address names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VariableKind {
    /// `__device__`.
    Device,
    /// `__constant__`.
    Constant,
    /// `__managed__`: the device-side variable holds the address of this
    /// memory, which the host pointer also holds.
    Managed(usize),
}

/// One registered variable.
#[derive(Clone, Debug)]
pub(crate) struct Variable {
    /// Its fat binary's handle.
    pub(crate) binary: u64,
    /// Its name in the code object.
    pub(crate) name: String,
    /// Its size as registered.
    pub(crate) size: usize,
    pub(crate) kind: VariableKind,
}

/// One registered kernel.
#[derive(Clone, Debug)]
pub(crate) struct Kernel {
    /// Its fat binary's handle.
    pub(crate) binary: u64,
    /// Its name in the code object (the mangled device function).
    pub(crate) name: String,
    /// Its function handle on each device it was used on.
    pub(crate) functions: BTreeMap<i32, u64>,
}

/// The registered fat binaries, kernels and variables.
#[derive(Debug, Default)]
pub(crate) struct Registry {
    handed_out: u64,
    pub(crate) binaries: BTreeMap<u64, FatBinary>,
    /// Kernels by host stub address.
    pub(crate) kernels: BTreeMap<usize, Kernel>,
    /// Variables by host shadow address.
    pub(crate) variables: BTreeMap<usize, Variable>,
}

impl Registry {
    /// Registers the bundle at `bundle`: its handle, or `None` past
    /// [`MAX_FAT_BINARIES`].
    pub(crate) fn register(&mut self, bundle: usize) -> Option<u64> {
        if self.binaries.len() >= MAX_FAT_BINARIES {
            return None;
        }
        let handle = FIRST_HANDLE + self.handed_out * HANDLE_STEP;
        self.handed_out += 1;
        self.binaries.insert(
            handle,
            FatBinary {
                bundle,
                modules: BTreeMap::new(),
                managed: Vec::new(),
                registered: Vec::new(),
            },
        );
        Some(handle)
    }

    /// Whether more kernels or variables may be registered.
    pub(crate) fn has_room(&self) -> bool {
        self.kernels.len() + self.variables.len() < MAX_REGISTERED
    }

    /// Registers the kernel whose host stub is at `stub` (replacing what
    /// another registration of that address left).
    pub(crate) fn add_kernel(&mut self, stub: usize, kernel: Kernel) {
        if let Some(fat) = self.binaries.get_mut(&kernel.binary) {
            fat.registered.push(Registered::Kernel(stub));
        }
        self.kernels.insert(stub, kernel);
    }

    /// Registers the variable whose host shadow is at `host` (replacing
    /// what another registration of that address left).
    pub(crate) fn add_variable(&mut self, host: usize, variable: Variable) {
        if let Some(fat) = self.binaries.get_mut(&variable.binary) {
            fat.registered.push(Registered::Variable(host));
        }
        self.variables.insert(host, variable);
    }

    /// Removes a binary with its kernels and variables (those another
    /// binary registered since at the same address stay): what it held
    /// (its modules and managed memory) for the caller to release.
    pub(crate) fn unregister(&mut self, handle: u64) -> Option<FatBinary> {
        let binary = self.binaries.remove(&handle)?;
        for entry in &binary.registered {
            match *entry {
                Registered::Kernel(stub) => {
                    if self.kernels.get(&stub).is_some_and(|k| k.binary == handle) {
                        self.kernels.remove(&stub);
                    }
                }
                Registered::Variable(host) => {
                    if self
                        .variables
                        .get(&host)
                        .is_some_and(|v| v.binary == handle)
                    {
                        self.variables.remove(&host);
                    }
                }
            }
        }
        Some(binary)
    }

    /// Live registered fat binaries (the report's `hip_fat_binaries`).
    pub(crate) fn live(&self) -> usize {
        self.binaries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(binary: u64) -> Kernel {
        Kernel {
            binary,
            name: format!("k{binary}"),
            functions: BTreeMap::new(),
        }
    }

    #[test]
    fn an_address_registered_again_by_another_binary_outlives_the_first() {
        let mut r = Registry::default();
        let (a, b) = (r.register(0x1000).unwrap(), r.register(0x2000).unwrap());
        r.add_kernel(7, kernel(a));
        r.add_kernel(7, kernel(b));
        r.add_kernel(8, kernel(a));
        assert!(r.unregister(a).is_some());
        assert_eq!(r.kernels.keys().copied().collect::<Vec<_>>(), [7]);
        assert_eq!(r.kernels[&7].binary, b);
        assert!(r.unregister(b).is_some());
        assert!(r.kernels.is_empty());
    }

    #[test]
    fn unregistering_drops_the_binarys_kernels_and_variables_only() {
        let mut r = Registry::default();
        let (a, b) = (r.register(0x1000).unwrap(), r.register(0x2000).unwrap());
        assert_ne!(a, b);
        assert_ne!(a, 0);
        for (stub, binary) in [(1, a), (2, b)] {
            r.add_kernel(stub, kernel(binary));
        }
        r.add_variable(
            3,
            Variable {
                binary: a,
                name: "v".into(),
                size: 4,
                kind: VariableKind::Device,
            },
        );
        assert_eq!(r.unregister(a).map(|f| f.bundle), Some(0x1000));
        assert_eq!(r.kernels.keys().copied().collect::<Vec<_>>(), [2]);
        assert!(r.variables.is_empty());
        assert_eq!(r.live(), 1);
        assert!(
            r.unregister(a).is_none(),
            "a second unregister finds nothing"
        );
    }
}
