//! IREE's device_group_test.cc and frontier_test.cc (AxisTest) cases, plus
//! this crate's decisions (duplicates, rollback of every assigned device).

use std::sync::Arc;

use amdgpu_hal::device::testing::MockDevice;
use amdgpu_hal::device::{
    Axis, CausalDomain, FrontierTracker, FrontierTrackerOptions, HalDevice, query_edge,
};
use amdgpu_hal::group::{DeviceGroup, DeviceGroupBuilder, ReplacementFn};
use amdgpu_hal::topology::{DeviceCapabilities, Edge, InteropMode, SlitTable};
use amdgpu_hal::{Status, StatusCode};

fn tracker() -> Arc<FrontierTracker> {
    Arc::new(FrontierTracker::default())
}

fn builder() -> DeviceGroupBuilder {
    DeviceGroupBuilder::new(tracker()).with_numa_distances(Arc::new(SlitTable::default()))
}

fn mock(id: &str) -> Arc<dyn HalDevice> {
    MockDevice::new(id).into_dyn()
}

fn group_of(devices: &[Arc<dyn HalDevice>]) -> amdgpu_hal::Result<DeviceGroup> {
    let mut b = builder();
    for d in devices {
        b.add_device(Arc::clone(d))?;
    }
    b.finalize()
}

#[test]
fn empty_builder_fails_and_failed_finalize_leaves_it_empty() {
    let mut b = builder();
    let err = b.finalize().unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert_eq!(err.message(), "device group builder has no devices");
    assert!(b.is_empty());
}

#[test]
fn exceeds_max_capacity() {
    let mut b = builder();
    let devices: Vec<_> = (0..33).map(|_| mock("mock")).collect();
    for d in &devices[..32] {
        b.add_device(Arc::clone(d)).unwrap();
    }
    let err = b.add_device(Arc::clone(&devices[32])).unwrap_err();
    assert_eq!(err.code(), StatusCode::ResourceExhausted);
    assert_eq!(err.message(), "device group builder at max capacity (32)");
    // Capacity is checked first, as in IREE: a 33rd add of a member is also exhausted.
    assert_eq!(
        b.add_device(Arc::clone(&devices[0])).unwrap_err().code(),
        StatusCode::ResourceExhausted
    );
    assert_eq!(b.len(), 32);
}

#[test]
fn duplicate_device_is_already_exists() {
    let d = mock("mock");
    let mut b = builder();
    b.add_device(Arc::clone(&d)).unwrap();
    let err = b.add_device(Arc::clone(&d)).unwrap_err();
    assert_eq!(err.code(), StatusCode::AlreadyExists);
    assert!(
        err.message()
            .contains("already in the device group builder at index 0"),
        "{err}"
    );
    assert_eq!(b.len(), 1);
    drop(b);
    assert_eq!(Arc::strong_count(&d), 1);
}

#[test]
fn finalize_empties_the_builder() {
    let d = mock("mock");
    let mut b = builder();
    b.add_device(Arc::clone(&d)).unwrap();
    let g = b.finalize().unwrap();
    assert!(b.is_empty());
    assert_eq!(b.len(), 0);
    // The builder holds nothing: the group is the only other holder.
    assert_eq!(Arc::strong_count(&d), 2);
    drop(g);
    assert_eq!(Arc::strong_count(&d), 1);
}

#[test]
fn failed_topology_assignment_clears_assigned_devices() {
    let a = Arc::new(MockDevice::new("mock"));
    let b = Arc::new(MockDevice::new("mock").failing_assign(Status::unavailable("no")));
    let devices: Vec<Arc<dyn HalDevice>> = vec![a.clone(), b.clone()];
    let err = group_of(&devices).unwrap_err();
    assert_eq!(err.code(), StatusCode::Unavailable);
    assert!(err.mentions("assigning topology info to device 1"), "{err}");
    assert!(a.topology_info().is_none());
    assert!(b.topology_info().is_none());
    assert_eq!(a.clear_calls(), 1);
    drop(devices);
    assert_eq!(Arc::strong_count(&a), 1);
    assert_eq!(Arc::strong_count(&b), 1);
}

#[test]
fn clearing_failures_are_joined() {
    let a = Arc::new(MockDevice::new("mock").failing_clear(Status::internal("stuck")));
    let b = Arc::new(MockDevice::new("mock").failing_assign(Status::unavailable("no")));
    let err = group_of(&[a.clone(), b.clone()]).unwrap_err();
    assert_eq!(err.code(), StatusCode::Unavailable);
    assert_eq!(err.joined().len(), 1);
    assert_eq!(err.joined()[0].code(), StatusCode::Internal);
    assert!(err.mentions("clearing topology info of device 0"), "{err}");
    assert!(a.topology_info().is_none());
}

