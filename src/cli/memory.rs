//! How much memory a run may still take, for refusing work that would not fit (`fill` at
//! 100×100 holds a 67 MB search matrix per thread) with a clear message, instead of being
//! killed by the kernel or aborted by a failed allocation.
//!
//! Three limits count, whichever is lowest: the machine's (`MemAvailable` of
//! `/proc/meminfo`), the control group's that a container or a systemd unit sets (cgroup v2
//! `memory.max` less `memory.current`, or v1 `memory.limit_in_bytes` less
//! `memory.usage_in_bytes`, the inactive file cache of `memory.stat` counted as room, in the
//! process's group and every group above it), and the
//! process's address-space limit (`ulimit -v`, `RLIMIT_AS`), which counts reserved as well
//! as used memory, less what the process has mapped already. Elsewhere than Linux, or when
//! nothing can be read, no limit is known and nothing is refused.

use std::path::{Path, PathBuf};

/// What the process may still allocate, in bytes (`None`: not known).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Headroom {
    /// Memory the process may still use: the machine's and its control groups'.
    pub(super) resident: Option<u64>,
    /// Address space it may still map under `RLIMIT_AS`.
    pub(super) address_space: Option<u64>,
    /// Address space it could map under `RLIMIT_AS` before its thread pool started
    /// (see [`note_start`]), for telling how many threads would fit.
    pub(super) before_pool: Option<u64>,
}

impl Headroom {
    /// What is left once `bytes` more are taken (the output a batch holds, say).
    pub(super) fn less(self, bytes: u64) -> Headroom {
        let less = |v: Option<u64>| v.map(|v| v.saturating_sub(bytes));
        Headroom {
            resident: less(self.resident),
            address_space: less(self.address_space),
            before_pool: less(self.before_pool),
        }
    }
}

/// How messages name the memory limit ([`Headroom::resident`]).
/// A size for messages: "12.3 GB", "0.42 GB" (two figures, so that a need and a limit
/// that differ do not print alike), or below 0.1 GB in megabytes ("48 MB", not "0.0 GB").
pub(super) fn size(bytes: u64) -> String {
    match bytes {
        0..100_000_000 => format!("{} MB", bytes / 1_000_000),
        100_000_000..10_000_000_000 => format!("{:.2} GB", bytes as f64 / 1e9),
        _ => format!("{:.1} GB", bytes as f64 / 1e9),
    }
}

pub(super) const MEMORY_LIMIT: &str = "of memory available";

/// How messages name the address-space limit ([`Headroom::address_space`]).
pub(super) const SPACE_LIMIT: &str = "of address space left under the process's limit (ulimit -v)";

impl Headroom {
    /// The first limit that `resident` bytes of memory or `space` bytes of address space
    /// would pass: what is left under it, what was asked, and how messages name it.
    pub(super) fn shortfall(&self, resident: u64, space: u64) -> Option<(u64, u64, &'static str)> {
        [
            (self.resident, resident, MEMORY_LIMIT),
            (self.address_space, space, SPACE_LIMIT),
        ]
        .into_iter()
        .find_map(|(left, need, what)| left.filter(|&l| l < need).map(|l| (l, need, what)))
    }
}

/// The address space the process had mapped when [`note_start`] ran.
static MAPPED_AT_START: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();

/// Notes the address space mapped now, before the thread pool starts: the pool's threads
/// reserve address space of their own, so what is left once they run does not tell how
/// many would fit.
pub(super) fn note_start() {
    MAPPED_AT_START.get_or_init(mapped);
}

/// The address space the process has mapped (`VmSize`), in bytes.
fn mapped() -> Option<u64> {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| status_kb(&s, "VmSize:"))
}

/// The headroom of this process now.
pub(super) fn headroom() -> Headroom {
    let machine = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| meminfo_available(&s));
    let groups = std::fs::read_to_string("/proc/self/cgroup")
        .ok()
        .and_then(|s| cgroup_headroom(&s, Path::new("/sys/fs/cgroup")));
    let resident = match (machine, groups) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let limit = std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|s| address_space_limit(&s));
    let address_space = limit.map(|l| l.saturating_sub(mapped().unwrap_or(0)));
    let start = MAPPED_AT_START.get().copied().flatten();
    let before_pool = limit.zip(start).map(|(l, m)| l.saturating_sub(m));
    Headroom {
        resident,
        address_space,
        before_pool,
    }
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn meminfo_available(meminfo: &str) -> Option<u64> {
    status_kb(meminfo, "MemAvailable:")
}

