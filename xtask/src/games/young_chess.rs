//! Generator and benchmark cases for this game (not written yet).

use crate::bench::BenchCase;

/// The generated input.
pub fn generate(_args: &super::GenArgs) -> anyhow::Result<String> {
    anyhow::bail!("this generator is not written yet")
}

/// Whole-process benchmark cases.
pub fn bench_cases() -> anyhow::Result<Vec<BenchCase>> {
    Ok(Vec::new())
}
