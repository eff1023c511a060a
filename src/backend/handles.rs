//! Newtype handles for the vendor objects the backends hand out.
//!
//! Each is the `uint64_t handle` of the C struct (`hsa_agent_t`,
//! `hsa_isa_t`, ...) or, for HIP, the `int` ordinal-like `hipDevice_t`. They
//! are plain values: copying one does not retain anything, exactly as in C.

macro_rules! hsa_handle {
    ($($(#[$doc:meta])* $name:ident;)*) => {
        $(
            $(#[$doc])*
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub struct $name(pub u64);

            impl $name {
                /// The raw 64-bit handle, as the C API carries it.
                pub const fn handle(self) -> u64 {
                    self.0
                }
            }
        )*
    };
}

hsa_handle! {
    /// An HSA agent (`hsa_agent_t`): a CPU or GPU that can run work.
    Agent;
    /// An instruction set architecture of an agent (`hsa_isa_t`).
    Isa;
    /// A memory pool of an agent (`hsa_amd_memory_pool_t`).
    MemoryPool;
    /// A code-object reader over bytes in memory (`hsa_code_object_reader_t`).
    CodeObjectReader;
    /// An executable: code objects loaded on agents (`hsa_executable_t`).
    Executable;
    /// A symbol of a frozen executable (`hsa_executable_symbol_t`).
    ExecutableSymbol;
    /// One code object loaded on one agent (`hsa_loaded_code_object_t`, AMD loader extension).
    LoadedCodeObject;
}

/// A device-visible address (the `void*` HSA memory calls take and return).
///
/// In the simulator it is a simulated address derived from the machine
/// description, never a host pointer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DevicePtr(pub u64);

impl DevicePtr {
    /// The address as a 64-bit integer.
    pub const fn addr(self) -> u64 {
        self.0
    }

    /// The address `offset` bytes further on, or `None` on overflow.
    pub fn checked_add(self, offset: u64) -> Option<DevicePtr> {
        self.0.checked_add(offset).map(DevicePtr)
    }
}

impl std::fmt::LowerHex for DevicePtr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::LowerHex::fmt(&self.0, f)
    }
}

/// A HIP device (`hipDevice_t`, an `int`).
///
/// HIP returns it from `hipDeviceGet(ordinal)`; IREE's device id is this
/// value plus one (0 is "default").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HipDevice(pub i32);

impl HipDevice {
    /// The raw `hipDevice_t`.
    pub const fn raw(self) -> i32 {
        self.0
    }
}