/// The value in kB of the line starting with `key` (`/proc/meminfo`, `/proc/self/status`),
/// in bytes.
fn status_kb(text: &str, key: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// The soft "Max address space" of a `/proc/self/limits` text, in bytes (`None` when
/// unlimited).
fn address_space_limit(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The least headroom of the memory control groups named in a `/proc/self/cgroup` text,
/// read under `root` (`/sys/fs/cgroup`): the process's group and each one above it, in the
/// v2 hierarchy (`0::/path`) or the v1 memory controller (`N:memory:/path`, or a list
/// holding `memory`). A container sees its own group as the mount's root, whatever the
/// path says, so a path that is not there is read from the root.
fn cgroup_headroom(cgroup: &str, root: &Path) -> Option<u64> {
    let mut least: Option<u64> = None;
    for line in cgroup.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(id), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (base, max, used, cache) = if id == "0" && controllers.is_empty() {
            (
                root.to_path_buf(),
                "memory.max",
                "memory.current",
                "inactive_file",
            )
        } else if controllers.split(',').any(|c| c == "memory") {
            (
                root.join("memory"),
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
                "total_inactive_file",
            )
        } else {
            continue;
        };
        for dir in groups_up(&base, path) {
            let read = |f: &str| -> Option<u64> {
                std::fs::read_to_string(dir.join(f))
                    .ok()?
                    .trim()
                    .parse()
                    .ok()
            };
            // "max" (v2) does not parse: no limit here. What the group uses counts the file
            // cache, which fills a container up to its limit; its inactive part is given
            // back when needed, so it is room (as container runtimes count it).
            if let (Some(max), Some(used)) = (read(max), read(used)) {
                let reclaimable = std::fs::read_to_string(dir.join("memory.stat"))
                    .ok()
                    .and_then(|stat| stat_value(&stat, cache))
                    .unwrap_or(0);
                let room = max.saturating_sub(used.saturating_sub(reclaimable));
                least = Some(least.map_or(room, |l| l.min(room)));
            }
        }
    }
    least
}

/// The value of `key` in a `memory.stat` text (`key value` lines).
fn stat_value(stat: &str, key: &str) -> Option<u64> {
    stat.lines().find_map(|l| {
        let (k, v) = l.split_once(' ')?;
        if k == key {
            v.trim().parse().ok()
        } else {
            None
        }
    })
}

/// The directories of the group `path` under `base` and of every group above it, up to
/// `base` itself; only `base` when the group's own directory is not there.
fn groups_up(base: &Path, path: &str) -> Vec<PathBuf> {
    let own = base.join(path.trim_start_matches('/'));
    if !own.is_dir() {
        return vec![base.to_path_buf()];
    }
    let mut dirs: Vec<PathBuf> = own
        .ancestors()
        .take_while(|d| d.starts_with(base))
        .map(Path::to_path_buf)
        .collect();
    dirs.dedup();
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sizes print with figures enough to tell a need from a limit, and small ones in MB.
    #[test]
    fn sizes_read_apart() {
        assert_eq!(size(43_000_000), "43 MB");
        assert_eq!(size(420_000_000), "0.42 GB");
        assert_eq!(size(400_000_000), "0.40 GB");
        assert_eq!(size(17_240_000_000), "17.2 GB");
    }

    #[test]
    fn reads_the_proc_files() {
        assert_eq!(
            meminfo_available("MemTotal:  100 kB\nMemAvailable:    2048 kB\n"),
            Some(2048 * 1024)
        );
        assert_eq!(meminfo_available("MemTotal:  100 kB\n"), None);
        let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                      Max address space         1000000000           unlimited            bytes     \n";
        assert_eq!(address_space_limit(limits), Some(1_000_000_000));
        let unlimited =
            "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(address_space_limit(unlimited), None);
        assert_eq!(
            status_kb("VmPeak:\t 10 kB\nVmSize:\t    3892 kB\n", "VmSize:"),
            Some(3892 * 1024)
        );
    }

    /// A made-up cgroup tree: the least room of the group and the groups above it counts,
    /// `max` is no limit, and a v1 path the container cannot see is read at the root.
    #[test]
    fn reads_cgroup_limits_up_the_tree() {
        let root = tempfile::tempdir().unwrap();
        let put = |rel: &str, max: &str, used: &str, v2: bool| {
            let dir = root.path().join(rel);
            std::fs::create_dir_all(&dir).unwrap();
            let (m, u) = if v2 {
                ("memory.max", "memory.current")
            } else {
                ("memory.limit_in_bytes", "memory.usage_in_bytes")
            };
            std::fs::write(dir.join(m), format!("{max}\n")).unwrap();
            std::fs::write(dir.join(u), format!("{used}\n")).unwrap();
        };
        put("", "max", "5000", true);
        put("pod", "3000", "1000", true);
        // The file cache a group may give back is room.
        std::fs::write(
            root.path().join("pod/memory.stat"),
            "anon 400\ninactive_file 500\n",
        )
        .unwrap();
        put("pod/app", "max", "900", true);
        assert_eq!(cgroup_headroom("0::/pod/app\n", root.path()), Some(2500));
        assert_eq!(cgroup_headroom("0::/\n", root.path()), None);
        put("memory", "9223372036854771712", "700", false);
        assert_eq!(
            cgroup_headroom("4:memory:/not/visible\n0::/pod\n", root.path()),
            Some(2500)
        );
        put("memory", "1700", "700", false);
        assert_eq!(
            cgroup_headroom("4:cpu,memory:/not/visible\n", root.path()),
            Some(1000)
        );
        assert_eq!(cgroup_headroom("garbage\n3:cpuset:/\n", root.path()), None);
    }
}