#[test]
fn capability_and_refine_failures_stop_before_assignment() {
    let a = Arc::new(MockDevice::new("mock"));
    let b = Arc::new(MockDevice::new("mock").failing_query(Status::data_loss("caps")));
    let err = group_of(&[a.clone(), b.clone()]).unwrap_err();
    assert_eq!(err.code(), StatusCode::DataLoss);
    assert!(err.mentions("querying capabilities of device 1"));
    assert_eq!(a.assign_calls(), 0);

    let refine: Arc<amdgpu_hal::device::testing::RefineFn> =
        Arc::new(|_, _, _| Err(Status::aborted("refine")));
    let c = Arc::new(MockDevice::new("mock").with_refine(refine));
    let err = group_of(&[a.clone(), c.clone()]).unwrap_err();
    assert_eq!(err.code(), StatusCode::Aborted);
    assert!(err.mentions("refining edge [1,0]"), "{err}");
    assert_eq!(a.assign_calls(), 0);
}

#[test]
fn refine_producing_reserved_bits_is_rejected() {
    let refine: Arc<amdgpu_hal::device::testing::RefineFn> = Arc::new(|_, _, e| {
        e.hi |= 1 << 40;
        Ok(())
    });
    let a = MockDevice::new("mock").with_refine(refine).into_dyn();
    let err = group_of(&[a, mock("mock")]).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert!(err.mentions("reserved bits"));
}

#[test]
fn single_device() {
    let d = mock("mock");
    let g = DeviceGroup::create_from_device(Arc::clone(&d), tracker()).unwrap();
    assert_eq!(g.device_count(), 1);
    assert!(Arc::ptr_eq(g.device_at(0).unwrap(), &d));
    assert!(g.device_at(1).is_none());
    let t = g.topology();
    assert_eq!(t.device_count(), 1);
    let e = t.edge(0, 0).unwrap();
    assert_eq!(
        (e.wait_mode(), e.signal_mode()),
        (InteropMode::Native, InteropMode::Native)
    );
    let info = d.topology_info().unwrap();
    assert_eq!(info.topology_index, 0);
    assert!(Arc::ptr_eq(&info.topology, t));
    assert_eq!(info.self_edge, Edge::SELF.lo);
    assert_eq!(
        (
            info.can_wait_from,
            info.can_signal_to,
            info.can_import_from,
            info.can_p2p_with
        ),
        (0, 0, 0, 0)
    );
    assert_eq!(info.frontier.base_axis, Axis::queue(1, 0, 0, 0));
    assert!(Arc::ptr_eq(&info.frontier.tracker, g.frontier_tracker()));
}

#[test]
fn two_devices_same_driver() {
    let (a, b) = (mock("mock"), mock("mock"));
    let g = group_of(&[a.clone(), b.clone()]).unwrap();
    assert_eq!(g.device_count(), 2);
    assert!(Arc::ptr_eq(g.device_at(0).unwrap(), &a));
    assert!(Arc::ptr_eq(g.device_at(1).unwrap(), &b));
    let edge_ab = g.topology().edge(0, 1).unwrap();
    assert!(!edge_ab.is_empty());
    assert_eq!((edge_ab.lo, edge_ab.hi), (0x0002_089A_A000_1AAA, 0));
    let (ia, ib) = (a.topology_info().unwrap(), b.topology_info().unwrap());
    assert_eq!((ia.topology_index, ib.topology_index), (0, 1));
    assert!(Arc::ptr_eq(&ia.topology, g.topology()) && Arc::ptr_eq(&ib.topology, g.topology()));
    assert_eq!(query_edge(Some(&ia), Some(&ib)), Some(edge_ab));
    assert_eq!(g.driver_name(1), Some("mock"));
}

#[test]
fn two_devices_different_drivers() {
    let g = group_of(&[mock("driver_a"), mock("driver_b")]).unwrap();
    let e = g.topology().edge(0, 1).unwrap();
    assert_eq!(e.wait_mode(), InteropMode::Copy);
    assert_eq!(e.buffer_read_mode_noncoherent(), InteropMode::Copy);
}

