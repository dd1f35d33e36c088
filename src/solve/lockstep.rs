//! Deterministic races: the engines of a race, and the learners that count together, advance
//! in *epochs* of a fixed amount of their own work and wait for each other at the end of
//! every epoch, so that what they exchange and who wins depend only on the input, never on
//! thread timing. The same input gives the same answer on every run, whichever engine finds
//! it first in wall-clock time.
//!
//! Each participant (one thread) counts its own work in units that are a deterministic
//! function of its search (propagated options for a learner, nodes for the other engines)
//! and calls [`Pacer::step`] where it polls for interrupts. When the work passes the end of
//! its epoch it *arrives* at the barrier and waits until every running participant has
//! arrived; the last to arrive merges what each handed in (a learner's short learned clauses
//! and the solutions it found), in participant order, into one log that everyone then reads.
//!
//! A participant that settles its task (a complete answer) *leaves* in the epoch it settled
//! in; the others stop when they reach that epoch's barrier, so a participant listed earlier
//! that settles in the same epoch still can. The winner is the earliest (epoch, participant)
//! that settled. This is the barrier scheme of deterministic parallel SAT solving (Hamadi,
//! Jabbour, Piette and Sais, "Deterministic parallel DPLL", JSAT 7, 2011) with the
//! participants' own work as the clock.
//!
//! What costs: the faster participant of an epoch waits for the slower one, and a clause
//! reaches the others at the end of the epoch it was learned in rather than at once. Epochs
//! are a few milliseconds (the lengths are the callers': `learn::epoch_propagations`,
//! `portfolio::epoch_work`). An interrupt or a deadline still stops everyone at once, and
//! what a run cut short that way returns depends on when it was cut.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// The most of the log (in `u32` words, 16 MB) kept for participants that have not started.
const LATE_LOG_WORDS: usize = 1 << 22;

/// How often a participant waiting at a barrier looks at its stop flag (interrupt, deadline).
const WAIT_POLL: Duration = Duration::from_millis(5);

/// What a participant hands the others at the end of an epoch.
#[derive(Clone, Debug, Default)]
pub(crate) struct Deposit {
    /// Learned clauses, `[lbd, len, lit…]` each.
    pub clauses: Vec<u32>,
    /// Solutions found in the epoch, symbol per cell.
    pub solutions: Vec<Vec<u8>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    /// Starts at the first barrier where a solution is listed.
    Late,
    Running,
    Gone,
}

#[derive(Debug)]
struct State {
    /// Barriers passed.
    epoch: u64,
    status: Vec<Status>,
    arrived: Vec<bool>,
    deposits: Vec<Deposit>,
    /// Clause records `[from, lbd, len, lit…]` of every epoch, in merge order; entries
    /// before `base` (absolute offset of `log[0]`) have been read by everyone.
    log: Vec<u32>,
    base: usize,
    /// Per participant: absolute log offset read up to (always a record's start).
    cursor: Vec<usize>,
    /// Per participant: whether it reads the log (learners); the others (DLX, propagation,
    /// the fill search) hold no part of it.
    reads: Vec<bool>,
    /// Every solution handed in, first-found order (epoch, then participant), no repeats.
    solutions: Vec<Vec<u8>>,
    /// The earliest settling: (epoch, participant).
    finish: Option<(u64, usize)>,
}

/// The barrier and the shared log of one race. See the module docs.
#[derive(Debug)]
pub(crate) struct Lockstep {
    state: Mutex<State>,
    cv: Condvar,
}

/// What a participant does after a barrier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Go on with the next epoch (after reading the log).
    Continue,
    /// Stop: a participant settled, or the caller's stop flag is up.
    Stop,
}

impl Lockstep {
    /// A lockstep of `late.len()` participants that all read the log; those marked late
    /// wait (in [`Lockstep::wait_start`]) until a solution is listed.
    pub(crate) fn new(late: &[bool]) -> Lockstep {
        Lockstep::with_readers(late, &vec![true; late.len()])
    }

