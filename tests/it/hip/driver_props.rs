//! Property tests of the HIP driver over scripted runtimes with random
//! device UUIDs: every enumerated path selects its own device, and a comma
//! list of k distinct paths gives a logical device of k physical devices in
//! that order.

use std::sync::Arc;

use crate::mocks::MockHip;
use amdgpu_hal::backend::{HipDevice, HipError, HipUuid};
use amdgpu_hal::hip::rccl::rccl_not_available;
use amdgpu_hal::hip::{HipDriver, HipOptions, LoadedHip};
use proptest::prelude::*;

fn driver(uuids: Vec<[u8; 16]>) -> HipDriver {
    let n = uuids.len() as i32;
    let mut m = MockHip::new();
    m.expect_get_error_name().returning(|e| e.name().to_owned());
    m.expect_get_error_string()
        .returning(|e| e.description().to_owned());
    m.expect_init().returning(|_| Ok(()));
    m.expect_get_device_count().returning(move || Ok(n));
    m.expect_device_get().returning(move |o| {
        if (0..n).contains(&o) {
            Ok(HipDevice(o))
        } else {
            Err(HipError::InvalidDevice)
        }
    });
    m.expect_device_get_name()
        .returning(|d, _| Ok(format!("gpu{}", d.0)));
    m.expect_device_get_uuid()
        .returning(move |d| Ok(HipUuid(uuids[d.0 as usize])));
    m.expect_device_get_attribute().returning(|_, _| Ok(1));
    m.expect_device_can_access_peer().returning(|_, _| Ok(true));
    m.expect_device_get_p2p_attribute()
        .returning(|_, _, _| Ok(1));
    m.expect_set_device().returning(|_| Ok(()));
    m.expect_device_enable_peer_access()
        .returning(|_, _| Ok(()));
    HipDriver::create(
        HipOptions::default(),
        |_| {
            Ok(LoadedHip {
                hip: Arc::new(m),
                library_path: None,
            })
        },
        || Err(rccl_not_available()),
    )
    .unwrap()
}

fn distinct_uuids() -> impl Strategy<Value = Vec<[u8; 16]>> {
    prop::collection::btree_set(any::<[u8; 16]>(), 1..12).prop_map(|s| s.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_enumerated_path_selects_its_own_device(uuids in distinct_uuids()) {
        let driver = driver(uuids);
        for info in driver.query_available_devices().unwrap() {
            prop_assert_eq!(driver.resolve_path(&info.path).unwrap(), vec![info.device]);
            prop_assert_eq!(driver.resolve_path(&info.ordinal.to_string()).unwrap(), vec![info.device]);
            // IREE's undashed uppercase spelling names the same device.
            let plain = format!("GPU-{}", info.path[4..].replace('-', "").to_uppercase());
            prop_assert_eq!(driver.resolve_path(&plain).unwrap(), vec![info.device]);
        }
    }

    #[test]
    fn a_list_of_k_distinct_paths_is_k_devices_in_order(
        uuids in distinct_uuids(),
        picks in prop::collection::vec(any::<prop::sample::Index>(), 1..12),
        by_uuid in prop::collection::vec(any::<bool>(), 12),
    ) {
        let driver = driver(uuids);
        let infos = driver.query_available_devices().unwrap();
        let mut chosen = Vec::new();
        for pick in picks {
            let info = &infos[pick.index(infos.len())];
            if !chosen.contains(&info.device) {
                chosen.push(info.device);
            }
        }
        let path: Vec<String> = chosen
            .iter()
            .zip(&by_uuid)
            .map(|(d, &u)| if u { infos[d.0 as usize].path.clone() } else { d.0.to_string() })
            .collect();
        let device = driver.create_device_by_path(&path.join(","), &[]).unwrap();
        let got: Vec<HipDevice> = device.physical_devices().iter().map(|p| p.device).collect();
        prop_assert_eq!(got, chosen);
    }

    #[test]
    fn random_paths_never_panic_the_driver(path in "(GPU-|[0-9a-fA-F,x -]){0,48}") {
        let driver = driver(vec![[0; 16], [1; 16]]);
        let _ = driver.resolve_path(&path);
    }
}
