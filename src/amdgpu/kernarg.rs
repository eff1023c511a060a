//! Kernel arguments: the per-export kernel-args record, the HAL and custom
//! kernarg layouts, the HIP/OpenCL implicit-args suffix, kernarg emplacement
//! and kernarg block counts (IREE's `device/dispatch.h`, `abi/kernel_args.h`).
//!
//! The HAL ABI lays explicit arguments out as `u64 bindings[binding_count]`,
//! then `u32 constants[constant_count]`, then zero padding to 8 bytes. When the
//! code object declares more kernarg bytes than that, the kernel also reads
//! the implicit-args suffix placed right after the explicit bytes.
//!
//! [`KernelArgs`] keeps every value at the width HSA reports it (IREE narrows
//! the 32-bit kernarg size and alignment into 16-bit fields); narrowing to the
//! 40-byte device record is explicit and checked in
//! [`KernelArgs::to_device_record`].

use crate::status::{Result, Status};

/// Bytes of one kernarg block (`iree_hal_amdgpu_kernarg_block_t`).
pub const KERNARG_BLOCK_SIZE: usize = 64;
/// Alignment of a kernarg block; the largest kernarg alignment a kernel may ask for.
pub const KERNARG_BLOCK_ALIGNMENT: u32 = 64;
/// Bytes of the device kernel-args record (`iree_hal_amdgpu_device_kernel_args_t`).
pub const DEVICE_KERNEL_ARGS_SIZE: usize = 40;
/// Bytes of the implicit-args suffix IREE populates
/// (`IREE_AMDGPU_KERNEL_IMPLICIT_ARGS_SIZE` = `offsetof(dynamic_lds_size) + 4`).
pub const IMPLICIT_ARGS_SIZE: usize = 124;
/// Bytes of the complete implicit-args structure (8-byte aligned).
pub const IMPLICIT_ARGS_STRUCT_SIZE: usize = 208;
/// `setup` for a 3-dimensional dispatch (`3 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS`).
pub const DISPATCH_SETUP_3D: u16 = 3;

/// Byte offsets of the implicit-args fields (`iree_amdgpu_kernel_implicit_args_t`).
pub mod implicit {
    /// `u32 block_count[3]`.
    pub const BLOCK_COUNT: usize = 0;
    /// `u16 group_size[3]`.
    pub const GROUP_SIZE: usize = 12;
    /// `u16 remainder[3]`.
    pub const REMAINDER: usize = 18;
    /// `u64 reserved0`.
    pub const RESERVED0: usize = 24;
    /// `u64 reserved1`.
    pub const RESERVED1: usize = 32;
    /// `u64 global_offset[3]`.
    pub const GLOBAL_OFFSET: usize = 40;
    /// `u16 grid_dims`.
    pub const GRID_DIMS: usize = 64;
    /// `void* printf_buffer`.
    pub const PRINTF_BUFFER: usize = 72;
    /// `void* hostcall_buffer`.
    pub const HOSTCALL_BUFFER: usize = 80;
    /// `u64 deprecated_multigrid_sync_arg`.
    pub const MULTIGRID_SYNC_ARG: usize = 88;
    /// `u64 unused_heap_v1`.
    pub const HEAP_V1: usize = 96;
    /// `u64 unused_default_queue`.
    pub const DEFAULT_QUEUE: usize = 104;
    /// `u64 unused_completion_action`.
    pub const COMPLETION_ACTION: usize = 112;
    /// `u32 dynamic_lds_size`.
    pub const DYNAMIC_LDS_SIZE: usize = 120;
    /// `u8 reserved[68]`.
    pub const RESERVED: usize = 124;
    /// `u32 private_base`.
    pub const PRIVATE_BASE: usize = 192;
    /// `u32 shared_base`.
    pub const SHARED_BASE: usize = 196;
    /// `void* queue_ptr`.
    pub const QUEUE_PTR: usize = 200;
}

