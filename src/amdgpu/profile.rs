//! Profiling metadata: stable content hashes and the registry of loaded
//! executables (IREE's `profile_metadata.c`).
//!
//! Hashes are 128 bits: two standard SipHash-2-4 outputs under two fixed keys,
//! so they are identical across runs, hosts and IREE itself. The registry
//! hands out executable ids (from 1), keeps one record per function with its
//! pipeline hash, and — once the code object is loaded — the exact code-object
//! bytes and each device's loader range, so a profile captured later is
//! self-contained.

use std::collections::HashMap;
use std::hash::Hasher;
use std::sync::{Mutex, MutexGuard};

use siphasher::sip::SipHasher24;

use crate::backend::SharedBytes;
use crate::status::{Result, Status};

/// SipHash key of the first hash word (the SipHash reference test key).
pub const HASH_KEY_A: (u64, u64) = (0x0706050403020100, 0x0f0e0d0c0b0a0908);
/// SipHash key of the second hash word.
pub const HASH_KEY_B: (u64, u64) = (0x1716151413121110, 0x1f1e1d1c1b1a1918);

/// A 128-bit content hash: `[SipHash-2-4(key A), SipHash-2-4(key B)]`.
pub type Hash128 = [u64; 2];

struct Hash128Builder([SipHasher24; 2]);

impl Hash128Builder {
    fn new() -> Hash128Builder {
        Hash128Builder([
            SipHasher24::new_with_keys(HASH_KEY_A.0, HASH_KEY_A.1),
            SipHasher24::new_with_keys(HASH_KEY_B.0, HASH_KEY_B.1),
        ])
    }
    fn bytes(&mut self, data: &[u8]) -> &mut Self {
        for h in &mut self.0 {
            h.write(data);
        }
        self
    }
    fn finish(&self) -> Hash128 {
        [self.0[0].finish(), self.0[1].finish()]
    }
}

/// The hash of the exact code-object bytes.
pub fn hash_code_object(code_object: &[u8]) -> Hash128 {
    Hash128Builder::new().bytes(code_object).finish()
}

/// What the pipeline hash and the function record are made of: the export's
/// reflected name and parameter count and its host kernel-args counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FunctionDescription<'a> {
    /// The export's reflection name.
    pub name: &'a str,
    /// Reflected parameters of the export.
    pub parameter_count: u32,
    /// HAL constants (from the host kernel args).
    pub constant_count: u16,
    /// HAL bindings (from the host kernel args).
    pub binding_count: u16,
    /// Workgroup size (from the host kernel args).
    pub workgroup_size: [u32; 3],
}

/// The pipeline (function) hash: both keys over the LE sequence
/// `hash[0] u64, hash[1] u64, ordinal u32, constants u16, bindings u16,
/// wg x/y/z u32, name length u64, name bytes`.
pub fn hash_pipeline(
    code_object_hash: Hash128,
    ordinal: u32,
    f: &FunctionDescription<'_>,
) -> Hash128 {
    let mut b = Hash128Builder::new();
    b.bytes(&code_object_hash[0].to_le_bytes())
        .bytes(&code_object_hash[1].to_le_bytes())
        .bytes(&ordinal.to_le_bytes())
        .bytes(&f.constant_count.to_le_bytes())
        .bytes(&f.binding_count.to_le_bytes());
    for dim in f.workgroup_size {
        b.bytes(&dim.to_le_bytes());
    }
    b.bytes(&(f.name.len() as u64).to_le_bytes())
        .bytes(f.name.as_bytes());
    b.finish()
}

/// Flag: the executable record carries a code-object hash.
pub const EXECUTABLE_FLAG_CODE_OBJECT_HASH: u32 = 1 << 0;
/// Flag: the function record carries a pipeline hash.
pub const FUNCTION_FLAG_FUNCTION_HASH: u32 = 1 << 0;
/// Flag: the code-object record carries its hash.
pub const CODE_OBJECT_FLAG_CODE_OBJECT_HASH: u32 = 1 << 0;

/// One registered executable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExecutableRecord {
    /// Id assigned by the registry (≥ 1).
    pub executable_id: u64,
    /// Number of functions.
    pub function_count: u32,
    /// `EXECUTABLE_FLAG_*`.
    pub flags: u32,
    /// Code-object hash (zero without the flag).
    pub code_object_hash: Hash128,
}

/// One function of a registered executable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionRecord {
    /// Owning executable.
    pub executable_id: u64,
    /// Export ordinal.
    pub function_ordinal: u32,
    /// `FUNCTION_FLAG_*`.
    pub flags: u32,
    /// HAL constants.
    pub constant_count: u16,
    /// HAL bindings.
    pub binding_count: u16,
    /// Reflected parameters.
    pub parameter_count: u32,
    /// Workgroup size.
    pub workgroup_size: [u32; 3],
    /// Pipeline hash (zero without the flag).
    pub function_hash: Hash128,
    /// Reflection name.
    pub name: String,
}

