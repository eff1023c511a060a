//! Loaded code-object images on the simulated node: one shared image per
//! code object, mapped on every agent it is loaded on; a write into one
//! agent's mapping is seen there and nowhere else (copy-on-write); unloading
//! releases each mapping once and the shared image with the last of them;
//! a failure in the middle of a multi-agent load leaves no mapping behind.
//! HIP modules of the same bytes share one image the same way.

use std::sync::Arc;

use amdgpu_hal::backend::{
    Agent, DevicePtr, Executable, Hsa, HsaExt, HsaStatus, Profile, RoundingMode,
};
use amdgpu_sim::elf::CodeObject;
use amdgpu_sim::memory::{ImageUsage, PAGE_BYTES};
use amdgpu_sim::{Fault, HipCode, HsaCode, Sim};

use crate::sim::loader::{GFX942, GFX1100, gpus, node};

/// The image ROCr would lay out: zeros of the load size, each segment's
/// file bytes at its address less the lowest one.
fn expected_image(bytes: &[u8]) -> Vec<u8> {
    let code = CodeObject::parse(bytes).unwrap();
    let min = code.min_vaddr();
    let mut image = vec![0u8; code.max_vaddr() as usize];
    for s in &code.segments {
        let at = (s.vaddr - min) as usize;
        let from = s.offset as usize;
        image[at..at + s.filesz as usize].copy_from_slice(&bytes[from..from + s.filesz as usize]);
    }
    image
}

/// Each agent's loaded image, read back through `hsa_memory_copy`.
fn images(hsa: &dyn Hsa, exe: Executable) -> Vec<Vec<u8>> {
    hsa.executable_iterate_loaded_code_objects(exe)
        .unwrap()
        .into_iter()
        .map(|lco| {
            let base = hsa.loaded_code_object_load_base(lco).unwrap();
            let size = hsa.loaded_code_object_load_size(lco).unwrap();
            let mut out = vec![0u8; size as usize];
            hsa.memory_copy_from_device(&mut out, DevicePtr(base))
                .unwrap();
            out
        })
        .collect()
}

/// Loads `bytes` on `agents` from one reader; the reader stays alive.
fn load(hsa: &dyn Hsa, bytes: &[u8], agents: &[Agent]) -> Executable {
    let reader = hsa.code_object_reader_create_from_memory(bytes).unwrap();
    let exe = hsa
        .executable_create_alt(Profile::Full, RoundingMode::Default)
        .unwrap();
    for &agent in agents {
        hsa.executable_load_agent_code_object(exe, agent, reader)
            .unwrap();
    }
    hsa.executable_freeze(exe).unwrap();
    hsa.code_object_reader_destroy(reader).unwrap();
    exe
}

fn counter(hsa: &dyn Hsa, exe: Executable, agent: Agent) -> u64 {
    let symbol = hsa
        .executable_get_symbol_by_name(exe, "counter", Some(agent))
        .unwrap();
    hsa.symbol_variable_address(symbol).unwrap()
}

fn read_i32(hsa: &dyn Hsa, address: u64) -> i32 {
    let mut value = [0u8; 4];
    hsa.memory_copy_from_device(&mut value, DevicePtr(address))
        .unwrap();
    i32::from_le_bytes(value)
}

#[test]
fn every_agent_reads_the_one_shared_image() {
    let (sim, backend) = node("mi300x-8");
    let hsa = backend.hsa().unwrap();
    let gpus = gpus(hsa);
    let exe = load(hsa, GFX942, &gpus);
    assert_eq!(
        sim.image_usage(),
        ImageUsage {
            mappings: 8,
            shared_images: 1,
            shared_bytes: GFX942.len() as u64,
            private_pages: 0,
            unowned_mappings: 0,
        },
        "eight mappings of one image, nothing copied"
    );
    let expected = expected_image(GFX942);
    for (i, image) in images(hsa, exe).iter().enumerate() {
        assert!(
            *image == expected,
            "agent {i}: the image as ROCr lays it out"
        );
    }
    for &gpu in &gpus {
        assert_eq!(read_i32(hsa, counter(hsa, exe, gpu)), 42);
    }
    // Reading copies nothing.
    assert_eq!(sim.image_usage().private_pages, 0);
    hsa.executable_destroy(exe).unwrap();
    assert_eq!(sim.image_usage(), ImageUsage::default());
    assert!(sim.live_objects().is_empty());
}

