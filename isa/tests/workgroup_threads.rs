//! A dispatch's work-groups on several threads (`run_dispatch_threads`),
//! over one memory every thread reaches through a handle of its own (a
//! lock per access, as the simulator's node memory is shared):
//!
//! - a race-free kernel (`lds_reverse`: each work-group reverses its 64
//!   values through LDS) writes the same bits on 1, 2, 4 and 8 threads,
//!   each value the one the kernel's definition gives (`out[64g + i] =
//!   in[64g + 63 - i]`, computed here);
//! - atomics stay atomic across threads (`atomic_tickets`: every
//!   work-item's ticket below the work-item count exactly once, the
//!   counter at that count: a lost update would repeat a ticket);
//! - a fault is the lowest-numbered faulting work-group's, whatever the
//!   thread count: the kernel's output buffer ends inside work-group 37, so
//!   every work-group from 37 on faults.

mod fixture;

use std::sync::{Arc, Mutex};

use amdgpu_isa::{
    Access, Chip, Dispatch, Inputs, MAX_WAVE_INSTRUCTIONS, Memory, OutOfBounds, Regions,
    run_dispatch, run_dispatch_threads,
};
use fixture::{kernel, words};

const IN: u64 = 0x10_0000;
const OUT: u64 = 0x20_0000;
const COUNTER: u64 = 0x30_0000;
const LANES: u64 = 0x40_0000;
/// The kernels' `reqd_work_group_size`.
const BLOCK: u32 = 64;
const GROUPS: u32 = 96;
const THREADS: [usize; 4] = [1, 2, 4, 8];

/// One thread's handle on memory all share.
#[derive(Clone)]
struct Shared(Arc<Mutex<Regions>>);

impl Memory for Shared {
    fn read(&mut self, address: u64, out: &mut [u8]) -> Result<(), OutOfBounds> {
        self.0.lock().unwrap().read(address, out)
    }

    fn write(&mut self, address: u64, data: &[u8]) -> Result<(), OutOfBounds> {
        self.0.lock().unwrap().write(address, data)
    }

    fn read_modify_write(
        &mut self,
        address: u64,
        len: usize,
        modify: &mut dyn FnMut(u64) -> u64,
    ) -> Result<u64, Access> {
        // The default read-then-write, with the lock held across both.
        self.0
            .lock()
            .unwrap()
            .read_modify_write(address, len, modify)
    }
}

fn dispatch<'a>(
    program: &'a amdgpu_isa::Program,
    descriptor: amdgpu_isa::KernelDescriptor,
    kernargs: &'a [u8],
) -> Dispatch<'a> {
    Dispatch {
        program,
        descriptor,
        grid_size: [GROUPS * BLOCK, 1, 1],
        block: [BLOCK, 1, 1],
        dynamic_lds: 0,
        inputs: Inputs::Packet {
            kernel_object: 0x1000,
            kernarg_address: 0x50_0000,
            kernargs,
            packet_address: 0x60_0000,
        },
        instruction_limit: MAX_WAVE_INSTRUCTIONS,
    }
}

fn kernargs(size: u32, pointers: &[u64]) -> Vec<u8> {
    let mut bytes = vec![0u8; size as usize];
    for (i, p) in pointers.iter().enumerate() {
        bytes[8 * i..8 * i + 8].copy_from_slice(&p.to_le_bytes());
    }
    bytes
}

/// Runs `d` on `threads` threads over `regions`; the memory after it and
/// the result.
fn run_on(
    d: &Dispatch,
    regions: &Regions,
    threads: usize,
) -> (Regions, Result<amdgpu_isa::Stats, amdgpu_isa::Fault>) {
    let shared = Shared(Arc::new(Mutex::new(regions.clone())));
    let result = run_dispatch_threads(d, vec![shared.clone(); threads]);
    let memory = shared.0.lock().unwrap().clone();
    (memory, result)
}

