//! Pitched (2D) copies and fills: `height` rows of `width` bytes, each row
//! `pitch` bytes after the one before — `hipMemcpy2D`, `hipMemcpy2DAsync`,
//! `hipMemset2D`, `hipMemset2DAsync`. rocSPARSE calls them (its dense
//! conversions `csr2dense`/`coo2dense` clear the matrix with
//! `hipMemset2DAsync`; its SpSM copies with `hipMemcpy2D`), as do image
//! and stencil programs.
//!
//! Each row is one of `memory`'s copies or fills, with their rules
//! (pageable host memory, stream order). Every row is checked before any
//! is enqueued — each side's rows all in device memory, each within an
//! allocation, or all in host memory — so a call refused for a row past
//! an allocation's end writes nothing; rows that lie back to back
//! (`pitch == width`) are one copy or fill. As ROCm: a pitch below the
//! width is `hipErrorInvalidPitchValue` for a copy (hip-tests' negative
//! cases) and `hipErrorInvalidValue` for a fill; a zero width or height
//! does nothing. More than `MAX_ROWS` rows is `hipErrorInvalidValue`.

use std::ffi::{c_int, c_void};

use amdgpu_sim::HipCode;

use super::memory::{MEMCPY_KINDS, copy, pageable, place};
use super::stream::resolve_stream;
use crate::abi::*;
use crate::core::exports::c_exports;
use crate::core::hip_call::{Call, call_with, handle};
use crate::core::place::Place;
use crate::core::runtime::Runtime;
use crate::core::streams::Op;

/// Most rows one call may name (a limit on the operations it enqueues:
/// 2^24 rows, far past any image or matrix a simulated device holds).
const MAX_ROWS: usize = 1 << 24;

/// The `(address, length)` of each row, or, `merged`, of the one run
/// the rows make back to back; `None` when they overflow the address
/// space.
fn rows(
    base: usize,
    pitch: usize,
    width: usize,
    height: usize,
    merged: bool,
) -> Option<Vec<(usize, usize)>> {
    if merged {
        let len = width.checked_mul(height)?;
        base.checked_add(len)?;
        return Some(vec![(base, len)]);
    }
    (0..height)
        .map(|r| {
            let start = base.checked_add(r.checked_mul(pitch)?)?;
            start.checked_add(width)?;
            Some((start, width))
        })
        .collect()
}

/// The rows of one side, after the checks every call makes.
fn checked_rows(
    base: *const c_void,
    pitch: usize,
    width: usize,
    height: usize,
    merged: bool,
) -> Result<Vec<(usize, usize)>, HipCode> {
    if base.is_null() || height > MAX_ROWS {
        return Err(HipCode::INVALID_VALUE);
    }
    rows(base as usize, pitch, width, height, merged).ok_or(HipCode::INVALID_VALUE)
}

/// Where each row of one side lies: all in device memory (each row
/// within one allocation) or all in the client's host memory. The first
/// row decides; a later row elsewhere (past the allocation's end, which
/// `memory::place` alone would take for host memory) is
/// `hipErrorInvalidValue`.
fn places(rt: &Runtime, rows: &[(usize, usize)]) -> Result<Vec<Place>, HipCode> {
    let mut device = None;
    rows.iter()
        .map(|&(start, len)| {
            let at = place(rt, start, len)?;
            let on_device = matches!(at, Place::Device(_));
            if *device.get_or_insert(on_device) != on_device {
                return Err(HipCode::INVALID_VALUE);
            }
            Ok(at)
        })
        .collect()
}

/// `hipMemset2D*`'s body: each row of `dst` filled with `value`'s low
/// byte, in stream order.
///
/// # Safety
/// `dst`, outside the simulated device memory, is the client's host
/// memory HIP allocated or registered, `pitch * (height - 1) + width`
/// bytes, live until the fill has run.
unsafe fn fill_2d(
    rt: &Runtime,
    dst: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
    stream: handle,
) -> Call {
    if pitch < width {
        return Err(HipCode::INVALID_VALUE);
    }
    if width == 0 || height == 0 {
        return Ok(());
    }
    let rows = checked_rows(dst, pitch, width, height, pitch == width)?;
    let mut ops = Vec::with_capacity(rows.len());
    for (place, (_, len)) in places(rt, &rows)?.into_iter().zip(rows) {
        if pageable(rt, place, len) {
            return Err(HipCode::INVALID_VALUE);
        }
        ops.push(Op::Fill {
            dst: place,
            pattern: vec![value as u8],
            count: len,
        });
    }
    let (target, _) = resolve_stream(rt, stream)?;
    // SAFETY: device places, or host places HIP knows, the caller's promise.
    unsafe { target.enqueue_all(rt, ops) }
}