/// Byte offsets of the device kernel-args record fields.
pub mod record {
    /// `u64 kernel_object`.
    pub const KERNEL_OBJECT: usize = 0;
    /// `u16 setup`.
    pub const SETUP: usize = 8;
    /// `u16 workgroup_size[3]`.
    pub const WORKGROUP_SIZE: usize = 10;
    /// `u32 private_segment_size`.
    pub const PRIVATE_SEGMENT_SIZE: usize = 16;
    /// `u32 group_segment_size`.
    pub const GROUP_SEGMENT_SIZE: usize = 20;
    /// `u16 kernarg_size`.
    pub const KERNARG_SIZE: usize = 24;
    /// `u16 kernarg_alignment`.
    pub const KERNARG_ALIGNMENT: usize = 26;
    /// `u16 constant_count`.
    pub const CONSTANT_COUNT: usize = 28;
    /// `u16 binding_count`.
    pub const BINDING_COUNT: usize = 30;
    /// `u32 reserved`.
    pub const RESERVED: usize = 32;
}

/// What a dispatch of one export needs, resolved once from its HSA symbol.
///
/// `kernel_object` is per device: the host copy of an executable keeps it 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KernelArgs {
    /// The kernel object (AMDHSA kernel descriptor address) on one device.
    pub kernel_object: u64,
    /// AQL packet `setup` (dimension count).
    pub setup: u16,
    /// Workgroup size; each dimension was checked against the device's u16 limits.
    pub workgroup_size: [u16; 3],
    /// Private (scratch) bytes per work-item.
    pub private_segment_size: u32,
    /// Static group (LDS) bytes per workgroup.
    pub group_segment_size: u32,
    /// Kernarg segment bytes the code object declares (full width).
    pub kernarg_size: u32,
    /// Kernarg segment alignment the code object declares (full width).
    pub kernarg_alignment: u32,
    /// HAL ABI 32-bit constants.
    pub constant_count: u16,
    /// HAL ABI bindings.
    pub binding_count: u16,
}

impl KernelArgs {
    /// The 40-byte little-endian device record IREE's device code reads.
    /// Kernarg size and alignment must fit its 16-bit fields (`OUT_OF_RANGE`).
    pub fn to_device_record(&self) -> Result<[u8; DEVICE_KERNEL_ARGS_SIZE]> {
        let kernarg_size = u16::try_from(self.kernarg_size).map_err(|_| {
            crate::status!(
                OutOfRange,
                "kernarg segment size {} exceeds the 16-bit device kernel-args field (max {})",
                self.kernarg_size,
                u16::MAX
            )
        })?;
        let kernarg_alignment = u16::try_from(self.kernarg_alignment).map_err(|_| {
            crate::status!(
                OutOfRange,
                "kernarg segment alignment {} exceeds the 16-bit device kernel-args field",
                self.kernarg_alignment
            )
        })?;
        let mut out = [0u8; DEVICE_KERNEL_ARGS_SIZE];
        let mut w = Writer(&mut out);
        w.u64(record::KERNEL_OBJECT, self.kernel_object);
        w.u16(record::SETUP, self.setup);
        for (i, dim) in self.workgroup_size.iter().enumerate() {
            w.u16(record::WORKGROUP_SIZE + 2 * i, *dim);
        }
        w.u32(record::PRIVATE_SEGMENT_SIZE, self.private_segment_size);
        w.u32(record::GROUP_SEGMENT_SIZE, self.group_segment_size);
        w.u16(record::KERNARG_SIZE, kernarg_size);
        w.u16(record::KERNARG_ALIGNMENT, kernarg_alignment);
        w.u16(record::CONSTANT_COUNT, self.constant_count);
        w.u16(record::BINDING_COUNT, self.binding_count);
        Ok(out)
    }

    /// Decodes a device record (the inverse of [`KernelArgs::to_device_record`]).
    pub fn from_device_record(bytes: &[u8]) -> Result<KernelArgs> {
        let short = || {
            crate::status!(
                OutOfRange,
                "device kernel-args record needs {DEVICE_KERNEL_ARGS_SIZE} bytes, got {}",
                bytes.len()
            )
        };
        let bytes = bytes.get(..DEVICE_KERNEL_ARGS_SIZE).ok_or_else(short)?;
        let r = Reader(bytes);
        let field = |v: Option<u64>| v.ok_or_else(short);
        let u16_at = |off: usize| field(r.u16(off).map(u64::from)).map(|v| v as u16);
        let u32_at = |off: usize| field(r.u32(off).map(u64::from)).map(|v| v as u32);
        Ok(KernelArgs {
            kernel_object: field(r.u64(record::KERNEL_OBJECT))?,
            setup: u16_at(record::SETUP)?,
            workgroup_size: [
                u16_at(record::WORKGROUP_SIZE)?,
                u16_at(record::WORKGROUP_SIZE + 2)?,
                u16_at(record::WORKGROUP_SIZE + 4)?,
            ],
            private_segment_size: u32_at(record::PRIVATE_SEGMENT_SIZE)?,
            group_segment_size: u32_at(record::GROUP_SEGMENT_SIZE)?,
            kernarg_size: u32::from(u16_at(record::KERNARG_SIZE)?),
            kernarg_alignment: u32::from(u16_at(record::KERNARG_ALIGNMENT)?),
            constant_count: u16_at(record::CONSTANT_COUNT)?,
            binding_count: u16_at(record::BINDING_COUNT)?,
        })
    }
}