/// The exact code-object bytes of a registered executable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeObjectRecord {
    /// Owning executable.
    pub executable_id: u64,
    /// Code-object id (the executable id: one code object per executable).
    pub code_object_id: u64,
    /// `CODE_OBJECT_FLAG_*`.
    pub flags: u32,
    /// Code-object hash.
    pub code_object_hash: Hash128,
    /// The bytes, shared (not copied per reader; a range of the caller's
    /// file when it shares that).
    pub data: SharedBytes,
}

/// Where the loader placed a code object on one device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CodeObjectLoad {
    /// Physical device ordinal.
    pub physical_device_ordinal: u32,
    /// Loader load delta (`HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA`).
    pub load_delta: i64,
    /// Loaded bytes (`..._INFO_LOAD_SIZE`).
    pub load_size: u64,
}

/// A [`CodeObjectLoad`] attached to its executable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CodeObjectLoadRecord {
    /// Owning executable.
    pub executable_id: u64,
    /// Code-object id.
    pub code_object_id: u64,
    /// The load.
    pub load: CodeObjectLoad,
}

#[derive(Default)]
struct Registry {
    next_executable_id: u64,
    executables: Vec<ExecutableRecord>,
    executable_index: HashMap<u64, usize>,
    functions: Vec<FunctionRecord>,
    function_ranges: HashMap<u64, std::ops::Range<usize>>,
    code_objects: Vec<CodeObjectRecord>,
    code_object_index: HashMap<u64, usize>,
    loads: Vec<CodeObjectLoadRecord>,
    load_index: HashMap<(u64, u32), usize>,
}

/// The profile-metadata registry of one logical device. Thread-safe; every
/// lookup is a hash-map probe (IREE scans its record arrays).
pub struct ProfileRegistry {
    inner: Mutex<Registry>,
}

impl Default for ProfileRegistry {
    fn default() -> Self {
        ProfileRegistry::new()
    }
}

impl std::fmt::Debug for ProfileRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = self.lock();
        f.debug_struct("ProfileRegistry")
            .field("executables", &r.executables.len())
            .field("functions", &r.functions.len())
            .field("code_objects", &r.code_objects.len())
            .field("loads", &r.loads.len())
            .finish()
    }
}