/// `hipMemcpy2D*`'s body: each row of `src` copied to the same row of
/// `dst` by `memory::copy`, after every row of both sides was checked.
///
/// # Safety
/// Each side outside the simulated device memory is the client's host
/// memory of its pitch times `height - 1`, plus `width`, bytes (readable
/// `src`, writable `dst`), live until the copy has run.
#[allow(clippy::too_many_arguments)]
unsafe fn copy_2d(
    rt: &Runtime,
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
    stream: handle,
) -> Call {
    if !MEMCPY_KINDS.contains(&kind) {
        return Err(HipCode::INVALID_VALUE);
    }
    if dpitch < width || spitch < width {
        return Err(HipCode(hipErrorInvalidPitchValue));
    }
    if width == 0 || height == 0 {
        return Ok(());
    }
    // One row each (or, both back to back, one run each).
    let merged = dpitch == width && spitch == width;
    let dst_rows = checked_rows(dst, dpitch, width, height, merged)?;
    let src_rows = checked_rows(src, spitch, width, height, merged)?;
    places(rt, &dst_rows)?;
    places(rt, &src_rows)?;
    resolve_stream(rt, stream)?;
    for ((d, len), (s, _)) in dst_rows.into_iter().zip(src_rows) {
        // SAFETY: the caller's promise, for this row of each side.
        unsafe { copy(rt, d as *mut c_void, s as *const c_void, len, kind, stream) }?;
    }
    Ok(())
}

c_exports! {
    /// `hipMemcpy2D`: on the null stream, as `hipMemcpy`.
    ///
    /// # Safety
    /// Each side outside device memory is the caller's host memory of its
    /// pitch times `height - 1`, plus `width`, bytes (readable `src`,
    /// writable `dst`).
    unsafe fn hipMemcpy2D(dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize,
        width: usize, height: usize, kind: c_int) -> hipError_t {
        call_with("hipMemcpy2D", || format!("{dst:?}, {dpitch}, {src:?}, {spitch}, {width}, {height}, {kind}"),
            // SAFETY: the caller's contract (above).
            |rt| unsafe { copy_2d(rt, dst, dpitch, src, spitch, width, height, kind, std::ptr::null_mut()) })
    }

    /// `hipMemcpy2DAsync`: on `stream`, as `hipMemcpyAsync`.
    ///
    /// # Safety
    /// As `hipMemcpy2D`, the host memory live until the copy has run in
    /// stream order.
    unsafe fn hipMemcpy2DAsync(dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize,
        width: usize, height: usize, kind: c_int, stream: handle) -> hipError_t {
        call_with("hipMemcpy2DAsync", || format!("{dst:?}, {dpitch}, {src:?}, {spitch}, {width}, {height}, {kind}, {stream:?}"),
            // SAFETY: the caller's contract (above).
            |rt| unsafe { copy_2d(rt, dst, dpitch, src, spitch, width, height, kind, stream) })
    }

    /// `hipMemset2D`: on the null stream, as `hipMemset`.
    ///
    /// # Safety
    /// `dst`, outside device memory, is host memory HIP allocated or
    /// registered, `pitch * (height - 1) + width` writable bytes.
    unsafe fn hipMemset2D(dst: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize) -> hipError_t {
        call_with("hipMemset2D", || format!("{dst:?}, {pitch}, {value}, {width}, {height}"),
            // SAFETY: the caller's contract (above).
            |rt| unsafe { fill_2d(rt, dst, pitch, value, width, height, std::ptr::null_mut()) })
    }

    /// `hipMemset2DAsync`: on `stream`, as `hipMemsetAsync`.
    ///
    /// # Safety
    /// As `hipMemset2D`, the memory live until the fill has run in stream
    /// order.
    unsafe fn hipMemset2DAsync(dst: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize,
        stream: handle) -> hipError_t {
        call_with("hipMemset2DAsync", || format!("{dst:?}, {pitch}, {value}, {width}, {height}, {stream:?}"),
            // SAFETY: the caller's contract (above).
            |rt| unsafe { fill_2d(rt, dst, pitch, value, width, height, stream) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_step_by_the_pitch_and_back_to_back_rows_are_one_run() {
        assert_eq!(
            rows(0x1000, 64, 40, 3, false),
            Some(vec![(0x1000, 40), (0x1040, 40), (0x1080, 40)])
        );
        assert_eq!(rows(0x1000, 40, 40, 3, true), Some(vec![(0x1000, 120)]));
        assert_eq!(rows(usize::MAX - 10, 64, 40, 2, false), None);
        assert_eq!(rows(usize::MAX - 10, 40, 40, 2, true), None);
        assert_eq!(rows(0x1000, usize::MAX, 1, 3, false), None);
    }
}