#[test]
fn three_devices_bitmaps() {
    let devices = [mock("mock"), mock("mock"), mock("mock")];
    let _g = group_of(&devices).unwrap();
    let infos: Vec<_> = devices.iter().map(|d| d.topology_info().unwrap()).collect();
    let idx: Vec<_> = infos.iter().map(|i| i.topology_index).collect();
    assert_eq!(idx, [0, 1, 2]);
    let wait: Vec<_> = infos.iter().map(|i| i.can_wait_from).collect();
    let signal: Vec<_> = infos.iter().map(|i| i.can_signal_to).collect();
    assert_eq!(wait, [0x6, 0x5, 0x3]);
    assert_eq!(signal, [0x6, 0x5, 0x3]);
    // Zero capabilities: buffers only by copy, no P2P.
    assert!(
        infos
            .iter()
            .all(|i| i.can_import_from == 0 && i.can_p2p_with == 0)
    );
    let axes: Vec<_> = infos.iter().map(|i| i.frontier.base_axis.0).collect();
    assert_eq!(
        axes,
        [
            0x0100_0000_0000_0000,
            0x0100_0001_0000_0000,
            0x0100_0002_0000_0000
        ]
    );
}

#[test]
fn numa_node_assignment() {
    let a = MockDevice::new("mock").with_capabilities(DeviceCapabilities {
        numa_node: 0,
        ..Default::default()
    });
    let b = MockDevice::new("mock").with_capabilities(DeviceCapabilities {
        numa_node: 1,
        ..Default::default()
    });
    let mut gb = DeviceGroupBuilder::new(tracker())
        .with_numa_distances(Arc::new(SlitTable::new(vec![vec![10, 32], vec![32, 10]])));
    gb.add_device(a.into_dyn()).unwrap();
    gb.add_device(b.into_dyn()).unwrap();
    let g = gb.finalize().unwrap();
    assert_eq!(g.topology().numa_nodes(), &[0, 1]);
    assert_eq!(g.topology().edge(0, 1).unwrap().numa_distance(), 11);
    assert_eq!(g.topology().edge(0, 0).unwrap().numa_distance(), 0);
}

#[test]
fn group_retains_devices_and_releases_them() {
    let d = mock("mock");
    let weak = Arc::downgrade(&d);
    let g = DeviceGroup::create_from_device(d, tracker()).unwrap();
    assert!(g.device_at(0).is_some());
    assert!(weak.upgrade().is_some());
    drop(g);
    assert!(weak.upgrade().is_none());
}

#[test]
fn topology_pointer_stability() {
    let (a, b) = (mock("mock"), mock("mock"));
    let g = group_of(&[a.clone(), b.clone()]).unwrap();
    let t = Arc::clone(g.topology());
    let g = Arc::new(g); // moving the group does not move the topology
    assert!(Arc::ptr_eq(&a.topology_info().unwrap().topology, &t));
    assert!(Arc::ptr_eq(g.topology(), &t));
}

#[test]
fn create_with_replacements_preserves_topology() {
    let (a, b) = (mock("mock"), mock("mock"));
    let source = group_of(&[a.clone(), b.clone()]).unwrap();
    let (ra, rb) = (mock("mock"), mock("mock"));
    let mut calls = Vec::new();
    let mut replace = |g: &DeviceGroup, i: usize, src: &Arc<dyn HalDevice>| {
        assert!(Arc::ptr_eq(src, g.device_at(i).unwrap()));
        calls.push(i);
        Ok(Some(if i == 0 { ra.clone() } else { rb.clone() }))
    };
    let g = source.create_with_replacements(Some(&mut replace)).unwrap();
    assert_eq!(calls, [0, 1]);
    assert_eq!(**g.topology(), **source.topology());
    assert!(!Arc::ptr_eq(g.topology(), source.topology()));
    let (ia, ib) = (ra.topology_info().unwrap(), rb.topology_info().unwrap());
    assert_eq!((ia.topology_index, ib.topology_index), (0, 1));
    assert!(Arc::ptr_eq(&ia.topology, g.topology()) && Arc::ptr_eq(&ib.topology, g.topology()));
    // The source devices still belong to the source group.
    assert!(Arc::ptr_eq(
        &a.topology_info().unwrap().topology,
        source.topology()
    ));
    assert_eq!(g.driver_name(0), Some("mock"));
}