impl ProfileRegistry {
    /// An empty registry; the first executable gets id 1.
    pub fn new() -> ProfileRegistry {
        ProfileRegistry {
            inner: Mutex::new(Registry {
                next_executable_id: 1,
                ..Registry::default()
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Registry> {
        // Records are only appended after every check passed, so a panic in
        // another thread cannot leave them half-written: keep using them.
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Registers an executable's identity and functions; returns its id.
    /// With a code-object hash each function also gets its pipeline hash.
    pub fn register_executable(
        &self,
        functions: &[FunctionDescription<'_>],
        code_object_hash: Option<Hash128>,
    ) -> Result<u64> {
        let function_count = u32::try_from(functions.len()).map_err(|_| {
            Status::out_of_range("profile executable function count exceeds uint32_t")
        })?;
        if functions
            .iter()
            .any(|f| u32::try_from(f.name.len()).is_err())
        {
            return Err(Status::out_of_range(
                "profile executable function name is too long",
            ));
        }
        let mut r = self.lock();
        let executable_id = r.next_executable_id;
        let mut records = Vec::with_capacity(functions.len());
        for (ordinal, f) in (0u32..).zip(functions) {
            let (flags, function_hash) = match code_object_hash {
                Some(h) => (FUNCTION_FLAG_FUNCTION_HASH, hash_pipeline(h, ordinal, f)),
                None => (0, [0, 0]),
            };
            records.push(FunctionRecord {
                executable_id,
                function_ordinal: ordinal,
                flags,
                constant_count: f.constant_count,
                binding_count: f.binding_count,
                parameter_count: f.parameter_count,
                workgroup_size: f.workgroup_size,
                function_hash,
                name: f.name.to_owned(),
            });
        }
        let index = r.executables.len();
        r.executables.push(ExecutableRecord {
            executable_id,
            function_count,
            flags: if code_object_hash.is_some() {
                EXECUTABLE_FLAG_CODE_OBJECT_HASH
            } else {
                0
            },
            code_object_hash: code_object_hash.unwrap_or([0, 0]),
        });
        r.executable_index.insert(executable_id, index);
        let start = r.functions.len();
        r.functions.extend(records);
        let end = r.functions.len();
        r.function_ranges.insert(executable_id, start..end);
        r.next_executable_id += 1;
        Ok(executable_id)
    }

    /// Attaches the code-object bytes and per-device loads to a registered
    /// executable: id 0 or empty bytes are `INVALID_ARGUMENT`, an unknown id
    /// `NOT_FOUND`, a second registration `ALREADY_EXISTS`.
    pub fn register_executable_artifacts(
        &self,
        executable_id: u64,
        code_object: impl Into<SharedBytes>,
        code_object_hash: Option<Hash128>,
        loads: &[CodeObjectLoad],
    ) -> Result<()> {
        let code_object = code_object.into();
        if executable_id == 0 {
            return Err(Status::invalid_argument(
                "profile executable id is required",
            ));
        }
        if code_object.is_empty() {
            return Err(Status::invalid_argument(
                "profile executable code-object data is required",
            ));
        }
        if u32::try_from(loads.len()).is_err() {
            return Err(Status::out_of_range(
                "profile executable code-object load count exceeds uint32_t",
            ));
        }
        let mut r = self.lock();
        if !r.executable_index.contains_key(&executable_id) {
            return Err(crate::status!(
                NotFound,
                "profile executable metadata not found for executable {executable_id}"
            ));
        }
        if r.code_object_index.contains_key(&executable_id) {
            return Err(crate::status!(
                AlreadyExists,
                "profile executable code-object artifacts already registered for executable {executable_id}"
            ));
        }
        let index = r.code_objects.len();
        r.code_objects.push(CodeObjectRecord {
            executable_id,
            code_object_id: executable_id,
            flags: if code_object_hash.is_some() {
                CODE_OBJECT_FLAG_CODE_OBJECT_HASH
            } else {
                0
            },
            code_object_hash: code_object_hash.unwrap_or([0, 0]),
            data: code_object,
        });
        r.code_object_index.insert(executable_id, index);
        for load in loads {
            let index = r.loads.len();
            r.loads.push(CodeObjectLoadRecord {
                executable_id,
                code_object_id: executable_id,
                load: *load,
            });
            r.load_index
                .insert((executable_id, load.physical_device_ordinal), index);
        }
        Ok(())
    }

    /// The load record of `executable_id` on `physical_device_ordinal`.
    pub fn lookup_code_object_load(
        &self,
        executable_id: u64,
        physical_device_ordinal: u32,
    ) -> Result<CodeObjectLoadRecord> {
        let r = self.lock();
        r.load_index
            .get(&(executable_id, physical_device_ordinal))
            .and_then(|&i| r.loads.get(i).copied())
            .ok_or_else(|| {
                crate::status!(
                    NotFound,
                    "profile code-object load not found for executable {executable_id} on \
                     physical device {physical_device_ordinal}"
                )
            })
    }

    /// The executable record of `executable_id`, if registered.
    pub fn executable(&self, executable_id: u64) -> Option<ExecutableRecord> {
        let r = self.lock();
        r.executable_index
            .get(&executable_id)
            .and_then(|&i| r.executables.get(i).cloned())
    }

    /// The code-object record of `executable_id`, if its artifacts are registered.
    pub fn code_object(&self, executable_id: u64) -> Option<CodeObjectRecord> {
        let r = self.lock();
        r.code_object_index
            .get(&executable_id)
            .and_then(|&i| r.code_objects.get(i).cloned())
    }

    /// Every executable record, in registration order.
    pub fn executables(&self) -> Vec<ExecutableRecord> {
        self.lock().executables.clone()
    }

    /// The function records of `executable_id`, in ordinal order.
    pub fn functions(&self, executable_id: u64) -> Vec<FunctionRecord> {
        let r = self.lock();
        r.function_ranges
            .get(&executable_id)
            .and_then(|range| r.functions.get(range.clone()))
            .map(<[FunctionRecord]>::to_vec)
            .unwrap_or_default()
    }

    /// Number of function records across all executables.
    pub fn function_record_count(&self) -> usize {
        self.lock().functions.len()
    }

    /// Number of code-object records.
    pub fn code_object_record_count(&self) -> usize {
        self.lock().code_objects.len()
    }

    /// Number of code-object load records.
    pub fn code_object_load_record_count(&self) -> usize {
        self.lock().loads.len()
    }
}

#[cfg(test)]
mod tests {
    //! IREE's `profile_metadata_test.cc` with its golden values.
    use super::*;
    use crate::status::StatusCode;

    fn function(parameter_count: u32) -> FunctionDescription<'static> {
        FunctionDescription {
            name: "test_dispatch",
            parameter_count,
            constant_count: 3,
            binding_count: 2,
            workgroup_size: [8, 4, 1],
        }
    }

    #[test]
    fn hash_code_object_golden() {
        let data = [
            0x7f, b'E', b'L', b'F', 0x02, 0x01, 0x01, 0x00, b'I', b'R', b'E', b'E', 0x00, 0x10,
            0x80, 0xff,
        ];
        assert_eq!(
            hash_code_object(&data),
            [0xc928aa6b62b629a9, 0xd1a52f9c3082fba5]
        );
    }

    #[test]
    fn register_executable_records_only_identity() {
        let registry = ProfileRegistry::new();
        let id = registry
            .register_executable(
                &[function(0)],
                Some([0x1111111111111111, 0x2222222222222222]),
            )
            .unwrap();
        assert_eq!(id, 1);
        let records = registry.executables();
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].executable_id, id);
        assert_eq!(records[0].function_count, 1);
        assert_eq!(records[0].flags, EXECUTABLE_FLAG_CODE_OBJECT_HASH);
        assert_eq!(registry.function_record_count(), 1);
        assert_eq!(registry.code_object_record_count(), 0);
        assert_eq!(registry.code_object_load_record_count(), 0);
    }

    #[test]
    fn register_executable_computes_stable_pipeline_hash() {
        let registry = ProfileRegistry::new();
        let id = registry
            .register_executable(
                &[function(3)],
                Some([0x0706050403020100, 0x1716151413121110]),
            )
            .unwrap();
        let functions = registry.functions(id);
        assert_eq!(functions.len(), 1);
        let f = &functions[0];
        assert_eq!(f.flags, FUNCTION_FLAG_FUNCTION_HASH);
        assert_eq!((f.executable_id, f.function_ordinal), (id, 0));
        assert_eq!(
            (f.constant_count, f.binding_count, f.parameter_count),
            (3, 2, 3)
        );
        assert_eq!(f.workgroup_size, [8, 4, 1]);
        assert_eq!(f.function_hash, [0x12dbd8b44277f553, 0x873c5d1c5596dce4]);
        assert_eq!(f.name, "test_dispatch");
    }

    #[test]
    fn register_executable_without_hash_has_no_hash_flags() {
        let registry = ProfileRegistry::new();
        let id = registry.register_executable(&[function(0)], None).unwrap();
        assert_eq!(registry.functions(id)[0].flags, 0);
        assert_eq!(registry.executable(id).unwrap().flags, 0);
        assert_eq!(registry.register_executable(&[], None).unwrap(), 2);
    }

    #[test]
    fn register_executable_artifacts_attach_to_identity() {
        let registry = ProfileRegistry::new();
        let hash = [0x1111111111111111, 0x2222222222222222];
        let id = registry
            .register_executable(&[function(0)], Some(hash))
            .unwrap();
        let data: std::sync::Arc<[u8]> = std::sync::Arc::from(&[0x7f, b'E', b'L', b'F', 0x01][..]);
        let loads = [
            CodeObjectLoad {
                physical_device_ordinal: 0,
                load_delta: 0x1000,
                load_size: 0x2000,
            },
            CodeObjectLoad {
                physical_device_ordinal: 1,
                load_delta: 0x3000,
                load_size: 0x4000,
            },
        ];
        registry
            .register_executable_artifacts(id, data.clone(), Some(hash), &loads)
            .unwrap();
        assert_eq!(registry.code_object_record_count(), 1);
        assert_eq!(registry.code_object_load_record_count(), 2);
        let rec = registry.lookup_code_object_load(id, 1).unwrap();
        assert_eq!((rec.executable_id, rec.code_object_id), (id, id));
        assert_eq!((rec.load.load_delta, rec.load.load_size), (0x3000, 0x4000));
        assert_eq!(&*registry.code_object(id).unwrap().data, &*data);
        let err = registry
            .register_executable_artifacts(id, data, Some(hash), &loads)
            .unwrap_err();
        assert_eq!(err.code(), StatusCode::AlreadyExists);
        assert_eq!(
            registry.lookup_code_object_load(id, 2).unwrap_err().code(),
            StatusCode::NotFound
        );
    }

    #[test]
    fn register_executable_artifacts_requires_identity() {
        let registry = ProfileRegistry::new();
        let data: std::sync::Arc<[u8]> = std::sync::Arc::from(&[0x7f, b'E', b'L', b'F', 0x01][..]);
        let err = registry
            .register_executable_artifacts(42, data.clone(), None, &[])
            .unwrap_err();
        assert_eq!(err.code(), StatusCode::NotFound);
        assert!(err.mentions("executable 42"));
        let err = registry
            .register_executable_artifacts(0, data, None, &[])
            .unwrap_err();
        assert_eq!(err.code(), StatusCode::InvalidArgument);
        let id = registry.register_executable(&[], None).unwrap();
        let err = registry
            .register_executable_artifacts(id, &[][..], None, &[])
            .unwrap_err();
        assert_eq!(err.code(), StatusCode::InvalidArgument);
    }
}
