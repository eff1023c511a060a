//! Why an instruction could not complete: the interpreter's run-time
//! errors, each a kind a caller can tell apart, printed as the text the
//! simulator writes on stderr.

use std::fmt;

pub use crate::memory::Access;

/// An instruction that could not run, or a wave that could not go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecError {
    /// A vector memory access outside what the caller's memory holds.
    Memory {
        /// Read or write.
        access: Access,
        /// Bytes accessed.
        bytes: u64,
        /// The lane's address.
        address: u64,
        /// The lane.
        lane: usize,
    },
    /// A scalar load outside what the caller's memory holds.
    ScalarLoad {
        /// Bytes loaded.
        bytes: usize,
        /// Where (dword-aligned).
        address: u64,
    },
    /// A scratch access outside the lane's private segment.
    Scratch {
        /// Read or write.
        access: Access,
        /// Bytes accessed.
        bytes: usize,
        /// The offset in the lane's private memory.
        offset: u64,
        /// The lane whose private memory it addresses.
        lane: usize,
        /// The kernel's private segment bytes per work-item.
        per_lane: usize,
    },
    /// GFX11's `v_illegal` executed: the illegal-instruction trap.
    IllegalInstruction,
    /// `s_setpc_b64`/`s_swappc_b64` to an address outside the kernel's
    /// code: a call into other code, which the interpreter cannot follow.
    /// Known only at run time; reported as a launch the interpreter cannot
    /// run ([`ExecError::is_unsupported`]).
    OutsideCode {
        /// The instruction's mnemonic.
        mnemonic: &'static str,
        /// The absolute target.
        target: u64,
        /// The kernel's code bytes.
        code_bytes: u64,
        /// The kernel's entry address.
        entry: u64,
        /// Where and why decoding the code after the kernel stopped.
        stopped: Option<String>,
    },
    /// `s_setpc_b64`/`s_swappc_b64` into the kernel's code where no
    /// instruction starts.
    IndirectMisaligned {
        /// The instruction's mnemonic.
        mnemonic: &'static str,
        /// The absolute target.
        target: u64,
        /// Its offset from the entry.
        offset: u64,
    },
    /// A branch to where no instruction starts (an offset from the entry).
    BranchMisaligned {
        /// The target's offset from the entry.
        target: i64,
    },
    /// A write of MODE's FP_ROUND other than to nearest even, which the
    /// interpreter does not model.
    RoundingMode {
        /// The instruction's mnemonic.
        mnemonic: &'static str,
        /// The FP_ROUND field written.
        round: u32,
    },
    /// A matrix instruction in a wave of other than 64 lanes (a gfx9
    /// descriptor asking for wave32).
    WaveSize {
        /// The instruction's mnemonic.
        mnemonic: &'static str,
        /// The wave's lanes.
        lanes: usize,
    },
    /// An M0-relative move (`s_movrel*`, `v_movrel*`) whose register is
    /// past the file it indexes, or whose base operand is not a register.
    RelativeIndex {
        /// The instruction's mnemonic.
        mnemonic: &'static str,
        /// The register indexed (base + M0's offset); `None` when the base
        /// operand is not a register.
        index: Option<u64>,
        /// The registers of the file it may reach.
        registers: u64,
    },
    /// The wave ran past the kernel's last instruction.
    PastEnd,
    /// A wave executed its limit of instructions without ending.
    Hung {
        /// The limit.
        limit: u64,
    },
}

impl ExecError {
    /// Whether the error is something the interpreter does not do (rather
    /// than a fault the kernel would also take on hardware): the simulator
    /// answers it as a launch it cannot run, `hipErrorLaunchFailure` /
    /// `HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION`, as it answers a kernel
    /// refused when decoded.
    pub fn is_unsupported(&self) -> bool {
        matches!(
            self,
            ExecError::OutsideCode { .. }
                | ExecError::RoundingMode { .. }
                | ExecError::WaveSize { .. }
        )
    }
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ExecError::Memory {
                access,
                bytes,
                address,
                lane,
            } => write!(
                f,
                "memory access fault: {access} of {bytes} bytes at {address:#x} (lane {lane})"
            ),
            ExecError::ScalarLoad { bytes, address } => write!(
                f,
                "memory access fault: scalar load of {bytes} bytes at {address:#x}"
            ),
            ExecError::Scratch {
                access,
                bytes,
                offset,
                lane,
                per_lane,
            } => write!(
                f,
                "scratch access fault: {access} of {bytes} bytes at private offset {offset:#x} \
                 (lane {lane}; the kernel's private segment is {per_lane} bytes)"
            ),
            ExecError::IllegalInstruction => f.write_str("v_illegal: the illegal-instruction trap"),
            ExecError::OutsideCode {
                mnemonic,
                target,
                code_bytes,
                entry,
                ref stopped,
            } => {
                write!(
                    f,
                    "{mnemonic} to {target:#x}, outside the code decoded ({code_bytes} bytes at \
                     {entry:#x}: the kernel and the code after it): calls into other code are \
                     not supported by the interpreter"
                )?;
                match stopped {
                    Some(why) => write!(f, " (decoding stopped {why})"),
                    None => Ok(()),
                }
            }
            ExecError::IndirectMisaligned {
                mnemonic,
                target,
                offset,
            } => write!(
                f,
                "{mnemonic} to {target:#x} (entry{offset:+#x}), where no instruction starts"
            ),
            ExecError::BranchMisaligned { target } => {
                write!(
                    f,
                    "branch to entry{target:+#x}, where no instruction starts"
                )
            }
            ExecError::RoundingMode { mnemonic, round } => write!(
                f,
                "{mnemonic}: rounding mode {round:#x} (MODE.FP_ROUND): rounding other than to \
                 nearest even is not supported by the interpreter"
            ),
            ExecError::WaveSize { mnemonic, lanes } => write!(
                f,
                "{mnemonic} in a wave of {lanes} lanes is not supported by the interpreter"
            ),
            ExecError::RelativeIndex {
                mnemonic,
                index: Some(index),
                registers,
            } => write!(
                f,
                "{mnemonic}: M0-relative register {index} is outside the {registers} registers \
                 it may index"
            ),
            ExecError::RelativeIndex {
                mnemonic,
                index: None,
                ..
            } => write!(
                f,
                "{mnemonic}: the M0-relative base operand is not a register"
            ),
            ExecError::PastEnd => f.write_str("execution ran past the end of the kernel's code"),
            ExecError::Hung { limit } => {
                write!(f, "a wave executed {limit} instructions without ending")
            }
        }
    }
}

impl std::error::Error for ExecError {}
