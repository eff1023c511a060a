//! The simulated loader on real HSACOs built by clang (fixtures/hsaco):
//! symbols from the dynamic symbol table, kernel-descriptor facts, the ISA
//! check at load, freeze rules and the loaded-code-object extension.
//! Expected values are llvm-readelf-19's view of the same files.

use std::sync::Arc;

use amdgpu_hal::StatusCode;
use amdgpu_hal::backend::{
    Agent, Backend, CallResultExt, DeviceType, Executable, Hsa, HsaExt, HsaStatus, Profile,
    RoundingMode, SymbolKind,
};
use amdgpu_sim::Sim;

pub(crate) const GFX942: &[u8] =
    include_bytes!("../../../fixtures/hsaco/vector_add.gfx942_sramecc+_xnack-.cov5.hsaco");
pub(crate) const GFX1100: &[u8] =
    include_bytes!("../../../fixtures/hsaco/vector_add.gfx1100.cov5.hsaco");

/// A simulated `machine` with HSA initialized (shared with `sim_images`).
pub(crate) fn node(machine: &str) -> (Arc<Sim>, Backend) {
    let sim = Arc::new(Sim::preset(machine).unwrap().unwrap());
    let backend = Backend::from_sim(Arc::clone(&sim), machine);
    backend.hsa().unwrap().init().unwrap();
    (sim, backend)
}

/// The GPU agents of `hsa`, in HSA order.
pub(crate) fn gpus(hsa: &dyn Hsa) -> Vec<Agent> {
    hsa.iterate_agents()
        .unwrap()
        .into_iter()
        .filter(|&a| hsa.agent_device_type(a).unwrap() == DeviceType::Gpu)
        .collect()
}

fn load(hsa: &dyn Hsa, code: &[u8], agents: &[Agent]) -> Result<Executable, HsaStatus> {
    let reader = hsa.code_object_reader_create_from_memory(code)?;
    let exe = hsa.executable_create_alt(Profile::Full, RoundingMode::Default)?;
    for &agent in agents {
        hsa.executable_load_agent_code_object(exe, agent, reader)?;
    }
    hsa.executable_freeze(exe)?;
    hsa.code_object_reader_destroy(reader)?;
    Ok(exe)
}