#[test]
fn replacement_errors() {
    let source = group_of(&[mock("mock"), mock("mock")]).unwrap();
    let err = source.create_with_replacements(None).unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert_eq!(
        err.message(),
        "device group replacement callback function is required"
    );

    let kept = mock("mock");
    let mut missing: Box<ReplacementFn<'_>> =
        Box::new(|_, i, _| Ok(if i == 1 { None } else { Some(kept.clone()) }));
    let err = source
        .create_with_replacements(Some(&mut *missing))
        .unwrap_err();
    assert_eq!(err.code(), StatusCode::InvalidArgument);
    assert_eq!(err.message(), "replacement device 1 must not be NULL");
    drop(missing);
    assert_eq!(Arc::strong_count(&kept), 1);
    assert!(kept.topology_info().is_none());

    let same = mock("mock");
    let mut twice = |_: &DeviceGroup, _: usize, _: &Arc<dyn HalDevice>| Ok(Some(same.clone()));
    let err = source
        .create_with_replacements(Some(&mut twice))
        .unwrap_err();
    assert_eq!(err.code(), StatusCode::AlreadyExists);
    assert_eq!(Arc::strong_count(&same), 1);

    let fresh = mock("mock");
    let failing = Arc::new(MockDevice::new("mock").failing_assign(Status::unavailable("later")));
    let mut fail_assign = |_: &DeviceGroup, i: usize, _: &Arc<dyn HalDevice>| {
        Ok(Some(if i == 0 {
            fresh.clone()
        } else {
            failing.clone() as Arc<dyn HalDevice>
        }))
    };
    let err = source
        .create_with_replacements(Some(&mut fail_assign))
        .unwrap_err();
    assert_eq!(err.code(), StatusCode::Unavailable);
    assert!(fresh.topology_info().is_none() && failing.topology_info().is_none());
    assert_eq!(Arc::strong_count(&fresh), 1);
}

// ---- frontier_test.cc AxisTest ----

#[test]
fn queue_axis_round_trip_and_max_values() {
    let a = Axis::queue(3, 7, 2, 5);
    assert_eq!(a.0, 0x0307_0002_0500_0000);
    assert_eq!(
        (
            a.session(),
            a.machine(),
            a.domain(),
            a.device_index(),
            a.queue_index()
        ),
        (3, 7, Some(CausalDomain::Queue), 2, 5)
    );
    let m = Axis::queue(255, 255, 255, 255);
    assert_eq!(
        (
            m.session(),
            m.machine(),
            m.domain(),
            m.device_index(),
            m.queue_index()
        ),
        (255, 255, Some(CausalDomain::Queue), 255, 255)
    );
    assert_eq!(Axis::queue(1, 3, 1, 0).0, 0x0103_0001_0000_0000);
}

#[test]
fn other_domain_axes_round_trip() {
    for (s, m, d, o) in [
        (2, 5, CausalDomain::Collective, 42),
        (1, 0, CausalDomain::Host, 7),
        (1, 3, CausalDomain::Epilogue, 99),
    ] {
        let a = Axis::new(s, m, d as u8, o);
        assert_eq!(
            (a.session(), a.machine(), a.domain(), a.ordinal()),
            (s, m, Some(d), o)
        );
    }
    assert_eq!(Axis::new(0, 0, 9, 0).domain(), None);
}

#[test]
fn ordinal_masking() {
    assert_eq!(
        Axis::new(1, 0, CausalDomain::Host as u8, 0xFF_FFFF_FFFF).ordinal(),
        0xFF_FFFF_FFFF
    );
    let a = Axis::new(1, 0, CausalDomain::Host as u8, 0x1FF_FFFF_FFFF);
    assert_eq!(a.ordinal(), 0xFF_FFFF_FFFF);
    assert_eq!(a.domain(), Some(CausalDomain::Host));
}

#[test]
fn sorting_order() {
    let (a, b, c, d) = (
        Axis::queue(1, 0, 0, 0),
        Axis::queue(1, 0, 0, 1),
        Axis::queue(1, 0, 1, 0),
        Axis::queue(1, 1, 0, 0),
    );
    assert!(a < b && b < c && c < d);
    assert!(a.0 < b.0 && b.0 < c.0 && c.0 < d.0);
}

#[test]
fn tracker_options_reach_the_axes() {
    let tr = Arc::new(FrontierTracker::new(FrontierTrackerOptions {
        session_epoch: 3,
        machine_index: 7,
    }));
    assert_eq!(
        FrontierTrackerOptions::default(),
        FrontierTrackerOptions {
            session_epoch: 1,
            machine_index: 0
        }
    );
    let mut b = DeviceGroupBuilder::new(tr).with_numa_distances(Arc::new(SlitTable::default()));
    let devices = [mock("m"), mock("m"), mock("m")];
    for d in &devices {
        b.add_device(d.clone()).unwrap();
    }
    let _g = b.finalize().unwrap();
    assert_eq!(
        devices[2].topology_info().unwrap().frontier.base_axis,
        Axis::queue(3, 7, 2, 0)
    );
}
