//! How many puzzles of a batch fit in memory at once from 64×64 up, where each puzzle in
//! the making holds a fill's search matrix and the proofs' engines: a `--count` batch on
//! more threads than fit goes in chunks of as many puzzles as fit instead of aborting on a
//! failed allocation (every puzzle depends on its seed alone, so the output is the same).

use anyhow::Result;

use crate::cli::exit;
use crate::cli::memory::Headroom;
use crate::grid::Shape;

/// Memory one puzzle in the making takes, and address space under `ulimit -v`, by box size
/// from 8 up. Resident, measured 2026-11-27: peak RSS 107, 208 and 214 MB a puzzle at
/// 64×64, 81×81 and 100×100 (`generate --count k -j k`). Address space, where the binary
/// holds the allocator to one arena (`resources.rs`), measured 2026-11-28 as the smallest
/// limits under which k puzzles were made at once on k threads: 120, 229 and 446 MB for
/// 1, 2 and 4 at 64×64; 229 and 438 MB for 1 and 2 at 81×81; 291 and 571 MB at 100×100
/// (about 108, 209 and 280 MB a puzzle; [`SPACE_MARGIN`] covers the rest).
fn per_puzzle(shape: Shape) -> Option<(u64, u64)> {
    const MB: u64 = 1_000_000;
    // (resident, address space)
    match shape.box_size() {
        8 => Some((115 * MB, 115 * MB)),
        9 => Some((215 * MB, 215 * MB)),
        10 => Some((225 * MB, 290 * MB)),
        _ => None,
    }
}

/// Address space kept back from a batch under `ulimit -v`, for what the run maps besides
/// its puzzles (the output's buffers, a thread's first arena).
const SPACE_MARGIN: u64 = 50_000_000;

/// The puzzles of a batch to make at once: `wanted` (as many as threads, at most the
/// count), or fewer where the memory or the address space left (`room`) holds fewer.
///
/// # Errors
/// An out-of-resources error (status 71) when not even one puzzle fits.
pub(super) fn puzzles_at_once(shape: Shape, wanted: usize, room: &Headroom) -> Result<usize> {
    let Some((resident, each)) = per_puzzle(shape) else {
        return Ok(wanted);
    };
    let by_memory = room.resident.map(|r| r / resident);
    // What is left now: the pool's threads have started and reserved theirs.
    let by_space = room
        .address_space
        .map(|a| a.saturating_sub(SPACE_MARGIN) / each);
    let fit = [by_memory, by_space]
        .into_iter()
        .flatten()
        .fold(wanted as u64, u64::min);
    if fit == 0 {
        use crate::cli::memory::{MEMORY_LIMIT, SPACE_LIMIT};
        let (left, what) = match (by_memory, room.resident) {
            (Some(0), Some(r)) => (r, MEMORY_LIMIT.to_string()),
            // Each pool thread reserves some: fewer threads leave more, when there are
            // several.
            _ if rayon::current_num_threads() > 1 => (
                room.address_space.unwrap_or(0),
                format!("{SPACE_LIMIT}; fewer --threads leave more"),
            ),
            _ => (room.address_space.unwrap_or(0), SPACE_LIMIT.to_string()),
        };
        return Err(exit::resource_error(format!(
            "a {shape} puzzle takes about {} while it is made, more than the {} {what}: free \
             some memory or raise the limit",
            crate::cli::memory::size(resident.max(each + SPACE_MARGIN)),
            crate::cli::memory::size(left)
        )));
    }
    Ok(usize::try_from(fit).unwrap_or(wanted))
}

/// The puzzles of a batch to make at once, as [`puzzles_at_once`] finds them in the
/// memory left now (with a note, but for `--quiet`, when fewer than `wanted`): the batch
/// goes in chunks of that many, so that no more are in the making at a time.
///
/// # Errors
/// An out-of-resources error (status 71) when not even one puzzle fits.
pub(super) fn at_once(ctx: &crate::cli::Ctx, shape: Shape, wanted: usize) -> Result<usize> {
    let at_once = puzzles_at_once(shape, wanted, &crate::cli::memory::headroom())?;
    if at_once < wanted && !ctx.quiet {
        msg!(
            "shiftgrid: note: making {at_once} puzzle{} at a time, not {wanted}: the memory \
             left holds no more at {shape}",
            if at_once == 1 { "" } else { "s" }
        );
    }
    Ok(at_once)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_make_as_many_puzzles_at_once_as_fit() {
        let big = Shape::new(10).unwrap();
        let gb = |g: f64| (g * 1e9) as u64;
        let room = |resident: Option<u64>, space: Option<u64>| Headroom {
            resident,
            address_space: space,
            before_pool: space,
        };
        // Nothing known, or below 64x64: as many as asked.
        assert_eq!(puzzles_at_once(big, 256, &room(None, None)).unwrap(), 256);
        let small = Shape::new(7).unwrap();
        assert_eq!(
            puzzles_at_once(small, 64, &room(Some(1), Some(1))).unwrap(),
            64
        );
        // 12 GB of memory hold 53 puzzles of 100x100.
        assert_eq!(
            puzzles_at_once(big, 256, &room(Some(gb(12.0)), None)).unwrap(),
            53
        );
        assert_eq!(
            puzzles_at_once(big, 16, &room(Some(gb(12.0)), None)).unwrap(),
            16
        );
        // Under `ulimit -v`, as measured: two 100x100 puzzles were made at once from 571
        // MB up, so 0.58 GB left holds one here (on the safe side), and 0.7 GB two.
        assert_eq!(
            puzzles_at_once(big, 16, &room(None, Some(gb(0.58)))).unwrap(),
            1
        );
        assert_eq!(
            puzzles_at_once(big, 16, &room(None, Some(gb(0.7)))).unwrap(),
            2
        );
        // Four 64x64 ones from 446 MB up: 0.5 GB holds three, 0.75 GB six.
        let b8 = Shape::new(8).unwrap();
        assert_eq!(
            puzzles_at_once(b8, 8, &room(None, Some(gb(0.5)))).unwrap(),
            3
        );
        assert_eq!(
            puzzles_at_once(b8, 8, &room(None, Some(gb(0.75)))).unwrap(),
            6
        );
        // Not even one: refused, saying which limit.
        let e = puzzles_at_once(big, 4, &room(Some(gb(0.1)), Some(gb(8.0)))).unwrap_err();
        assert!(e.to_string().contains("of memory available"), "{e}");
        let e = puzzles_at_once(big, 4, &room(Some(gb(8.0)), Some(gb(0.2)))).unwrap_err();
        assert!(e.to_string().contains("ulimit -v"), "{e}");
    }
}
