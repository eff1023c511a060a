//! Each type-3 packet the node carries out, decoded into its [`Command`]s
//! (fields checked as the sources in the module docs lay them out).

use super::*;

pub(super) fn command(
    p: &Packet<'_>,
    generation: Generation,
    out: &mut Vec<Command>,
) -> Result<(), Pm4Error> {
    match p.opcode {
        opcode::NOP => out.push(Command::Nothing("NOP")),
        opcode::WRITE_DATA => out.push(write_data(p)?),
        opcode::COPY_DATA => out.push(copy_data(p)?),
        opcode::WAIT_REG_MEM | opcode::WAIT_REG_MEM64 => out.push(wait_reg_mem(p)?),
        opcode::EVENT_WRITE => out.push(event_write(p)?),
        opcode::ACQUIRE_MEM => out.push(acquire_mem(p, generation)?),
        opcode::RELEASE_MEM => release_mem(p, out)?,
        opcode::SET_SH_REG => {
            if p.len() < 3 {
                return malformed(format!("SET_SH_REG of {} dwords sets nothing", p.len()));
            }
            let values = p.words.get(2..).unwrap_or_default().to_vec();
            let first = compute::sh_registers(p.dw(1), values.len())?;
            out.push(Command::SetShRegisters { first, values });
        }
        opcode::SET_UCONFIG_REG => {
            if p.len() < 3 {
                return malformed(format!(
                    "SET_UCONFIG_REG of {} dwords sets nothing",
                    p.len()
                ));
            }
            return not_modelled(format!(
                "SET_UCONFIG_REG writes {}: the node has no configuration registers",
                register(UCONFIG_REG_START + (p.dw(1) & 0xFFFF))
            ));
        }
        opcode::DISPATCH_DIRECT => {
            p.exactly(5)?;
            out.push(Command::DispatchDirect {
                dimensions: [p.dw(1), p.dw(2), p.dw(3)],
                initiator: p.dw(4),
            });
        }
        opcode::DISPATCH_INDIRECT => {
            return not_modelled(
                "DISPATCH_INDIRECT (0x16): dimensions read from memory by the command processor"
                    .into(),
            );
        }
        opcode::INDIRECT_BUFFER => {
            return not_modelled("an INDIRECT_BUFFER chained from an indirect buffer".into());
        }
        other => return not_modelled(name(other)),
    }
    Ok(())
}

/// `WRITE_DATA`: control (`DST_SEL` 11:8, `WR_ONE_ADDR` 16, `WR_CONFIRM`
/// 20, cache policy 26:25, `ENGINE_SEL` 31:30), address low (31:2) and
/// high, then the data dwords.
fn write_data(p: &Packet<'_>) -> Result<Command, Pm4Error> {
    if p.len() < 5 {
        return malformed(format!("WRITE_DATA of {} dwords carries no data", p.len()));
    }
    let control = p.dw(1);
    match (control >> 8) & 0xF {
        // 1 memory (synchronous, through GRBM), 2 through L2, 5 memory.
        1 | 2 | 5 => {}
        0 => {
            return not_modelled(format!("WRITE_DATA to {}", register(p.dw(2))));
        }
        3 => return not_modelled("WRITE_DATA to GDS".into()),
        other => return malformed(format!("WRITE_DATA destination select {other}")),
    }
    Ok(Command::Write {
        address: p.address(2, Width::Dword),
        data: p.words.get(4..).unwrap_or_default().to_vec(),
        one_address: control & (1 << 16) != 0,
    })
}

/// `COPY_DATA`: control (`SRC_SEL` 3:0, `DST_SEL` 11:8, cache policies,
/// `COUNT_SEL` 16 for 64 bits, `WR_CONFIRM` 20, `ENGINE_SEL` 30), the
/// source (address or immediate) in dwords 2-3, the destination in 4-5.
fn copy_data(p: &Packet<'_>) -> Result<Command, Pm4Error> {
    p.exactly(6)?;
    let control = p.dw(1);
    let width = if control & (1 << 16) != 0 {
        Width::Qword
    } else {
        Width::Dword
    };
    let source = match control & 0xF {
        // 1 memory, 2 through L2.
        1 | 2 => Source::Memory(p.address(2, width)),
        5 => Source::Immediate(width.truncate(p.qw(2))),
        // The GPU clock counter (Mesa's COPY_DATA_TIMESTAMP, IREE's
        // SRC_SEL_GPU_CLOCK_COUNT).
        9 => Source::GpuClock,
        0 => return not_modelled(format!("COPY_DATA from {}", register(p.dw(2)))),
        3 => return not_modelled("COPY_DATA from GDS".into()),
        4 => {
            return not_modelled(format!(
                "COPY_DATA from performance counter register {:#x}",
                p.dw(2)
            ));
        }
        other => return not_modelled(format!("COPY_DATA source select {other}")),
    };
    let destination = match (control >> 8) & 0xF {
        1 | 2 | 5 => p.address(4, width),
        0 => return not_modelled(format!("COPY_DATA to {}", register(p.dw(4)))),
        3 => return not_modelled("COPY_DATA to GDS".into()),
        4 => {
            return not_modelled(format!(
                "COPY_DATA to performance counter register {:#x}",
                p.dw(4)
            ));
        }
        other => return malformed(format!("COPY_DATA destination select {other}")),
    };
    Ok(Command::Copy {
        source,
        destination,
        width,
    })
}

