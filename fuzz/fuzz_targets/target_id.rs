//! Target-ID strings under every parse-flag combination; whatever parses
//! must format and re-parse to the same target.
#![no_main]

use amdgpu_hal::codeobj::target_id::{
    ParseFlags, TargetId, check_compatible, lookup_code_object_target,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, text)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let flags = ParseFlags::from_bits_retain(u32::from(flags & 0x0f));
    if let Ok(target) = TargetId::parse(text, flags) {
        let again = TargetId::parse(&target.to_string(), ParseFlags::all()).unwrap();
        assert_eq!(again.processor, target.processor);
        assert_eq!(
            (again.sramecc.is_explicit(), again.xnack.is_explicit()),
            (target.sramecc.is_explicit(), target.xnack.is_explicit())
        );
        let _ = check_compatible(&target, &again).to_string();
        let _ = lookup_code_object_target(&target);
    }
});