#[test]
fn a_write_into_one_agents_image_is_seen_there_and_nowhere_else() {
    let (sim, backend) = node("mi300x-8");
    let hsa = backend.hsa().unwrap();
    let gpus = gpus(hsa);
    let exe = load(hsa, GFX942, &gpus);
    let original = expected_image(GFX942);

    // A global on GPU3 written through hsa_memory_copy.
    let on3 = counter(hsa, exe, gpus[3]);
    hsa.memory_copy_to_device(DevicePtr(on3), &7i32.to_le_bytes())
        .unwrap();
    assert_eq!(read_i32(hsa, on3), 7);
    for (i, &gpu) in gpus.iter().enumerate().filter(|&(i, _)| i != 3) {
        assert_eq!(read_i32(hsa, counter(hsa, exe, gpu)), 42, "GPU{i}");
    }
    assert_eq!(sim.image_usage().private_pages, 1);

    // Code on GPU0 overwritten across a page boundary: two pages copied,
    // the rest of each page still the image's.
    let lco = hsa.executable_iterate_loaded_code_objects(exe).unwrap()[0];
    let base0 = hsa.loaded_code_object_load_base(lco).unwrap();
    let patch = [0xabu8; 16];
    hsa.memory_copy_to_device(DevicePtr(base0 + PAGE_BYTES - 8), &patch)
        .unwrap();
    assert_eq!(sim.image_usage().private_pages, 3);

    // A device-to-device copy from GPU0's image into GPU1's.
    let lco1 = hsa.executable_iterate_loaded_code_objects(exe).unwrap()[1];
    let base1 = hsa.loaded_code_object_load_base(lco1).unwrap();
    hsa.memory_copy(
        DevicePtr(base1 + 0x100),
        DevicePtr(base0 + PAGE_BYTES - 8),
        16,
    )
    .unwrap();

    let now = images(hsa, exe);
    let mut on0 = original.clone();
    on0[PAGE_BYTES as usize - 8..PAGE_BYTES as usize + 8].copy_from_slice(&patch);
    assert!(
        now[0] == on0,
        "GPU0 reads its write and the image around it"
    );
    let mut on1 = original.clone();
    on1[0x100..0x110].copy_from_slice(&patch);
    assert!(now[1] == on1, "GPU1 reads the copy into it");
    let at = (on3
        - hsa
            .loaded_code_object_load_delta(
                hsa.executable_iterate_loaded_code_objects(exe).unwrap()[3],
            )
            .unwrap() as u64) as usize;
    let min = CodeObject::parse(GFX942).unwrap().min_vaddr() as usize;
    let mut on3_image = original.clone();
    on3_image[at - min..at - min + 4].copy_from_slice(&7i32.to_le_bytes());
    assert!(now[3] == on3_image, "GPU3 reads its global's new value");
    for (i, image) in now.iter().enumerate().skip(4) {
        assert!(*image == original, "GPU{i} is unchanged");
    }
    assert!(now[2] == original, "GPU2 is unchanged");
    // The shared image itself is never written.
    assert_eq!(sim.image_usage().shared_images, 1);

    // A second executable of the same bytes maps the loaded file afresh.
    let again = load(hsa, GFX942, &gpus[..2]);
    assert!(images(hsa, again).iter().all(|image| *image == original));
    hsa.executable_destroy(again).unwrap();
    hsa.executable_destroy(exe).unwrap();
    assert_eq!(sim.image_usage(), ImageUsage::default());
    assert!(sim.live_objects().is_empty());
}

#[test]
fn unloading_releases_each_mapping_once_and_the_image_with_the_last() {
    let (sim, backend) = node("mi300x-8");
    let hsa = backend.hsa().unwrap();
    let gpus = gpus(hsa);
    // Two executables from one reader share its image; a third reader of
    // another code object has its own.
    let reader = hsa.code_object_reader_create_from_memory(GFX942).unwrap();
    let executables: Vec<Executable> = (0..2)
        .map(|_| {
            let exe = hsa
                .executable_create_alt(Profile::Full, RoundingMode::Default)
                .unwrap();
            for &gpu in &gpus {
                hsa.executable_load_agent_code_object(exe, gpu, reader)
                    .unwrap();
            }
            hsa.executable_freeze(exe).unwrap();
            exe
        })
        .collect();
    hsa.code_object_reader_destroy(reader).unwrap();
    let usage = sim.image_usage();
    assert_eq!((usage.mappings, usage.shared_images), (16, 1));

    hsa.executable_destroy(executables[0]).unwrap();
    let usage = sim.image_usage();
    assert_eq!((usage.mappings, usage.shared_images), (8, 1));
    // Destroying it again releases nothing more.
    assert_eq!(
        hsa.executable_destroy(executables[0]),
        Err(HsaStatus::ErrorInvalidExecutable)
    );
    assert_eq!(sim.image_usage().mappings, 8);
    // The reader is gone; the image lives on in its mappings.
    let expected = expected_image(GFX942);
    assert!(
        images(hsa, executables[1])
            .iter()
            .all(|image| *image == expected)
    );
    hsa.executable_destroy(executables[1]).unwrap();
    assert_eq!(sim.image_usage(), ImageUsage::default());
    assert!(sim.live_objects().is_empty());
}