    /// [`Lockstep::new`], where only the participants marked in `reads` read the log: the
    /// log is kept for them alone.
    pub(crate) fn with_readers(late: &[bool], reads: &[bool]) -> Lockstep {
        let k = late.len();
        Lockstep {
            state: Mutex::new(State {
                epoch: 0,
                status: late
                    .iter()
                    .map(|&l| if l { Status::Late } else { Status::Running })
                    .collect(),
                arrived: vec![false; k],
                deposits: vec![Deposit::default(); k],
                log: Vec::new(),
                base: 0,
                cursor: vec![0; k],
                reads: reads.to_vec(),
                solutions: Vec::new(),
                finish: None,
            }),
            cv: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .expect("no participant panics holding the lockstep")
    }

    /// Waits until late participant `me` may start; `false` when the race ended (or `stop`
    /// said so) first.
    pub(crate) fn wait_start(&self, me: usize, stop: &dyn Fn() -> bool) -> bool {
        let mut s = self.lock();
        loop {
            match s.status[me] {
                Status::Running => return true,
                Status::Gone => return false,
                Status::Late => {}
            }
            if s.finish.is_some() || stop() || !s.status.contains(&Status::Running) {
                s.status[me] = Status::Gone;
                Self::settle_barrier(&mut s, &self.cv);
                return false;
            }
            s = self.cv.wait_timeout(s, WAIT_POLL).expect("lockstep lock").0;
        }
    }

    /// Participant `me` ends its epoch: hands in `deposit` (emptied) and waits for the
    /// others. `leave_once_found`: a participant that is only after a first solution (a
    /// scout) leaves at the first barrier where one is listed.
    pub(crate) fn arrive(
        &self,
        me: usize,
        deposit: &mut Deposit,
        leave_once_found: bool,
        stop: &dyn Fn() -> bool,
    ) -> Step {
        let mut s = self.lock();
        Self::hand_in(&mut s, me, deposit);
        s.arrived[me] = true;
        let epoch = s.epoch;
        Self::settle_barrier(&mut s, &self.cv);
        while s.epoch == epoch {
            if stop() {
                s.status[me] = Status::Gone;
                s.arrived[me] = false;
                Self::settle_barrier(&mut s, &self.cv);
                return Step::Stop;
            }
            s = self.cv.wait_timeout(s, WAIT_POLL).expect("lockstep lock").0;
        }
        // Only a settling in the epoch just ended counts: a participant that passed this
        // barrier first may have settled in the next epoch already, which this one has
        // still to run (the solutions list grows only at barriers, which wait for it).
        let settled = s.finish.is_some_and(|(at, _)| at <= epoch);
        if settled || (leave_once_found && !s.solutions.is_empty()) {
            s.status[me] = Status::Gone;
            Self::settle_barrier(&mut s, &self.cv);
            return Step::Stop;
        }
        Step::Continue
    }

    /// Participant `me` is done: `settled` when it has the complete answer. Its deposit is
    /// merged at the end of the current epoch.
    pub(crate) fn leave(&self, me: usize, deposit: &mut Deposit, settled: bool) {
        let mut s = self.lock();
        Self::hand_in(&mut s, me, deposit);
        if settled {
            let at = (s.epoch, me);
            s.finish = Some(s.finish.map_or(at, |f| f.min(at)));
        }
        s.status[me] = Status::Gone;
        s.arrived[me] = false;
        Self::settle_barrier(&mut s, &self.cv);
        // A lone leaver (nobody else running) merges its own deposit now.
        if !s.status.contains(&Status::Running) {
            Self::merge(&mut s);
            self.cv.notify_all();
        }
    }

    fn hand_in(s: &mut State, me: usize, deposit: &mut Deposit) {
        let d = &mut s.deposits[me];
        d.clauses.append(&mut deposit.clauses);
        d.solutions.append(&mut deposit.solutions);
    }

    /// Completes the barrier if every running participant has arrived (and one has).
    fn settle_barrier(s: &mut State, cv: &Condvar) {
        let running = s.status.iter().filter(|&&x| x == Status::Running).count();
        let arrived = s.arrived.iter().filter(|&&a| a).count();
        if arrived == 0 || arrived < running {
            return;
        }
        Self::merge(s);
        s.arrived.iter_mut().for_each(|a| *a = false);
        s.epoch += 1;
        // A late participant reads the log kept for it when it starts: at most the last
        // `LATE_LOG_WORDS` of it (from the first whole record there), so a long wait does
        // not grow memory without bound.
        let keep_from = (s.base + s.log.len()).saturating_sub(LATE_LOG_WORDS);
        let start_late = !s.solutions.is_empty() && s.finish.is_none();
        for k in 0..s.status.len() {
            if s.status[k] == Status::Late {
                s.cursor[k] = Self::record_from(s, s.cursor[k], keep_from);
                if start_late {
                    s.status[k] = Status::Running;
                }
            }
        }
        // Forget the log every reader still running (or still to start) has read.
        let low = (0..s.status.len())
            .filter(|&k| s.status[k] != Status::Gone && s.reads[k])
            .map(|k| s.cursor[k])
            .min()
            .unwrap_or(s.base + s.log.len());
        if low > s.base {
            s.log.drain(..low - s.base);
            s.base = low;
        }
        cv.notify_all();
    }

    /// The start of the first record at or after absolute offset `target`, walking the
    /// records from `cursor` (a record's start); `cursor` itself when past `target`.
    fn record_from(s: &State, cursor: usize, target: usize) -> usize {
        let mut at = cursor - s.base;
        while s.base + at < target && at < s.log.len() {
            at += 3 + s.log[at + 2] as usize;
        }
        s.base + at
    }

    /// Appends every deposit to the log, in participant order.
    fn merge(s: &mut State) {
        for k in 0..s.deposits.len() {
            let d = std::mem::take(&mut s.deposits[k]);
            let mut at = 0;
            while at < d.clauses.len() {
                let len = d.clauses[at + 1] as usize;
                s.log.push(k as u32);
                s.log.extend_from_slice(&d.clauses[at..at + 2 + len]);
                at += 2 + len;
            }
            for sol in d.solutions {
                if !s.solutions.contains(&sol) {
                    s.solutions.push(sol);
                }
            }
        }
    }

    /// What participant `me` has not read yet: clause records `[lbd, len, lit…]` from the
    /// others appended to `clauses`, and the solutions listed from `from_solution` on.
    pub(crate) fn read(
        &self,
        me: usize,
        clauses: &mut Vec<u32>,
        from_solution: usize,
    ) -> Vec<Vec<u8>> {
        let mut s = self.lock();
        let mut at = s.cursor[me] - s.base;
        while at < s.log.len() {
            let from = s.log[at] as usize;
            let len = s.log[at + 2] as usize;
            if from != me {
                clauses.extend_from_slice(&s.log[at + 1..at + 3 + len]);
            }
            at += 3 + len;
        }
        s.cursor[me] = s.base + s.log.len();
        s.solutions.get(from_solution..).unwrap_or(&[]).to_vec()
    }

    /// Every solution handed in, and the participant that settled first (if any).
    ///
    /// Deposits not merged yet count too, in the order a merge would give them: a learner
    /// that settles leaves its last solutions in a deposit that the next barrier merges,
    /// and in a race that barrier waits for the other engines, which may still be running
    /// when the learners' part of the race reads its outcome.
    pub(crate) fn outcome(&self) -> (Vec<Vec<u8>>, Option<usize>) {
        let s = self.lock();
        let mut solutions = s.solutions.clone();
        for d in &s.deposits {
            for sol in &d.solutions {
                if !solutions.contains(sol) {
                    solutions.push(sol.clone());
                }
            }
        }
        (solutions, s.finish.map(|f| f.1))
    }
}

/// One participant's clock: its work so far and where its epoch ends.
#[derive(Debug)]
pub(crate) struct Pacer {
    pub lockstep: Arc<Lockstep>,
    /// Its index among the lockstep's participants.
    pub me: usize,
    /// Work per epoch.
    per_epoch: u64,
    /// Work at which the current epoch ends; the engine's last reported counter.
    next: AtomicU64,
    last: AtomicU64,
    total: AtomicU64,
    stopped: AtomicBool,
}

impl Pacer {
    /// Participant `me` of `lockstep`, with epochs of `per_epoch` units of work counted
    /// from the counter value `start`.
    pub(crate) fn new(lockstep: Arc<Lockstep>, me: usize, per_epoch: u64, start: u64) -> Pacer {
        Pacer {
            lockstep,
            me,
            per_epoch,
            next: AtomicU64::new(per_epoch),
            last: AtomicU64::new(start),
            total: AtomicU64::new(0),
            stopped: AtomicBool::new(false),
        }
    }

