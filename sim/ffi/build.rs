//! Links the shared library `-z nodelete`: the simulated node lives in the
//! library's statics for the whole process (as a vendor runtime's state
//! does), so `dlclose` must not unmap it — an unmapped node would both lose
//! the state a later `dlopen` expects and show up as a leak under valgrind.
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodelete");
}