#[test]
fn a_failure_in_the_middle_of_a_multi_agent_load_leaves_no_mapping() {
    for (nth, persistent) in [(1, false), (5, false), (8, false), (5, true)] {
        let (sim, backend) = node("mi300x-8");
        let hsa = backend.hsa().unwrap();
        let gpus = gpus(hsa);
        let mut fault = Fault::nth_of(
            "hsa_executable_load_agent_code_object",
            nth,
            HsaCode::OUT_OF_RESOURCES,
        );
        if persistent {
            fault = fault.persistent();
        }
        sim.inject_hsa(fault);
        let reader = hsa.code_object_reader_create_from_memory(GFX942).unwrap();
        let exe = hsa
            .executable_create_alt(Profile::Full, RoundingMode::Default)
            .unwrap();
        let loaded = gpus
            .iter()
            .take_while(|&&gpu| {
                hsa.executable_load_agent_code_object(exe, gpu, reader)
                    .is_ok()
            })
            .count();
        assert_eq!(loaded as u64, nth - 1);
        let usage = sim.image_usage();
        assert_eq!(usage.mappings, loaded as u64, "fault at load {nth}");
        assert_eq!(usage.shared_images, u64::from(loaded > 0));
        assert_eq!(usage.unowned_mappings, 0);
        hsa.executable_destroy(exe).unwrap();
        hsa.code_object_reader_destroy(reader).unwrap();
        assert_eq!(sim.image_usage(), ImageUsage::default());
        assert!(sim.live_objects().is_empty());
    }
    // A load refused by the agent's ISA maps nothing either.
    let (sim, backend) = node("mi300x-8");
    let hsa = backend.hsa().unwrap();
    let reader = hsa.code_object_reader_create_from_memory(GFX1100).unwrap();
    let exe = hsa
        .executable_create_alt(Profile::Full, RoundingMode::Default)
        .unwrap();
    assert_eq!(
        hsa.executable_load_agent_code_object(exe, gpus(hsa)[0], reader),
        Err(HsaStatus::ErrorIncompatibleArguments)
    );
    assert_eq!(sim.image_usage(), ImageUsage::default());
    hsa.executable_destroy(exe).unwrap();
    hsa.code_object_reader_destroy(reader).unwrap();
    assert!(sim.live_objects().is_empty());
}

#[test]
fn hip_modules_of_the_same_bytes_share_one_image() {
    let sim = Sim::preset("mi300x-8").unwrap().unwrap();
    sim.hip_init(0).unwrap();
    let op = "hipModuleLoadData";
    let m0 = sim.hip_module_load(op, 0, GFX942).unwrap();
    let m1 = sim
        .hip_module_load_shared(op, 1, Arc::from(GFX942))
        .unwrap();
    let usage = sim.image_usage();
    assert_eq!(
        (usage.mappings, usage.shared_images, usage.shared_bytes),
        (2, 1, GFX942.len() as u64)
    );
    let (g0, size) = sim.hip_module_get_global(m0, "counter").unwrap();
    let (g1, _) = sim.hip_module_get_global(m1, "counter").unwrap();
    assert_eq!(size, 4);
    assert_ne!(g0, g1);
    let read = |address: u64| {
        let mut value = [0u8; 4];
        sim.hip_read(address, &mut value).unwrap();
        i32::from_le_bytes(value)
    };
    assert_eq!((read(g0), read(g1)), (42, 42));
    sim.hip_write(g0, &9i32.to_le_bytes()).unwrap();
    assert_eq!((read(g0), read(g1)), (9, 42));
    assert_eq!(sim.image_usage().private_pages, 1);

    // Other bytes, another image; a foreign target maps nothing.
    let mut other = GFX942.to_vec();
    other.push(0);
    let m2 = sim.hip_module_load(op, 2, &other).unwrap();
    assert_eq!(sim.image_usage().shared_images, 2);
    assert_eq!(
        sim.hip_module_load(op, 3, GFX1100),
        Err(HipCode::NO_BINARY_FOR_GPU)
    );
    assert_eq!(sim.image_usage().mappings, 3);

    // Unloading the first module leaves the second's image as it was; a
    // later load of the bytes shares it and reads the file's value.
    sim.hip_module_unload(m0).unwrap();
    assert_eq!(
        sim.hip_module_unload(m0),
        Err(HipCode::INVALID_RESOURCE_HANDLE)
    );
    let m3 = sim.hip_module_load(op, 3, GFX942).unwrap();
    let usage = sim.image_usage();
    assert_eq!((usage.mappings, usage.shared_images), (3, 2));
    let (g3, _) = sim.hip_module_get_global(m3, "counter").unwrap();
    assert_eq!(read(g3), 42);
    for m in [m1, m2, m3] {
        sim.hip_module_unload(m).unwrap();
    }
    assert_eq!(sim.image_usage(), ImageUsage::default());
    assert_eq!(sim.live_objects().hip_modules, 0);
}