    /// Reports the participant's work counter (it may restart from 0 between calls: only
    /// increases count). `None` within an epoch; at its end, hands in `deposit` and waits
    /// at the barrier (see [`Lockstep::arrive`]). Once told to stop, always `Stop`.
    pub(crate) fn step(
        &self,
        counter: u64,
        deposit: &mut Deposit,
        leave_once_found: bool,
        stop: &dyn Fn() -> bool,
    ) -> Option<Step> {
        if self.stopped.load(Ordering::Relaxed) {
            return Some(Step::Stop);
        }
        let last = self.last.swap(counter, Ordering::Relaxed);
        let delta = counter.checked_sub(last).unwrap_or(counter);
        let total = self.total.fetch_add(delta, Ordering::Relaxed) + delta;
        if total < self.next.load(Ordering::Relaxed) {
            return None;
        }
        self.next.store(total + self.per_epoch, Ordering::Relaxed);
        let step = self
            .lockstep
            .arrive(self.me, deposit, leave_once_found, stop);
        if step == Step::Stop {
            self.stopped.store(true, Ordering::Relaxed);
        }
        Some(step)
    }

    /// [`Pacer::step`] for an engine that shares nothing: `true` when it must stop.
    pub(crate) fn pace(&self, counter: u64, stop: &dyn Fn() -> bool) -> bool {
        self.step(counter, &mut Deposit::default(), false, stop) == Some(Step::Stop)
    }