#[test]
fn kernels_and_variables_come_from_the_dynamic_symbol_table() {
    let (sim, backend) = node("mi300x-8");
    let hsa = backend.hsa().unwrap();
    let gpus = gpus(hsa);
    let exe = load(hsa, GFX942, &gpus).unwrap();

    let loaded = hsa.executable_iterate_loaded_code_objects(exe).unwrap();
    assert_eq!(loaded.len(), 8);
    let mut bases = std::collections::BTreeSet::new();
    for (i, (&lco, &gpu)) in loaded.iter().zip(&gpus).enumerate() {
        assert_eq!(
            hsa.loaded_code_object_agent(lco).unwrap(),
            gpu,
            "loaded code object {i}"
        );
        // Last PT_LOAD: vaddr 0x3f28 + memsz 4; the first is at vaddr 0.
        assert_eq!(hsa.loaded_code_object_load_size(lco).unwrap(), 0x3f2c);
        let delta = hsa.loaded_code_object_load_delta(lco).unwrap();
        assert_eq!(hsa.loaded_code_object_load_base(lco).unwrap(), delta as u64);
        assert!(bases.insert(delta));

        let kernel = hsa
            .executable_get_symbol_by_name(exe, "vector_add.kd", Some(gpu))
            .unwrap();
        assert_eq!(hsa.symbol_kind(kernel).unwrap(), SymbolKind::Kernel);
        assert_eq!(hsa.symbol_name(kernel).unwrap(), "vector_add.kd");
        assert_eq!(hsa.symbol_agent(kernel).unwrap(), gpu);
        assert_eq!(
            hsa.symbol_kernel_object(kernel).unwrap(),
            delta as u64 + 0x840
        );
        assert_eq!(hsa.symbol_kernarg_segment_size(kernel).unwrap(), 28);
        assert_eq!(hsa.symbol_kernarg_segment_alignment(kernel).unwrap(), 16);
        assert_eq!(hsa.symbol_group_segment_size(kernel).unwrap(), 0);
        assert_eq!(hsa.symbol_private_segment_size(kernel).unwrap(), 0);
        assert_eq!(
            hsa.symbol_variable_address(kernel),
            Err(HsaStatus::ErrorInvalidArgument)
        );

        let bump = hsa
            .executable_get_symbol_by_name(exe, "bump.kd", Some(gpu))
            .unwrap();
        assert_eq!(
            hsa.symbol_kernel_object(bump).unwrap(),
            delta as u64 + 0x880
        );
        assert_eq!(hsa.symbol_kernarg_segment_size(bump).unwrap(), 8);

        let counter = hsa
            .executable_get_symbol_by_name(exe, "counter", Some(gpu))
            .unwrap();
        assert_eq!(hsa.symbol_kind(counter).unwrap(), SymbolKind::Variable);
        let address = hsa.symbol_variable_address(counter).unwrap();
        assert_eq!(address, delta as u64 + 0x3f28);
        assert_eq!(hsa.symbol_variable_size(counter).unwrap(), 4);
        assert_eq!(
            hsa.symbol_kernel_object(counter),
            Err(HsaStatus::ErrorInvalidArgument)
        );
        // The image is mapped: the global reads its initializer (42).
        let mut value = [0u8; 4];
        hsa.memory_copy_from_device(&mut value, amdgpu_hal::backend::DevicePtr(address))
            .unwrap();
        assert_eq!(i32::from_le_bytes(value), 42);
    }
    // Entry points (FUNC symbols) are not loader symbols; neither are unknown names.
    let status = hsa
        .executable_get_symbol_by_name(exe, "vector_add", Some(gpus[0]))
        .call_status("hsa_executable_get_symbol_by_name")
        .unwrap_err();
    assert_eq!(status.code(), StatusCode::NotFound);
    assert!(status.mentions("HSA_STATUS_ERROR_INVALID_SYMBOL_NAME"));
    assert_eq!(
        hsa.executable_get_symbol_by_name(exe, "vector_add.kd", None),
        Err(HsaStatus::ErrorInvalidSymbolName)
    );

    hsa.executable_destroy(exe).unwrap();
    assert!(sim.live_objects().is_empty());
}

#[test]
fn freeze_rules() {
    let (_sim, backend) = node("mi300x-8");
    let hsa = backend.hsa().unwrap();
    let gpu = gpus(hsa)[0];
    let reader = hsa.code_object_reader_create_from_memory(GFX942).unwrap();
    let exe = hsa
        .executable_create_alt(Profile::Full, RoundingMode::Default)
        .unwrap();
    hsa.executable_load_agent_code_object(exe, gpu, reader)
        .unwrap();
    // Symbols need a frozen executable.
    assert_eq!(
        hsa.executable_get_symbol_by_name(exe, "vector_add.kd", Some(gpu)),
        Err(HsaStatus::ErrorInvalidExecutable)
    );
    hsa.executable_freeze(exe).unwrap();
    assert!(
        hsa.executable_get_symbol_by_name(exe, "vector_add.kd", Some(gpu))
            .is_ok()
    );
    // No load after freeze, no second freeze.
    let status = hsa
        .executable_load_agent_code_object(exe, gpu, reader)
        .call_status("hsa_executable_load_agent_code_object")
        .unwrap_err();
    assert_eq!(status.code(), StatusCode::FailedPrecondition);
    assert!(status.mentions("HSA_STATUS_ERROR_FROZEN_EXECUTABLE"));
    assert_eq!(
        hsa.executable_freeze(exe),
        Err(HsaStatus::ErrorFrozenExecutable)
    );
    // The same code object twice on one agent redefines its symbols.
    let second = hsa
        .executable_create_alt(Profile::Full, RoundingMode::Default)
        .unwrap();
    hsa.executable_load_agent_code_object(second, gpu, reader)
        .unwrap();
    assert_eq!(
        hsa.executable_load_agent_code_object(second, gpu, reader),
        Err(HsaStatus::ErrorVariableAlreadyDefined)
    );
    hsa.code_object_reader_destroy(reader).unwrap();
    hsa.executable_destroy(exe).unwrap();
    hsa.executable_destroy(second).unwrap();
    assert_eq!(
        hsa.executable_destroy(exe),
        Err(HsaStatus::ErrorInvalidExecutable)
    );
    assert_eq!(
        hsa.code_object_reader_destroy(reader),
        Err(HsaStatus::ErrorInvalidCodeObjectReader)
    );
}

