//! Tests of the progress bars: units, hidden bars, every meter, and the stream bar's switch
//! to puzzle counts.

use super::*;

#[test]
fn human_units() {
    assert_eq!(human(12.0), "12");
    assert_eq!(human(1234.0), "1.2k");
    assert_eq!(human(1_234_567.0), "1.23M");
    assert_eq!(human(3e9), "3.00G");
}

#[test]
fn hidden_progress_is_inert() {
    let control = SearchControl::default();
    let hidden = [
        Progress::new(false, 10, "puzzles", &control, None),
        Progress::new(false, 1, "puzzles", &control, Some(81)),
        Progress::stream(
            false,
            "puzzles",
            &control,
            Arc::default(),
            None,
            Arc::default(),
            Arc::default(),
        ),
        Progress::generate(false, &control, 81, 20, 4),
    ];
    for p in hidden {
        // No bar to draw and no thread ticking it; the counter still counts.
        assert!(p.bar.is_none() && p.ticker.is_none());
        p.done.fetch_add(3, Ordering::Relaxed);
        assert_eq!(p.done.load(Ordering::Relaxed), 3);
        p.finish();
    }
    // Visible, there is a bar and a ticker (which finishing stops and joins).
    let p = Progress::new(true, 10, "puzzles", &control, None);
    assert!(p.bar.is_some() && p.ticker.is_some());
    p.finish();
}

#[test]
fn a_stream_bar_counts_puzzles_once_the_input_is_read() {
    let control = SearchControl::default();
    let read = Arc::new(AtomicU64::new(700));
    let taken = Arc::new(AtomicU64::new(2));
    let ended = Arc::new(AtomicBool::new(false));
    let meter = Meter::Stream {
        read: Arc::clone(&read),
        size: Some(1000),
        taken: Arc::clone(&taken),
        ended: Arc::clone(&ended),
    };
    let bar = ProgressBar::hidden();
    bar.set_length(1000);
    let done = AtomicU64::new(1);
    tick(&bar, &meter, &control, &done, "puzzles", Instant::now());
    assert_eq!(
        (bar.position(), bar.prefix().as_str()),
        (700, " 70% of 1000 B")
    );
    // Every byte read (a reader reads ahead) but not every puzzle parsed: still bytes.
    read.store(1000, Ordering::Relaxed);
    tick(&bar, &meter, &control, &done, "puzzles", Instant::now());
    assert_eq!(bar.prefix(), "100% of 1000 B");
    // Read to the end, one puzzle of three still searching: not "100%".
    taken.store(3, Ordering::Relaxed);
    ended.store(true, Ordering::Relaxed);
    tick(&bar, &meter, &control, &done, "puzzles", Instant::now());
    assert_eq!((bar.position(), bar.length()), (1, Some(3)));
    assert_eq!(bar.prefix(), "1/3 puzzles");
}

