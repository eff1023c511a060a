//! IREE's wrapped executables (AMD1, HIP1): parsing, verification, inference, `inspect`, and the schemas' wire layout.

mod fixtures;
mod hostile;
mod infer;
mod inspect;
mod proptest;
mod schemas_layout;
mod vmfb;