#[test]
fn load_checks_the_target_against_the_agent_isas_like_rocr() {
    let (sim, backend) = node("mi300x-8");
    let hsa = backend.hsa().unwrap();
    let gpu = gpus(hsa)[0];
    let cpu = hsa.iterate_agents().unwrap()[0];
    let exe = hsa
        .executable_create_alt(Profile::Full, RoundingMode::Default)
        .unwrap();
    let wrong = hsa.code_object_reader_create_from_memory(GFX1100).unwrap();
    let status = hsa
        .executable_load_agent_code_object(exe, gpu, wrong)
        .call_status("hsa_executable_load_agent_code_object")
        .unwrap_err();
    assert_eq!(status.code(), StatusCode::Incompatible);
    assert!(status.mentions("HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS"));
    let right = hsa.code_object_reader_create_from_memory(GFX942).unwrap();
    assert_eq!(
        hsa.executable_load_agent_code_object(exe, cpu, right),
        Err(HsaStatus::ErrorIncompatibleArguments)
    );
    // An unknown EF_AMDGPU_MACH is an invalid ISA name.
    let mut unknown = GFX942.to_vec();
    unknown[48] = 0x27;
    let unknown = hsa.code_object_reader_create_from_memory(&unknown).unwrap();
    assert_eq!(
        hsa.executable_load_agent_code_object(exe, gpu, unknown),
        Err(HsaStatus::ErrorInvalidIsaName)
    );
    // xnack+ code does not run on an xnack- agent.
    let mut xnack_on = GFX942.to_vec();
    xnack_on[49] |= 0x03;
    let xnack_on = hsa
        .code_object_reader_create_from_memory(&xnack_on)
        .unwrap();
    assert_eq!(
        hsa.executable_load_agent_code_object(exe, gpu, xnack_on),
        Err(HsaStatus::ErrorIncompatibleArguments)
    );
    for reader in [wrong, right, unknown, xnack_on] {
        hsa.code_object_reader_destroy(reader).unwrap();
    }
    hsa.executable_destroy(exe).unwrap();
    assert!(sim.live_objects().is_empty());

    // gfx1100 code loads on the W7900.
    let (_, w7900) = node("w7900");
    let gpu = gpus(w7900.hsa().unwrap())[0];
    let exe = load(w7900.hsa().unwrap(), GFX1100, &[gpu]).unwrap();
    assert!(
        w7900
            .hsa()
            .unwrap()
            .executable_get_symbol_by_name(exe, "bump.kd", Some(gpu))
            .is_ok()
    );
    assert_eq!(
        load(w7900.hsa().unwrap(), GFX942, &[gpu]).unwrap_err(),
        HsaStatus::ErrorIncompatibleArguments
    );
}

#[test]
fn bad_bytes_give_rocr_errors_without_panicking() {
    let (_sim, backend) = node("w7900");
    let hsa = backend.hsa().unwrap();
    let gpu = gpus(hsa)[0];
    assert_eq!(
        hsa.code_object_reader_create_from_memory(&[]),
        Err(HsaStatus::ErrorInvalidArgument)
    );
    let exe = hsa
        .executable_create_alt(Profile::Full, RoundingMode::Default)
        .unwrap();
    let mut inputs: Vec<Vec<u8>> = vec![
        b"not an elf".to_vec(),
        GFX1100[..100].to_vec(),
        GFX1100[..64].to_vec(),
    ];
    let mut osabi = GFX1100.to_vec();
    osabi[7] = 0;
    inputs.push(osabi);
    let mut shoff = GFX1100.to_vec();
    shoff[40..48].copy_from_slice(&u64::MAX.to_le_bytes());
    inputs.push(shoff);
    for (i, bytes) in inputs.iter().enumerate() {
        let reader = hsa.code_object_reader_create_from_memory(bytes).unwrap();
        assert_eq!(
            hsa.executable_load_agent_code_object(exe, gpu, reader),
            Err(HsaStatus::ErrorInvalidCodeObject),
            "input {i}"
        );
        hsa.code_object_reader_destroy(reader).unwrap();
    }
}
