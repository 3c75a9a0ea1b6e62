//! The figures of a report: samples, medians, summaries, ratios and their formatting.

use crate::clients::ClientKind;
use crate::http::Endpoint;

// ---------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy)]
pub(super) struct Sample {
    pub(super) user_us: f64,
    pub(super) sys_us: f64,
    pub(super) rps: f64,
    pub(super) p50_us: f64,
    pub(super) p99_us: f64,
}

pub(super) fn median(mut values: Vec<f64>) -> f64 {
    values.retain(|v| v.is_finite());
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

/// Reads one measure of one client on one endpoint.
pub(super) type ClientMeasure<'a> = Box<dyn Fn(ClientKind, Endpoint) -> Option<f64> + 'a>;

/// The medians of one server (or client) on one endpoint.
#[derive(Debug, Clone, Copy)]
pub(super) struct Summary {
    /// The user ÷ sys ratio (pooled over the rounds), times the endpoint's reference sys µs
    /// (the median over every server and round).
    pub(super) norm_user_us: f64,
    pub(super) user_over_sys: f64,
    /// The standard error of the per-round user ÷ sys ratios, in % of their mean.
    pub(super) stderr_pct: f64,
    pub(super) user_us: f64,
    pub(super) sys_us: f64,
    /// The lowest and highest sys µs per request of the rounds: the kernel's time per request
    /// moves by up to ±15 % between runs of the same server on the same kernel work (see
    /// benches/README.md, "The latest run"), so a sys gap inside this range is not one.
    pub(super) sys_min_us: f64,
    pub(super) sys_max_us: f64,
    pub(super) rps: f64,
    pub(super) p50_us: f64,
    pub(super) p99_us: f64,
    pub(super) rounds: usize,
}

pub(super) fn summarise(samples: &[Sample], sys_reference: f64) -> Summary {
    let of = |f: fn(&Sample) -> f64| median(samples.iter().map(f).collect());
    // Pooled over the rounds (the kernel samples user/system time at each tick: the more
    // ticks, the finer the split), with the standard error of the per-round ratios.
    let user: f64 = samples.iter().map(|s| s.user_us).sum();
    let sys: f64 = samples.iter().map(|s| s.sys_us).sum();
    let user_over_sys = user / sys;
    let ratios: Vec<f64> = samples.iter().map(|s| s.user_us / s.sys_us).collect();
    let n = ratios.len() as f64;
    let mean = ratios.iter().sum::<f64>() / n;
    let variance = ratios.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    Summary {
        norm_user_us: user_over_sys * sys_reference,
        user_over_sys,
        stderr_pct: 100.0 * (variance / n).sqrt() / mean,
        user_us: of(|s| s.user_us),
        sys_us: of(|s| s.sys_us),
        sys_min_us: samples.iter().map(|s| s.sys_us).fold(f64::NAN, f64::min),
        sys_max_us: samples.iter().map(|s| s.sys_us).fold(f64::NAN, f64::max),
        rps: of(|s| s.rps),
        p50_us: of(|s| s.p50_us),
        p99_us: of(|s| s.p99_us),
        rounds: samples.len(),
    }
}

pub(super) fn fmt_us(us: f64) -> String {
    if !us.is_finite() {
        "-".into()
    } else if us >= 1000.0 {
        format!("{:.2}ms", us / 1000.0)
    } else {
        format!("{us:.0}us")
    }
}

pub(super) fn fmt_opt(value: Option<f64>, f: impl Fn(f64) -> String) -> String {
    match value {
        Some(v) if v.is_finite() => f(v),
        _ => "-".into(),
    }
}

pub(super) fn ratio(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) if a.is_finite() && b.is_finite() && b != 0.0 => Some(a / b),
        _ => None,
    }
}