    /// Whether the lockstep told this participant to stop.
    pub(crate) fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// The participant is done (`settled`: with the complete answer), handing in what is
    /// left of its deposit.
    pub(crate) fn leave(&self, deposit: &mut Deposit, settled: bool) {
        self.lockstep.leave(self.me, deposit, settled);
    }
}

/// Held by a participant's thread: should it panic (a bug), the participant leaves as it
/// unwinds, so that the others do not wait for it at the next barrier for ever (the join
/// then passes the panic on) .
pub(crate) struct LeaveOnPanic<'a>(pub &'a Lockstep, pub usize);

impl Drop for LeaveOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() && !self.0.state.is_poisoned() {
            self.0.leave(self.1, &mut Deposit::default(), false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two participants with different speeds: the one listed first settles in epoch 3,
    /// the other in epoch 2 of its own clock, so the second wins whatever the timing.
    #[test]
    fn the_earliest_epoch_wins_whatever_the_timing() {
        for slow in 0..2 {
            let l = Arc::new(Lockstep::new(&[false, false]));
            std::thread::scope(|scope| {
                for me in 0..2 {
                    let l = l.clone();
                    scope.spawn(move || {
                        let p = Pacer::new(l.clone(), me, 10, 0);
                        let settle_at = if me == 0 { 35 } else { 25 };
                        for work in 1..100u64 {
                            if me == slow {
                                std::thread::sleep(Duration::from_micros(300));
                            }
                            if work == settle_at {
                                p.leave(&mut Deposit::default(), true);
                                return;
                            }
                            if p.pace(work, &|| false) {
                                p.leave(&mut Deposit::default(), false);
                                return;
                            }
                        }
                    });
                }
            });
            assert_eq!(l.outcome().1, Some(1), "slow participant {slow}");
        }
    }

    /// Deposits reach the other participant in participant order, once each.
    #[test]
    fn deposits_are_merged_in_participant_order() {
        let l = Lockstep::new(&[false, false]);
        let mut d1 = Deposit {
            clauses: vec![2, 2, 7, 9],
            solutions: vec![vec![2, 1]],
        };
        let mut d0 = Deposit {
            clauses: vec![1, 1, 5],
            solutions: vec![vec![1, 2], vec![2, 1]],
        };
        std::thread::scope(|scope| {
            scope.spawn(|| l.arrive(1, &mut d1, false, &|| false));
            l.arrive(0, &mut d0, false, &|| false);
        });
        let mut got = Vec::new();
        let sols = l.read(0, &mut got, 0);
        assert_eq!(got, vec![2, 2, 7, 9]);
        assert_eq!(sols, vec![vec![1, 2], vec![2, 1]]);
        let mut got = Vec::new();
        l.read(1, &mut got, 1);
        assert_eq!(got, vec![1, 1, 5]);
        let mut again = Vec::new();
        assert!(l.read(1, &mut again, 2).is_empty() && again.is_empty());
    }

    /// A late participant starts at the first barrier after a solution is listed.
    #[test]
    fn a_late_participant_starts_once_a_solution_is_listed() {
        let l = Lockstep::new(&[false, true]);
        std::thread::scope(|scope| {
            let h = scope.spawn(|| l.wait_start(1, &|| false));
            l.arrive(0, &mut Deposit::default(), false, &|| false);
            let mut d = Deposit {
                clauses: Vec::new(),
                solutions: vec![vec![1]],
            };
            l.arrive(0, &mut d, false, &|| false);
            assert!(h.join().unwrap());
            l.leave(0, &mut Deposit::default(), true);
            l.leave(1, &mut Deposit::default(), false);
        });
        assert_eq!(l.outcome(), (vec![vec![1]], Some(0)));
    }

    /// A late participant starts reading at a record's start, however long the log grew
    /// while it waited: it once started `LATE_LOG_WORDS` back from the end, mid-record,
    /// and took the words there for clauses (empty ones among them, which end a count as
    /// complete), or read past the log's end.
    #[test]
    fn a_late_participant_reads_whole_records() {
        let l = Lockstep::new(&[false, true]);
        let mut next = 0u32;
        let mut words = 0;
        // Six words a record in the log ([from, lbd, len, three literals]): the cut,
        // 2^22 words back from the end, falls inside one.
        while words <= LATE_LOG_WORDS + 6_000 {
            let mut d = Deposit::default();
            for _ in 0..1_000 {
                d.clauses.extend([2, 3, next, next + 1, next + 2]);
                next += 3;
            }
            l.arrive(0, &mut d, false, &|| false);
            words += 6_000;
        }
        let mut d = Deposit {
            clauses: Vec::new(),
            solutions: vec![vec![1]],
        };
        l.arrive(0, &mut d, false, &|| false);
        assert!(l.wait_start(1, &|| false));
        let mut got = Vec::new();
        l.read(1, &mut got, 0);
        assert!(got.len() > LATE_LOG_WORDS * 5 / 6 - 10 && got.len() <= LATE_LOG_WORDS);
        let records: Vec<&[u32]> = got.chunks(5).collect();
        for (k, r) in records.iter().enumerate() {
            assert_eq!(&r[..2], &[2, 3], "record {k}");
            assert_eq!(&r[3..], &[r[2] + 1, r[2] + 2], "record {k}");
        }
        assert_eq!(records.last().unwrap()[4], next - 1);
    }

    /// The log is kept for the participants that read it: one that never does (an engine
    /// racing the learners) once held all of it for the whole race.
    #[test]
    fn the_log_is_kept_for_readers_alone() {
        let l = Lockstep::with_readers(&[false, false], &[true, false]);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                for _ in 0..50 {
                    l.arrive(1, &mut Deposit::default(), false, &|| false);
                }
            });
            for epoch in 0..50 {
                let mut d = Deposit {
                    clauses: vec![2, 2, 2 * epoch, 2 * epoch + 1],
                    solutions: Vec::new(),
                };
                l.arrive(0, &mut d, false, &|| false);
                l.read(0, &mut Vec::new(), 0);
            }
        });
        // What the reader has read goes at the next barrier: one epoch's record at most.
        assert!(l.lock().log.len() <= 5, "{} words kept", l.lock().log.len());
    }

    /// A participant that panics leaves as it unwinds: the other goes on (it waited at
    /// the next barrier for ever).
    #[test]
    fn a_participant_that_panics_leaves() {
        let l = Lockstep::new(&[false, false]);
        let start = std::time::Instant::now();
        let stop = || start.elapsed() > Duration::from_secs(10);
        std::thread::scope(|scope| {
            let h = scope.spawn(|| {
                let _left = LeaveOnPanic(&l, 1);
                l.arrive(1, &mut Deposit::default(), false, &stop);
                panic!("a bug in an engine");
            });
            for _ in 0..5 {
                l.arrive(0, &mut Deposit::default(), false, &stop);
            }
            assert!(h.join().is_err());
        });
        assert!(
            !stop(),
            "the other participant waited for the one that panicked"
        );
    }

    /// A participant that settles leaves its last solutions in a deposit; they count in
    /// the outcome at once, before the barrier that merges them (in a race it waits for
    /// the other engines, which may still be running when the learners read their part:
    /// `solve --first` once reported "no solution" for a roster that way).
    #[test]
    fn a_settled_participants_last_solutions_count_before_the_barrier() {
        let l = Lockstep::new(&[false, false]);
        let mut d = Deposit {
            clauses: Vec::new(),
            solutions: vec![vec![3]],
        };
        l.leave(0, &mut d, true);
        assert_eq!(l.outcome(), (vec![vec![3]], Some(0)));
        l.leave(1, &mut Deposit::default(), false);
        assert_eq!(l.outcome(), (vec![vec![3]], Some(0)));
    }
}