/// Where a dispatch's kernarg bytes go (`..._dispatch_kernarg_layout_t`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KernargLayout {
    /// Bytes of explicitly provided arguments.
    pub explicit_kernarg_size: usize,
    /// Offset of the implicit-args suffix (always the explicit size).
    pub implicit_args_offset: usize,
    /// Bytes to reserve for the dispatch.
    pub total_kernarg_size: usize,
    /// Whether the implicit-args suffix must be written.
    pub has_implicit_args: bool,
}

impl KernargLayout {
    /// The HAL ABI layout of `args`. A code-object kernarg size *smaller* than
    /// the explicit footprint is tolerated (optimized-away arguments): the full
    /// HAL footprint is still reserved.
    pub fn hal(args: &KernelArgs) -> KernargLayout {
        let binding_bytes = usize::from(args.binding_count) * 8;
        let constant_bytes = (usize::from(args.constant_count) * 4).next_multiple_of(8);
        let explicit = binding_bytes + constant_bytes;
        // u32 → usize is lossless on every supported (≥ 32-bit) target.
        let declared = args.kernarg_size as usize;
        let has_implicit_args = declared > explicit;
        let total = if has_implicit_args {
            declared.max(explicit + IMPLICIT_ARGS_SIZE)
        } else {
            explicit
        };
        KernargLayout {
            explicit_kernarg_size: explicit,
            implicit_args_offset: explicit,
            total_kernarg_size: total,
            has_implicit_args,
        }
    }

    /// A raw blob of `size` bytes packed by the caller, with no implicit suffix.
    pub const fn custom(size: usize) -> KernargLayout {
        KernargLayout {
            explicit_kernarg_size: size,
            implicit_args_offset: size,
            total_kernarg_size: size,
            has_implicit_args: false,
        }
    }

    /// Kernarg blocks to reserve: `ceil(total / 64)`, at least 1;
    /// more than `u32::MAX` is `OUT_OF_RANGE`.
    pub fn block_count(&self) -> Result<u32> {
        let blocks = self.total_kernarg_size.div_ceil(KERNARG_BLOCK_SIZE).max(1);
        u32::try_from(blocks).map_err(|_| {
            crate::status!(
                OutOfRange,
                "dispatch kernargs require too many blocks ({blocks}, max={})",
                u32::MAX
            )
        })
    }
}

fn short_buffer(what: &str, need: usize, have: usize) -> Status {
    crate::status!(
        OutOfRange,
        "{what} needs {need} bytes of kernarg storage; {have} provided"
    )
}

