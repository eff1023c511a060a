//! Allocation, images and the byte stores, through `Memory`.

use super::*;

#[test]
fn the_first_127_pool_windows_lie_below_a_buffer_resources_base() {
    // A V# holds a 48-bit base: an allocation above it is unreachable
    // by the buffer instructions a kernel uses.
    assert!(pool_base(126) + POOL_WINDOW_BYTES <= 1 << 48);
    assert!(pool_base(127) + POOL_WINDOW_BYTES > 1 << 48);
    assert_eq!(pool_base(0), POOL_WINDOW_BYTES);
}

#[test]
fn the_windows_do_not_overlap_and_lie_in_user_space() {
    let code_end = crate::loader::code_base(crate::validate::MAX_AGENTS);
    assert!(VMEM_WINDOW_BASE + VMEM_WINDOW_BYTES <= crate::loader::code_base(0));
    assert!(code_end <= pool_base(0));
    // x86-64's user space ends at 2^47; the presets' 40 pools fit well below.
    assert!(pool_base(40) < 1 << 47);
}

#[test]
fn capacity_and_round_trip() {
    let mut memory = Memory::new(1);
    let a = memory.allocate(0, 100, 4096, 4096, 8192).unwrap();
    let b = memory.allocate(0, 4096, 4096, 4096, 8192).unwrap();
    assert_eq!(
        memory.allocate(0, 1, 4096, 4096, 8192),
        Err(HsaCode::OUT_OF_RESOURCES)
    );
    memory.write(a + 10, b"hello").unwrap();
    let mut out = [0u8; 7];
    memory.read(a + 9, &mut out).unwrap();
    assert_eq!(&out, b"\0hello\0");
    assert_eq!(memory.write(a + 98, b"abc"), Err(HsaCode::INVALID_ARGUMENT));
    assert_eq!(memory.free(a + 1), Err(HsaCode::INVALID_ALLOCATION));
    memory.free(a).unwrap();
    assert_eq!(memory.free(a), Err(HsaCode::INVALID_ALLOCATION));
    memory.free(b).unwrap();
    assert_eq!(memory.live_allocations(), 0);
}

#[test]
fn a_freed_allocations_bytes_do_not_come_back() {
    let mut memory = Memory::new(1);
    let a = memory.allocate(0, 4096, 4096, 4096, 8192).unwrap();
    memory.write(a, &[7; 16]).unwrap();
    memory.free(a).unwrap();
    // The window is handed out in order: the next allocation is elsewhere,
    // and reads as zero.
    let b = memory.allocate(0, 4096, 4096, 4096, 8192).unwrap();
    assert_ne!(a, b);
    let mut out = [1u8; 16];
    memory.read(b, &mut out).unwrap();
    assert_eq!(out, [0; 16]);
}

#[test]
fn allocations_are_whole_pages_whatever_the_granule() {
    // ROCr rounds every allocation up to whole pages.
    let mut memory = Memory::new(1);
    let a = memory.allocate(0, 10, 4, 4, 1 << 20).unwrap();
    let b = memory.allocate(0, 10, 4, 4, 1 << 20).unwrap();
    assert_eq!((a % PAGE_BYTES, b - a), (0, PAGE_BYTES));
    assert_eq!(memory.usage(0).reserved_bytes, 2 * PAGE_BYTES);
}

/// An image of two pieces over 3 pages: bytes 1..=200 at 100, and
/// bytes 50..=249 at 4090 (across the first page boundary); a third
/// piece overlaps the first, and the later one wins.
fn image() -> (Arc<Image>, Vec<u8>) {
    let bytes: Arc<[u8]> = (0..=255u8).collect::<Vec<u8>>().into();
    let pieces = vec![(100, 1..201), (4090, 50..250), (150, 0..10)];
    let image = Arc::new(Image::new(Arc::clone(&bytes), 3 * PAGE_BYTES, pieces).unwrap());
    let mut flat = vec![0u8; 3 * PAGE_BYTES as usize];
    flat[100..300].copy_from_slice(&bytes[1..201]);
    flat[4090..4290].copy_from_slice(&bytes[50..250]);
    flat[150..160].copy_from_slice(&bytes[0..10]);
    (image, flat)
}