#[test]
fn a_race_free_kernel_writes_the_same_bits_on_any_thread_count() {
    let items = (GROUPS * BLOCK) as usize;
    let input: Vec<u32> = (0..items as u32)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    let expected: Vec<u32> = (0..items)
        .map(|i| input[i - i % 64 + 63 - i % 64])
        .collect();
    for chip in [Chip::Gfx942, Chip::Gfx1100] {
        let (program, descriptor, size) = kernel("lds_reverse", chip);
        let args = kernargs(size, &[IN, OUT]);
        let d = dispatch(&program, descriptor, &args);
        let regions = Regions::new(vec![
            (IN, input.iter().flat_map(|w| w.to_le_bytes()).collect()),
            (OUT, vec![0xff; items * 4]),
        ]);
        let mut alone = regions.clone();
        let one = run_dispatch(&d, &mut alone).expect("one thread");
        for threads in THREADS {
            let (memory, stats) = run_on(&d, &regions, threads);
            let stats = stats.unwrap_or_else(|f| panic!("{chip:?}, {threads} threads: {f}"));
            assert_eq!(words(&memory, OUT), expected, "{chip:?}, {threads} threads");
            assert_eq!(stats, one, "{chip:?}, {threads} threads: what ran");
        }
    }
}

#[test]
fn atomics_from_every_work_group_stay_atomic_across_threads() {
    let count = GROUPS * BLOCK;
    for chip in [Chip::Gfx942, Chip::Gfx1100] {
        let (program, descriptor, size) = kernel("atomic_tickets", chip);
        let mut args = kernargs(size, &[COUNTER, OUT, LANES]);
        args[24..28].copy_from_slice(&count.to_le_bytes());
        let d = dispatch(&program, descriptor, &args);
        let regions = Regions::new(vec![
            (COUNTER, vec![0; 4]),
            (OUT, vec![0xff; count as usize * 4]),
            (LANES, vec![0xff; count as usize * 4]),
        ]);
        for threads in THREADS {
            let (memory, result) = run_on(&d, &regions, threads);
            result.unwrap_or_else(|f| panic!("{chip:?}, {threads} threads: {f}"));
            let what = format!("{chip:?}, {threads} threads");
            assert_eq!(words(&memory, COUNTER), [count], "{what}: the counter");
            let mut tickets = words(&memory, OUT);
            tickets.sort_unstable();
            assert_eq!(tickets, (0..count).collect::<Vec<_>>(), "{what}: tickets");
        }
    }
}

#[test]
fn the_fault_reported_is_the_lowest_faulting_work_groups_on_any_thread_count() {
    // The output ends 10 words into work-group 37.
    const FIRST_FAULTING: u32 = 37;
    let words_kept = (FIRST_FAULTING * BLOCK + 10) as usize;
    let items = (GROUPS * BLOCK) as usize;
    let (program, descriptor, size) = kernel("lds_reverse", Chip::Gfx1100);
    let args = kernargs(size, &[IN, OUT]);
    let d = dispatch(&program, descriptor, &args);
    let regions = Regions::new(vec![
        (IN, vec![7; items * 4]),
        (OUT, vec![0; words_kept * 4]),
    ]);
    let mut alone = regions.clone();
    let fault = run_dispatch(&d, &mut alone).expect_err("work-group 37 stores outside memory");
    assert_eq!(fault.workgroup, [FIRST_FAULTING, 0, 0], "{fault}");
    assert!(fault.to_string().contains("store"), "{fault}");
    for threads in THREADS {
        // Repeated: which thread reaches which work-group first varies.
        for _ in 0..5 {
            let (memory, result) = run_on(&d, &regions, threads);
            let got = result.expect_err("a fault");
            assert_eq!(got, fault, "{threads} threads");
            // Every work-group before the faulting one ran to its end.
            let out = words(&memory, OUT);
            let done = (FIRST_FAULTING * BLOCK) as usize;
            assert!(
                out[..done].iter().all(|&w| w == 0x0707_0707),
                "{threads} threads"
            );
        }
    }
}
