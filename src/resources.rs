//! When the system refuses what a run needs: memory, or a thread. The run then ends with
//! one line on stderr and exit status 71, instead of Rust's defaults: for memory, "memory
//! allocation of N bytes failed", a backtrace and an abort (status 134, perhaps a core
//! dump); for a thread, a panic (status 101).
//!
//! An allocation fails, or a thread cannot start, where the process runs under an
//! address-space limit (`ulimit -v`, as batch systems and shared machines set it) or a
//! limit on processes: the search matrices of a large puzzle, or the engines that race on
//! a sparse one, can need more than the limit leaves, and no estimate made before the run
//! covers every path (`fill` and `generate --count` batches still weigh theirs up front,
//! from 64×64 up). The binary
//! installs [`OutOfMemoryExit`] as its global allocator (the library, which forbids
//! `unsafe`, leaves the allocator to its user) and [`thread_refusal_hook`] as its panic
//! hook. Nothing partial is written: output waits in a spool until it is complete (see
//! `cli::output::spool`), and an anonymous spool file goes with the process.
//!
//! The out-of-memory message is written without allocating (a stack buffer, a raw write),
//! and the process ends with `_exit`, which runs no destructor or exit handler that might
//! allocate again. Where several threads fail at once, the first one speaks.
//!
//! [`limits_at_start`] handles two more limits of batch systems: a file-size limit, so that
//! a write past it fails (status 74) rather than killing the run, and a low soft limit on
//! open files, raised as far as the hard limit allows.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by the first thread that ends the run here: the others wait for the end.
static ENDING: AtomicBool = AtomicBool::new(false);

/// The system allocator, ending the process with a message and status 71
/// ([`Exit::OutOfResources`](shiftgrid::cli::Exit::OutOfResources)) when an allocation
/// fails (see the module documentation).
#[derive(Debug, Default, Clone, Copy)]
pub struct OutOfMemoryExit;

// SAFETY: every call is passed to `System` unchanged; only a null result (a failure) is
// acted on, and then the process ends without returning.
unsafe impl GlobalAlloc for OutOfMemoryExit {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            out_of_memory(new_size);
        }
        p
    }
}

/// Writes the message for a failed allocation of `bytes` on stderr and ends the process.
/// Allocates nothing.
#[cold]
fn out_of_memory(bytes: usize) -> ! {
    let mut buf = [0u8; 400];
    let len = message(bytes, &mut buf);
    last_words(&buf[..len])
}

/// Writes `line` on stderr, on a line of its own, and ends the process with status 71; a
/// thread that comes second waits for the end instead. Allocates nothing.
fn last_words(line: &[u8]) -> ! {
    if ENDING.swap(true, Ordering::SeqCst) {
        loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
        }
    }
    // A progress bar may hold the line: start the message on a clean one.
    if shiftgrid::cli::progress::bar_drawn() {
        write_stderr(b"\r\x1b[2K");
    }
    write_stderr(line);
    // An `-o` file being written (its temporary file) goes; the target is left as it was.
    // (Removing a path of usual length allocates nothing.)
    shiftgrid::io::atomic::remove_temporary_files_if_free();
    end(i32::from(shiftgrid::cli::Exit::OutOfResources.code()))
}