fn read_all(memory: &mut Memory, base: u64, len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    memory.read(base, &mut out).unwrap();
    out
}

#[test]
fn mappings_share_the_image_and_copy_only_the_pages_written() {
    let (image, flat) = image();
    let (a, b) = (1 << 40, 2 << 40);
    let mut memory = Memory::new(0);
    memory.map_image(a, Arc::clone(&image)).unwrap();
    memory.map_image(b, Arc::clone(&image)).unwrap();
    // The regions and the store hold one reference each.
    assert_eq!(Arc::strong_count(&image), 5);
    assert_eq!(read_all(&mut memory, a, flat.len()), flat);
    // Unaligned reads inside and across pieces and pages.
    let mut out = [0u8; 20];
    memory.read(b + 4085, &mut out).unwrap();
    assert_eq!(out[..], flat[4085..4105]);
    let usage = memory.image_usage();
    assert_eq!(
        (usage.mappings, usage.shared_images, usage.private_pages),
        (2, 1, 0)
    );
    assert_eq!(usage.shared_bytes, 256);

    // A write across the page boundary copies both pages into `a` only.
    memory.write(a + 4094, &[0xee; 4]).unwrap();
    let mut written = flat.clone();
    written[4094..4098].fill(0xee);
    assert_eq!(read_all(&mut memory, a, flat.len()), written);
    assert_eq!(read_all(&mut memory, b, flat.len()), flat);
    assert_eq!(memory.image_usage().private_pages, 2);
    // A page no piece covers is copied as zeros.
    memory.write(b + 2 * PAGE_BYTES + 1, &[1]).unwrap();
    let mut written_b = flat.clone();
    written_b[2 * PAGE_BYTES as usize + 1] = 1;
    assert_eq!(read_all(&mut memory, b, flat.len()), written_b);
    // Past the end is refused, as for any region.
    assert_eq!(
        memory.write(b + 3 * PAGE_BYTES - 1, &[0, 0]),
        Err(HsaCode::INVALID_ARGUMENT)
    );

    // Each unmap drops its references once; unmapping twice, or an
    // allocation's address, drops nothing.
    memory.unmap_image(a);
    memory.unmap_image(a);
    assert_eq!(Arc::strong_count(&image), 3);
    assert_eq!(memory.image_usage().mappings, 1);
    memory.unmap_image(b);
    assert_eq!(Arc::strong_count(&image), 1);
    assert_eq!(memory.image_usage(), ImageUsage::default());
}

#[test]
fn one_physical_handle_mapped_twice_shows_the_same_bytes() {
    let mut memory = Memory::new(1);
    let (reservation, len) = (VMEM_WINDOW_BASE, 2 * PAGE_BYTES);
    memory.reserve(reservation, 3 * len).unwrap();
    memory.create_physical(0, 9, len, 1 << 20).unwrap();
    assert_eq!(memory.usage(0).physical_bytes, len);
    for i in 0..3 {
        memory
            .map_physical(reservation + i * len, len, 9, reservation)
            .unwrap();
    }
    // A write through the middle mapping, across its end into the
    // third: the same physical bytes, seen through all three.
    memory
        .write(reservation + 2 * len - 2, &[1, 2, 3, 4])
        .unwrap();
    let mut out = [0u8; 4];
    memory.read(reservation + len - 2, &mut out).unwrap();
    assert_eq!(out, [1, 2, 3, 4]);
    memory
        .read(reservation + 3 * len - 2, &mut out[..2])
        .unwrap();
    assert_eq!(out[..2], [1, 2]);
    // Past the last mapping is outside memory.
    assert_eq!(
        memory.read(reservation + 3 * len - 1, &mut out[..2]),
        Err(HsaCode::INVALID_ARGUMENT)
    );
    // An agent needs a permission on every mapping it touches.
    assert!(!memory.agent_may(1, reservation, 4, false));
    memory.set_mapping_access(reservation, 1, 1, false).unwrap();
    assert!(memory.agent_may(1, reservation, 4, false));
    assert!(!memory.agent_may(1, reservation, 4, true));
    assert!(!memory.agent_may(1, reservation + len - 2, 4, false));
    for i in 0..3 {
        memory.unmap_physical(reservation + i * len).unwrap();
    }
    assert_eq!(
        memory.unmap_physical(reservation),
        Err(HsaCode::INVALID_ALLOCATION)
    );
    memory.release_physical(0, 9, len);
    assert_eq!(memory.usage(0), PoolUsage::default());
}