/// Writes HAL ABI kernargs into `out`: zeroes `layout.total_kernarg_size`
/// bytes, writes the bindings as u64 from offset 0 and the constants as u32
/// right after them (no padding in between), then the implicit-args suffix
/// when the layout has one. Errors instead of writing out of bounds.
pub fn emplace_hal_kernargs(
    args: &KernelArgs,
    workgroup_count: [u32; 3],
    dynamic_workgroup_local_memory: u32,
    layout: &KernargLayout,
    bindings: &[u64],
    constants: &[u32],
    out: &mut [u8],
) -> Result<()> {
    if bindings.len() != usize::from(args.binding_count)
        || constants.len() != usize::from(args.constant_count)
    {
        return Err(crate::status!(
            InvalidArgument,
            "dispatch provides {} bindings and {} constants; the kernel takes {} and {}",
            bindings.len(),
            constants.len(),
            args.binding_count,
            args.constant_count
        ));
    }
    let explicit = bindings.len() * 8 + constants.len() * 4;
    let implicit_end = if layout.has_implicit_args {
        layout.implicit_args_offset + IMPLICIT_ARGS_SIZE
    } else {
        0
    };
    let need = layout.total_kernarg_size.max(explicit).max(implicit_end);
    let Some(region) = out.get_mut(..need) else {
        return Err(short_buffer("HAL kernargs", need, out.len()));
    };
    region.fill(0);
    let mut w = Writer(region);
    for (i, binding) in bindings.iter().enumerate() {
        w.u64(i * 8, *binding);
    }
    let base = bindings.len() * 8;
    for (i, constant) in constants.iter().enumerate() {
        w.u32(base + i * 4, *constant);
    }
    if layout.has_implicit_args {
        let o = layout.implicit_args_offset;
        for (i, (count, size)) in workgroup_count.iter().zip(args.workgroup_size).enumerate() {
            w.u32(o + implicit::BLOCK_COUNT + 4 * i, *count);
            w.u16(o + implicit::GROUP_SIZE + 2 * i, size);
        }
        w.u16(o + implicit::GRID_DIMS, 3);
        w.u32(
            o + implicit::DYNAMIC_LDS_SIZE,
            dynamic_workgroup_local_memory,
        );
    }
    Ok(())
}

/// Copies a caller-packed kernarg blob of `layout.total_kernarg_size` bytes
/// into `out`; bytes after it are left untouched.
pub fn emplace_custom_kernargs(layout: &KernargLayout, blob: &[u8], out: &mut [u8]) -> Result<()> {
    let n = layout.total_kernarg_size;
    let src = blob
        .get(..n)
        .ok_or_else(|| short_buffer("custom kernarg blob", n, blob.len()))?;
    let have = out.len();
    let dst = out
        .get_mut(..n)
        .ok_or_else(|| short_buffer("custom kernargs", n, have))?;
    dst.copy_from_slice(src);
    Ok(())
}

/// Little-endian field writes into a buffer already checked to be large enough.
struct Writer<'a>(&'a mut [u8]);

impl Writer<'_> {
    fn put(&mut self, off: usize, bytes: &[u8]) {
        if let Some(dst) = self.0.get_mut(off..off + bytes.len()) {
            dst.copy_from_slice(bytes);
        }
    }
    fn u16(&mut self, off: usize, v: u16) {
        self.put(off, &v.to_le_bytes());
    }
    fn u32(&mut self, off: usize, v: u32) {
        self.put(off, &v.to_le_bytes());
    }
    fn u64(&mut self, off: usize, v: u64) {
        self.put(off, &v.to_le_bytes());
    }
}

/// Bounds-checked little-endian field reads.
pub(crate) struct Reader<'a>(pub(crate) &'a [u8]);

impl Reader<'_> {
    fn get<const N: usize>(&self, off: usize) -> Option<[u8; N]> {
        self.0.get(off..off.checked_add(N)?)?.try_into().ok()
    }
    pub(crate) fn u16(&self, off: usize) -> Option<u16> {
        self.get(off).map(u16::from_le_bytes)
    }
    pub(crate) fn u32(&self, off: usize) -> Option<u32> {
        self.get(off).map(u32::from_le_bytes)
    }
    pub(crate) fn u64(&self, off: usize) -> Option<u64> {
        self.get(off).map(u64::from_le_bytes)
    }
}

#[cfg(test)]
mod tests {
    //! IREE's `device/dispatch_test.cc` kernarg cases, plus the record layout.
    use super::*;
    use crate::status::StatusCode;

    fn make_kernel_args(kernarg_size: u32, bindings: u16, constants: u16) -> KernelArgs {
        KernelArgs {
            kernel_object: 0x1234,
            setup: 3,
            workgroup_size: [4, 5, 6],
            private_segment_size: 7,
            group_segment_size: 8,
            kernarg_size,
            kernarg_alignment: 16,
            constant_count: constants,
            binding_count: bindings,
        }
    }

    #[test]
    fn hal_layout_without_implicit_args() {
        let layout = KernargLayout::hal(&make_kernel_args(32, 2, 3));
        assert_eq!(
            layout,
            KernargLayout {
                explicit_kernarg_size: 32,
                implicit_args_offset: 32,
                total_kernarg_size: 32,
                has_implicit_args: false
            }
        );
        assert_eq!(layout.block_count().unwrap(), 1);
    }