/// `WAIT_REG_MEM` (7 dwords: control, address, reference, mask, poll) and
/// `WAIT_REG_MEM64` (9: 64-bit reference and mask). Control:
/// `FUNCTION` 2:0, `MEM_SPACE` 5:4 (1 memory), `OPERATION` 7:6 (0 wait),
/// `ENGINE` 9:8.
fn wait_reg_mem(p: &Packet<'_>) -> Result<Command, Pm4Error> {
    let wide = p.opcode == opcode::WAIT_REG_MEM64;
    p.exactly(if wide { 9 } else { 7 })?;
    let control = p.dw(1);
    let function = Compare::from_raw(control & 7).ok_or_else(|| {
        Pm4Error::Malformed(format!("{} function {}", name(p.opcode), control & 7))
    })?;
    match (control >> 4) & 3 {
        1 => {}
        0 => {
            return not_modelled(format!("{} polls {}", name(p.opcode), register(p.dw(2))));
        }
        other => return malformed(format!("{} memory space {other}", name(p.opcode))),
    }
    if (control >> 6) & 3 != 0 {
        return not_modelled(format!(
            "{} operation {} (write, wait, write a register)",
            name(p.opcode),
            (control >> 6) & 3
        ));
    }
    let poll = p.dw(if wide { 8 } else { 6 });
    if poll & !POLL_DWORD_BITS != 0 {
        return malformed(format!(
            "{} poll dword {poll:#010x} sets reserved bits",
            name(p.opcode)
        ));
    }
    let width = if wide { Width::Qword } else { Width::Dword };
    let (reference, mask) = if wide {
        (p.qw(4), p.qw(6))
    } else {
        (u64::from(p.dw(4)), u64::from(p.dw(5)))
    };
    Ok(Command::Wait {
        address: p.address(2, width),
        width,
        function,
        reference,
        mask,
    })
}

/// `EVENT_WRITE`: `EVENT_TYPE` 5:0, `EVENT_INDEX` 11:8. Only the compute
/// partial flush (wait for earlier dispatches) is carried out.
fn event_write(p: &Packet<'_>) -> Result<Command, Pm4Error> {
    let event = p.dw(1);
    if p.len() >= 2 && event == CS_PARTIAL_FLUSH | PARTIAL_FLUSH_INDEX << 8 {
        p.exactly(2)?;
        return Ok(Command::Nothing("EVENT_WRITE CS_PARTIAL_FLUSH"));
    }
    not_modelled(format!(
        "EVENT_WRITE of event type {:#x} index {}",
        event & 0x3F,
        (event >> 8) & 0xF
    ))
}

/// `ACQUIRE_MEM`: gfx9's 7 dwords (`CP_COHER_CNTL`, size, size high, base,
/// base high, poll interval) or gfx10+'s 8 (engine bit 31 of the first,
/// then the same five, then `GCR_CNTL`). Cache actions have nothing to do
/// on the node; the fields are checked against ROCr's masks.
fn acquire_mem(p: &Packet<'_>, generation: Generation) -> Result<Command, Pm4Error> {
    let poll = p.dw(6);
    match generation {
        Generation::Gfx9 => {
            p.exactly(7)?;
            if p.dw(1) >> 31 != 0 {
                return malformed(format!(
                    "ACQUIRE_MEM CP_COHER_CNTL {:#010x} sets bit 31",
                    p.dw(1)
                ));
            }
        }
        Generation::Gfx10Plus => {
            p.exactly(8)?;
            if p.dw(1) & 0x7FFF_FFFF != 0 {
                return malformed(format!(
                    "ACQUIRE_MEM's first dword {:#010x} has more than the engine bit",
                    p.dw(1)
                ));
            }
            if p.dw(7) > 0x7FFFF {
                return malformed(format!("ACQUIRE_MEM GCR_CNTL {:#x} past 19 bits", p.dw(7)));
            }
        }
    }
    if poll > 0xFFFF {
        return malformed(format!("ACQUIRE_MEM poll interval {poll:#x} past 16 bits"));
    }
    Ok(Command::Nothing("ACQUIRE_MEM"))
}

/// `RELEASE_MEM` (8 dwords): event (`EVENT_TYPE` 5:0, `EVENT_INDEX` 11:8
/// — 5, an end-of-pipe event — and cache actions), then `DST_SEL` 17:16,
/// `INT_SEL` 26:24, `DATA_SEL` 31:29, address low and high, data low and
/// high, interrupt context.
fn release_mem(p: &Packet<'_>, out: &mut Vec<Command>) -> Result<(), Pm4Error> {
    p.exactly(8)?;
    let index = (p.dw(1) >> 8) & 0xF;
    if index != END_OF_PIPE_INDEX {
        return not_modelled(format!("RELEASE_MEM of event index {index}"));
    }
    let control = p.dw(2);
    if (control >> 16) & 3 > 1 {
        return malformed(format!(
            "RELEASE_MEM destination select {}",
            (control >> 16) & 3
        ));
    }
    let data = control >> 29;
    let interrupt = (control >> 24) & 7;
    let (source, width) = match data {
        0 => (None, Width::Dword),
        1 => (Some(Source::Immediate(u64::from(p.dw(5)))), Width::Dword),
        2 => (Some(Source::Immediate(p.qw(5))), Width::Qword),
        3 => (Some(Source::GpuClock), Width::Qword),
        4 => return not_modelled("RELEASE_MEM of the system counter".into()),
        5 => return not_modelled("RELEASE_MEM of GDS data".into()),
        other => return malformed(format!("RELEASE_MEM data select {other}")),
    };
    if let Some(source) = source {
        out.push(Command::Copy {
            source,
            destination: p.address(3, width),
            width,
        });
    }
    match interrupt {
        0 => {}
        1..=3 => out.push(Command::Interrupt),
        other => return malformed(format!("RELEASE_MEM interrupt select {other}")),
    }
    Ok(())
}
