//! The HIP runtime's device selection: the current device (`hipSetDevice`)
//! and the peer access enabled from one device to another.

use std::collections::BTreeSet;

use crate::codes::HipCode;
use crate::topology::Topology;

/// The current device and the peer-access grants.
#[derive(Debug, Default)]
pub(crate) struct HipDevices {
    /// The current device (0 before any call).
    current: i32,
    /// (device → peer) grants enabled so far.
    peers: BTreeSet<(i32, i32)>,
}

impl HipDevices {
    /// The current device.
    pub(crate) fn current(&self) -> i32 {
        self.current
    }

    /// Peer-access grants enabled so far.
    pub(crate) fn peer_grants(&self) -> u64 {
        self.peers.len() as u64
    }

    /// Makes `ordinal` current, unchecked (the C library keeps the
    /// current device per thread and hands it over).
    pub(crate) fn select(&mut self, ordinal: i32) {
        self.current = ordinal;
    }

    /// `hipSetDevice`.
    pub(crate) fn set_current(&mut self, topology: &Topology, ordinal: i32) -> Result<(), HipCode> {
        topology.hip_props(ordinal)?;
        self.current = ordinal;
        Ok(())
    }

    /// `hipDeviceEnablePeerAccess` from the current device.
    pub(crate) fn enable_peer_access(
        &mut self,
        topology: &Topology,
        peer: i32,
        flags: u32,
    ) -> Result<(), HipCode> {
        if flags != 0 {
            return Err(HipCode::INVALID_VALUE);
        }
        let current = self.current;
        if current == peer {
            return Err(HipCode::INVALID_DEVICE);
        }
        if topology.gpu_link(current, peer)?.is_none() {
            return Err(HipCode::PEER_ACCESS_UNSUPPORTED);
        }
        if !self.peers.insert((current, peer)) {
            return Err(HipCode::PEER_ACCESS_ALREADY_ENABLED);
        }
        Ok(())
    }
}