    #[test]
    fn hal_layout_with_implicit_args() {
        let layout = KernargLayout::hal(&make_kernel_args(40, 2, 3));
        assert_eq!(
            layout,
            KernargLayout {
                explicit_kernarg_size: 32,
                implicit_args_offset: 32,
                total_kernarg_size: 32 + IMPLICIT_ARGS_SIZE,
                has_implicit_args: true
            }
        );
        assert_eq!(layout.total_kernarg_size, 156);
        assert_eq!(layout.block_count().unwrap(), 3);
    }

    #[test]
    fn hal_layout_tolerates_smaller_metadata_and_keeps_larger() {
        let small = KernargLayout::hal(&make_kernel_args(8, 2, 3));
        assert_eq!(
            (small.total_kernarg_size, small.has_implicit_args),
            (32, false)
        );
        let large = KernargLayout::hal(&make_kernel_args(400, 2, 3));
        assert_eq!(
            (large.total_kernarg_size, large.has_implicit_args),
            (400, true)
        );
    }

    #[test]
    fn block_counts() {
        assert_eq!(KernargLayout::custom(0).block_count().unwrap(), 1);
        assert_eq!(KernargLayout::custom(64).block_count().unwrap(), 1);
        assert_eq!(KernargLayout::custom(65).block_count().unwrap(), 2);
        #[cfg(target_pointer_width = "64")]
        {
            let huge = KernargLayout::custom((u32::MAX as usize + 1) * 64);
            assert_eq!(
                huge.block_count().unwrap_err().code(),
                StatusCode::OutOfRange
            );
        }
    }

    #[test]
    fn emplace_hal_kernargs_writes_bindings_constants_and_implicit_args() {
        let args = make_kernel_args(32 + IMPLICIT_ARGS_SIZE as u32, 2, 3);
        let layout = KernargLayout::hal(&args);
        let mut buf = [0xFDu8; 256];
        emplace_hal_kernargs(
            &args,
            [7, 8, 9],
            13,
            &layout,
            &[0x1111222233334444, 0x5555666677778888],
            &[0xAA, 0xBB, 0xCC],
            &mut buf,
        )
        .unwrap();
        let r = Reader(&buf);
        assert_eq!(r.u64(0), Some(0x1111222233334444));
        assert_eq!(r.u64(8), Some(0x5555666677778888));
        assert_eq!(r.u32(16), Some(0xAA));
        assert_eq!(r.u32(20), Some(0xBB));
        assert_eq!(r.u32(24), Some(0xCC));
        assert_eq!(&buf[28..32], &[0, 0, 0, 0]);
        let o = layout.implicit_args_offset;
        for i in 0..3 {
            assert_eq!(r.u32(o + implicit::BLOCK_COUNT + 4 * i), Some(7 + i as u32));
            assert_eq!(r.u16(o + implicit::GROUP_SIZE + 2 * i), Some(4 + i as u16));
            assert_eq!(r.u16(o + implicit::REMAINDER + 2 * i), Some(0));
            assert_eq!(r.u64(o + implicit::GLOBAL_OFFSET + 8 * i), Some(0));
        }
        for off in [
            implicit::RESERVED0,
            implicit::RESERVED1,
            implicit::PRINTF_BUFFER,
            implicit::HOSTCALL_BUFFER,
            implicit::MULTIGRID_SYNC_ARG,
            implicit::HEAP_V1,
            implicit::DEFAULT_QUEUE,
            implicit::COMPLETION_ACTION,
        ] {
            assert_eq!(r.u64(o + off), Some(0), "implicit field at {off}");
        }
        assert_eq!(r.u16(o + implicit::GRID_DIMS), Some(3));
        assert_eq!(r.u32(o + implicit::DYNAMIC_LDS_SIZE), Some(13));
        // Bytes past the reservation are untouched.
        assert!(buf[layout.total_kernarg_size..].iter().all(|&b| b == 0xFD));
    }

    #[test]
    fn emplace_custom_kernargs_copies_raw_blob() {
        let layout = KernargLayout::custom(20);
        let blob: Vec<u8> = (0..20).collect();
        let mut buf = [0xFDu8; 32];
        emplace_custom_kernargs(&layout, &blob, &mut buf).unwrap();
        assert_eq!(&buf[..20], &blob[..]);
        assert!(buf[20..].iter().all(|&b| b == 0xFD));
    }