/// Settings for the limits the process runs under, made before any thread starts:
///
/// - A file-size limit (`ulimit -f`) sends SIGXFSZ to a write past it, which kills the
///   process, leaving a temporary file cut at the limit beside the `-o` target and saying
///   nothing. Ignored, the write fails (EFBIG) and the run ends as any failed write does:
///   one line, status 74, the temporary file removed.
/// - A soft limit on open files (`ulimit -Sn`) below [`OPEN_FILES`] is raised towards it,
///   as far as the hard limit allows: a run needs about eight descriptors (the standard
///   streams, the signal handlers' pipes, its input, the `-o` file's temporary file and a
///   spool file), and with fewer the output failed only once all the work was done.
/// - Under an address-space limit (`ulimit -v`), glibc's allocator is held to one arena
///   (as `MALLOC_ARENA_MAX=1` does; a value the user set is kept): by default it reserves
///   64 MB of address space for each thread that allocates, which about doubled what a
///   run needed (a 100×100 fill on two threads: 542 MB, against 285 MB with one arena).
///   The hot loops do not allocate, so the one arena costs no measurable time.
pub fn limits_at_start() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    one_arena_under_an_address_limit();
    #[cfg(unix)]
    {
        use nix::libc;
        use nix::sys::signal::{SigHandler, Signal, signal};
        // SAFETY: SIG_IGN installs no handler code.
        let _ = unsafe { signal(Signal::SIGXFSZ, SigHandler::SigIgn) };
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: a valid pointer to an `rlimit`, read and then written.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0
                && limit.rlim_cur < OPEN_FILES
                && limit.rlim_cur < limit.rlim_max
            {
                limit.rlim_cur = OPEN_FILES.min(limit.rlim_max);
                libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
            }
        }
    }
}

/// Holds glibc's allocator to one arena when the address space is limited and
/// `MALLOC_ARENA_MAX` is not set (see [`limits_at_start`]). Called before any thread
/// starts.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn one_arena_under_an_address_limit() {
    use nix::libc;
    // glibc ignores a value that is not a whole number above 0, as here.
    let set = std::env::var("MALLOC_ARENA_MAX")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .is_some_and(|n| n > 0);
    if set {
        return;
    }
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: a valid pointer to an `rlimit`; `mallopt` takes plain integers, and no other
    // thread allocates yet.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_AS, &mut limit) == 0
            && limit.rlim_cur != libc::RLIM_INFINITY
        {
            libc::mallopt(libc::M_ARENA_MAX, 1);
        }
    }
}

/// The open files a run may want: eight, and room for name files.
#[cfg(unix)]
const OPEN_FILES: nix::libc::rlim_t = 64;

/// Installs the panic hook that ends a run whose thread could not start (a panic of
/// `std::thread::scope`'s spawn, or of rayon's first use of its pool) with one line and
/// status 71, as [`OutOfMemoryExit`] ends one out of memory. Any other panic is a bug and
/// goes to the default hook, backtrace and all.
pub fn thread_refusal_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let text = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("");
        match refused_thread(text) {
            Some(why) => last_words(
                format!(
                    "shiftgrid: error: a worker thread could not start ({why}): under `ulimit \
                     -v`, or a limit on processes or threads (`ulimit -u`, a container's); \
                     a higher limit may help\n"
                )
                .as_bytes(),
            ),
            None => default(info),
        }
    }));
}