#[test]
fn a_view_sees_memory_as_it_was_and_a_free_waits_for_it_to_end() {
    let mut memory = Memory::new(1);
    let a = memory.allocate(0, 4096, 4096, 4096, 1 << 20).unwrap();
    memory.write(a, &[5; 8]).unwrap();
    let view = memory.view();
    // Freed while the view lives: gone from the table at once, its pool
    // credited, but its bytes kept for the view.
    memory.free(a).unwrap();
    assert_eq!(memory.region_of(a), None);
    assert_eq!(memory.usage(0).allocations, 0);
    assert_eq!(memory.retired_waiting(), 1);
    let mut out = [0u8; 8];
    view.read(a, &mut out).unwrap();
    assert_eq!(out, [5; 8]);
    view.write(a, &[6; 8]).unwrap();
    // Its addresses are not handed out again meanwhile: a first fit in
    // its pool's window passes over them.
    assert_ne!(
        memory.first_fit(pool_base(0), POOL_WINDOW_BYTES, PAGE_BYTES, PAGE_BYTES),
        Some(a)
    );
    // A region allocated after the view was taken is not in it.
    let b = memory.allocate(0, 4096, 4096, 4096, 1 << 20).unwrap();
    assert_eq!(view.region_of(b), None);
    assert_eq!(view.read(b, &mut out), Err(HsaCode::INVALID_ARGUMENT));
    drop(view);
    memory.reclaim();
    assert_eq!(memory.retired_waiting(), 0);
    assert_eq!(
        memory.first_fit(pool_base(0), POOL_WINDOW_BYTES, PAGE_BYTES, PAGE_BYTES),
        Some(a)
    );
    // With no view alive a free drops the bytes at once.
    memory.free(b).unwrap();
    assert_eq!(memory.retired_waiting(), 0);
}

#[test]
fn a_free_waits_only_for_views_taken_before_it() {
    let mut memory = Memory::new(1);
    let a = memory.allocate(0, 4096, 4096, 4096, 1 << 20).unwrap();
    let b = memory.allocate(0, 4096, 4096, 4096, 1 << 20).unwrap();
    let early = memory.view();
    memory.free(a).unwrap();
    let late = memory.view();
    memory.free(b).unwrap();
    assert_eq!(memory.retired_waiting(), 2);
    // The early view may see both; once it ends, `a` (freed before the
    // late view was taken) is dropped, `b` waits for the late view.
    drop(early);
    memory.reclaim();
    assert_eq!(memory.retired_waiting(), 1);
    drop(late);
    memory.reclaim();
    assert_eq!(memory.retired_waiting(), 0);
}

#[test]
fn atomics_through_views_on_several_threads_lose_no_update() {
    const THREADS: u64 = 4;
    const ADDS: u64 = 2000;
    let mut memory = Memory::new(1);
    let a = memory.allocate(0, 4096, 4096, 4096, 1 << 20).unwrap();
    std::thread::scope(|scope| {
        for _ in 0..THREADS {
            let view = memory.view();
            scope.spawn(move || {
                for _ in 0..ADDS {
                    view.atomically(a + 8, |view| {
                        let mut word = [0u8; 8];
                        view.read(a + 8, &mut word).unwrap();
                        let next = u64::from_le_bytes(word) + 1;
                        view.write(a + 8, &next.to_le_bytes()).unwrap();
                    });
                }
            });
        }
    });
    let mut word = [0u8; 8];
    memory.read(a + 8, &mut word).unwrap();
    assert_eq!(u64::from_le_bytes(word), THREADS * ADDS);
}