    /// IREE's HAL ABI puts every binding (u64) and then every constant (u32)
    /// first, 8·bindings + 4·constants bytes, whatever a layout reserves: a
    /// layout that reserves less still gets them all, and a buffer shorter
    /// than that footprint is refused by its size.
    #[test]
    fn the_explicit_footprint_is_written_even_past_a_smaller_layout() {
        let args = make_kernel_args(0, 2, 3);
        let layout = KernargLayout {
            explicit_kernarg_size: 0,
            implicit_args_offset: 0,
            total_kernarg_size: 0,
            has_implicit_args: false,
        };
        let (bindings, constants) = ([0x1111_2222_3333_4444, 0x5555_6666_7777_8888], [7, 8, 9]);
        let mut exact = [0xFDu8; 28];
        emplace_hal_kernargs(&args, [1; 3], 0, &layout, &bindings, &constants, &mut exact).unwrap();
        let mut expected = Vec::new();
        expected.extend_from_slice(&0x1111_2222_3333_4444u64.to_le_bytes());
        expected.extend_from_slice(&0x5555_6666_7777_8888u64.to_le_bytes());
        for c in [7u32, 8, 9] {
            expected.extend_from_slice(&c.to_le_bytes());
        }
        assert_eq!(exact.as_slice(), expected.as_slice());
        let mut short = [0u8; 27];
        let err =
            emplace_hal_kernargs(&args, [1; 3], 0, &layout, &bindings, &constants, &mut short)
                .unwrap_err();
        assert_eq!(err.code(), StatusCode::OutOfRange);
        assert!(err.message().contains("needs 28 bytes"), "{err}");
    }

    #[test]
    fn emplace_rejects_short_buffers_and_wrong_counts() {
        let args = make_kernel_args(40, 2, 3);
        let layout = KernargLayout::hal(&args);
        let mut small = [0u8; 64];
        let err = emplace_hal_kernargs(&args, [1; 3], 0, &layout, &[1, 2], &[1, 2, 3], &mut small)
            .unwrap_err();
        assert_eq!(err.code(), StatusCode::OutOfRange);
        let mut buf = [0u8; 256];
        let err = emplace_hal_kernargs(&args, [1; 3], 0, &layout, &[1], &[1, 2, 3], &mut buf)
            .unwrap_err();
        assert_eq!(err.code(), StatusCode::InvalidArgument);
        let err =
            emplace_custom_kernargs(&KernargLayout::custom(20), &[0; 10], &mut buf).unwrap_err();
        assert_eq!(err.code(), StatusCode::OutOfRange);
    }

    #[test]
    fn device_record_layout_round_trips_and_checks_narrowing() {
        let args = make_kernel_args(156, 2, 3);
        let rec = args.to_device_record().unwrap();
        let r = Reader(&rec);
        assert_eq!(r.u64(record::KERNEL_OBJECT), Some(0x1234));
        assert_eq!(r.u16(record::SETUP), Some(3));
        assert_eq!(r.u16(record::WORKGROUP_SIZE + 4), Some(6));
        assert_eq!(r.u32(record::PRIVATE_SEGMENT_SIZE), Some(7));
        assert_eq!(r.u32(record::GROUP_SEGMENT_SIZE), Some(8));
        assert_eq!(r.u16(record::KERNARG_SIZE), Some(156));
        assert_eq!(r.u16(record::KERNARG_ALIGNMENT), Some(16));
        assert_eq!(r.u16(record::CONSTANT_COUNT), Some(3));
        assert_eq!(r.u16(record::BINDING_COUNT), Some(2));
        assert_eq!(r.u32(record::RESERVED), Some(0));
        assert_eq!(KernelArgs::from_device_record(&rec).unwrap(), args);
        let big = make_kernel_args(70_000, 0, 0);
        let err = big.to_device_record().unwrap_err();
        assert_eq!(err.code(), StatusCode::OutOfRange);
        assert!(err.mentions("70000"));
        assert_eq!(
            KernelArgs::from_device_record(&rec[..39])
                .unwrap_err()
                .code(),
            StatusCode::OutOfRange
        );
    }
}