/// The system's reason when a panic's `text` says a thread could not start: std's
/// "failed to spawn thread: …" or rayon's "The global thread pool has not been
/// initialized.: ThreadPoolBuildError { … message: "…" … }".
fn refused_thread(text: &str) -> Option<&str> {
    if !(text.starts_with("failed to spawn thread")
        || text.starts_with("The global thread pool has not been initialized"))
    {
        return None;
    }
    // The OS error's message, as Debug prints it: `message: "Resource temporarily
    // unavailable"`.
    let why = text
        .split_once("message: \"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map_or("the system refused it", |(why, _)| why);
    Some(why)
}

/// Writes `bytes` on stderr with no lock and no buffer (`std::io::stderr` may allocate the
/// first time a thread takes its lock); a failed write is ignored.
fn write_stderr(mut bytes: &[u8]) {
    #[cfg(unix)]
    while !bytes.is_empty() {
        // SAFETY: a valid buffer of `bytes.len()` bytes.
        let n = unsafe { nix::libc::write(2, bytes.as_ptr().cast(), bytes.len()) };
        match usize::try_from(n) {
            Ok(n) if n > 0 => bytes = &bytes[n..],
            _ if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {}
            _ => return,
        }
    }
    #[cfg(not(unix))]
    {
        use std::io::Write as _;
        let _ = std::io::stderr().write_all(bytes);
    }
}

/// The message for a failed allocation of `bytes`, written into `buf`; gives its length.
fn message(bytes: usize, buf: &mut [u8]) -> usize {
    let mut w = Cursor { buf, len: 0 };
    w.put(b"shiftgrid: error: out of memory: an allocation of ");
    if bytes >= 1_000_000 {
        w.number(bytes / 1_000_000 + usize::from(bytes % 1_000_000 >= 500_000));
        w.put(b" MB");
    } else {
        w.number(bytes);
        w.put(b" bytes");
    }
    w.put(
        b" failed (under `ulimit -v`, or with the machine's memory used up): a higher \
          limit may help, or fewer --threads for a batch\n",
    );
    w.len
}

/// Writing into a fixed buffer; what does not fit is dropped.
struct Cursor<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl Cursor<'_> {
    fn put(&mut self, bytes: &[u8]) {
        let n = bytes.len().min(self.buf.len() - self.len);
        self.buf[self.len..self.len + n].copy_from_slice(&bytes[..n]);
        self.len += n;
    }

    fn number(&mut self, mut n: usize) {
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.put(&digits[i..]);
    }
}

/// Ends the process with `status` at once: no destructor, no exit handler, no flush.
fn end(status: i32) -> ! {
    #[cfg(unix)]
    {
        // SAFETY: `_exit` is async-signal-safe and takes no pointer.
        unsafe { nix::libc::_exit(status) }
    }
    #[cfg(not(unix))]
    {
        std::process::exit(status)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(bytes: usize) -> String {
        let mut buf = [0u8; 400];
        let n = message(bytes, &mut buf);
        String::from_utf8(buf[..n].to_vec()).unwrap()
    }

    #[test]
    fn the_message_names_the_size_and_what_helps() {
        let m = text(21_790_624);
        assert!(
            m.starts_with("shiftgrid: error: out of memory: an allocation of 22 MB failed ("),
            "{m}"
        );
        assert!(
            m.contains("higher limit") && m.ends_with("for a batch\n"),
            "{m}"
        );
        assert!(text(0).contains("of 0 bytes failed"));
        assert!(text(999_999).contains("of 999999 bytes failed"));
        assert!(text(1_000_000).contains("of 1 MB failed"));
        assert!(text(1_048_576).contains("of 1 MB failed"));
        assert!(text(1_500_000).contains("of 2 MB failed"));
        assert!(text(usize::MAX).contains(&format!("of {} MB", usize::MAX / 1_000_000 + 1)));
    }

    #[test]
    fn thread_refusals_are_told_from_other_panics() {
        // The texts std and rayon 1.x panic with when a thread cannot start.
        let os =
            r#"Os { code: 11, kind: WouldBlock, message: "Resource temporarily unavailable" }"#;
        assert_eq!(
            refused_thread(&format!("failed to spawn thread: {os}")),
            Some("Resource temporarily unavailable")
        );
        assert_eq!(
            refused_thread(&format!(
                "The global thread pool has not been initialized.: ThreadPoolBuildError {{ \
                 kind: IOError({os}) }}"
            )),
            Some("Resource temporarily unavailable")
        );
        assert_eq!(
            refused_thread("failed to spawn thread"),
            Some("the system refused it")
        );
        assert_eq!(refused_thread("index out of bounds"), None);
        assert_eq!(
            refused_thread("called `Option::unwrap()` on a `None` value"),
            None
        );
    }

    #[test]
    fn a_short_buffer_cuts_the_message_without_panicking() {
        let mut buf = [0u8; 30];
        assert_eq!(message(123, &mut buf), 30);
        assert_eq!(&buf[..], b"shiftgrid: error: out of memor");
    }
}