#[test]
fn every_meter_ticks() {
    let control = SearchControl::default();
    control.nodes.store(5000, Ordering::Relaxed);
    control.checks.store(30, Ordering::Relaxed);
    let read = Arc::new(AtomicU64::new(700));
    let meters = [
        Meter::Items,
        Meter::Search { fill_cells: None },
        Meter::Search {
            fill_cells: Some(81),
        },
        Meter::Stream {
            read: Arc::clone(&read),
            size: Some(1000),
            taken: Arc::new(AtomicU64::new(3)),
            ended: Arc::default(),
        },
        Meter::Stream {
            read,
            size: None,
            taken: Arc::default(),
            ended: Arc::default(),
        },
        Meter::Generate {
            cells: 81,
            orbits: 20,
            rounds: 4,
        },
    ];
    for meter in &meters {
        let bar = ProgressBar::hidden();
        bar.set_length(10);
        tick(
            &bar,
            meter,
            &control,
            &AtomicU64::new(4),
            "puzzles",
            Instant::now(),
        );
        assert!(bar.message().contains("5.0k nodes"), "{}", bar.message());
    }
    let bar = ProgressBar::hidden();
    let generate = Meter::Generate {
        cells: 81,
        orbits: 20,
        rounds: 4,
    };
    let tick_generate = || {
        tick(
            &bar,
            &generate,
            &control,
            &AtomicU64::new(0),
            "",
            Instant::now(),
        )
    };
    tick_generate();
    assert_eq!((bar.position(), bar.length()), (30, Some(30)));
    assert!(bar.prefix().contains("orbits checked"), "{}", bar.prefix());
    // No report from the generator yet: every cell is a given, not none.
    assert!(
        bar.message().starts_with("81/81 givens left"),
        "{}",
        bar.message()
    );
    control.givens.store(40, Ordering::Relaxed);
    tick_generate();
    assert!(
        bar.message().starts_with("40/81 givens left"),
        "{}",
        bar.message()
    );
    // With checks still queued the bar counts them in.
    control.queued.store(10, Ordering::Relaxed);
    tick_generate();
    assert_eq!((bar.position(), bar.length()), (30, Some(40)));
    assert_eq!(bar.prefix(), " 75% of 40 orbits checked");
    // Once the rounds begin, the bar counts them.
    control.improving.store(true, Ordering::Relaxed);
    control.rounds.store(2, Ordering::Relaxed);
    tick_generate();
    assert_eq!((bar.position(), bar.length()), (2, Some(4)));
    assert_eq!(bar.prefix(), "2/4 rounds of improvement");
    // A genetic-algorithm run: generations, then the best fitness once one is graded.
    let p = GaProgress::default();
    let ga = Meter::Ga(p.clone());
    let bar = ProgressBar::hidden();
    let tick_ga = || tick(&bar, &ga, &control, &AtomicU64::new(0), "", Instant::now());
    p.generation.store(3, Ordering::Relaxed);
    tick_ga();
    assert_eq!((bar.position(), bar.message().as_str()), (3, ""));
    p.best_fitness.store(42, Ordering::Relaxed);
    p.best_level.store(5, Ordering::Relaxed);
    p.best_steps.store(17, Ordering::Relaxed);
    p.mean_fitness_milli.store(12_500, Ordering::Relaxed);
    p.evaluations.store(80, Ordering::Relaxed);
    tick_ga();
    assert_eq!(
        bar.message(),
        "best L5 S17 (fitness 42), mean fitness 12.5, 80 evaluated"
    );
}

#[test]
fn the_bar_is_ascii_outside_a_utf8_locale() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            pairs
                .iter()
                .find(|(name, _)| *name == k)
                .map(|(_, v)| std::ffi::OsString::from(v))
        }
    };
    assert!(utf8_locale(env(&[("LANG", "en_US.UTF-8")])));
    assert!(utf8_locale(env(&[("LC_CTYPE", "de_DE.utf8")])));
    // No locale at all is the C locale.
    assert!(!utf8_locale(env(&[])));
    assert!(!utf8_locale(env(&[("LANG", "C")])));
    // LC_ALL wins over LANG; an empty one counts as unset.
    assert!(!utf8_locale(env(&[
        ("LC_ALL", "C"),
        ("LANG", "en_US.UTF-8")
    ])));
    assert!(utf8_locale(env(&[("LC_ALL", ""), ("LANG", "en_US.UTF-8")])));
    assert!(!utf8_locale(env(&[
        ("LC_CTYPE", "POSIX"),
        ("LANG", "fr_FR.UTF-8")
    ])));
    assert!(!utf8_locale(env(&[("LANG", "ja_JP.eucJP")])));
}

#[test]
fn the_bar_narrows_on_narrow_terminals() {
    assert_eq!(bar_field(Some(120)), "{bar:30} ");
    assert_eq!(bar_field(Some(100)), "{bar:30} ");
    assert_eq!(bar_field(Some(80)), "{bar:10} ");
    assert_eq!(bar_field(Some(77)), "");
    assert_eq!(bar_field(Some(40)), "");
    assert_eq!(bar_field(None), "{bar:10} ");
}
