//! Hot paths allocate nothing: a random playout, after setup, makes no heap allocation.
//! Counted by a global allocator that tallies this thread's allocations.
#![allow(unsafe_code)] // a counting global allocator needs it; nothing else in stickdice does

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use rand::SeedableRng;
use stickdice::games::{HoumtTaourit, SiryuRace};
use stickdice::{
    testing, EsSig, Issiren, Kioz, SigElOued, SigElOuedCapture, SigMzab, SigTozeur, SigWaDuqqan,
    SigWesternSahara, SijatElTaba, SiryuWar, Tab,
};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(|c| c.get())
}

fn playouts_allocate_nothing<G: stickdice::Playouts>() {
    for game in testing::configurations::<G>() {
        let mut rng = stickdice::Rng::seed_from_u64(5);
        let before = allocations();
        let mut throws = 0;
        for _ in 0..50 {
            let mut state = game.initial_state();
            stickdice::play::random_playout(&game, &mut state, &mut rng);
            throws += game.throws_made(&state);
        }
        let made = allocations() - before;
        assert!(throws > 0);
        assert_eq!(
            made,
            0,
            "{} {:?}: {made} allocations in 50 playouts",
            G::NAME,
            game.options()
        );
    }
}

#[test]
fn a_random_playout_allocates_nothing() {
    // The counter itself must see allocations, or the test could not fail.
    let before = allocations();
    let v: Vec<u64> = Vec::with_capacity(10);
    drop(v);
    assert_eq!(allocations() - before, 1);
    playouts_allocate_nothing::<SigWaDuqqan>();
    playouts_allocate_nothing::<SigElOued>();
    playouts_allocate_nothing::<Issiren>();
    playouts_allocate_nothing::<HoumtTaourit>();
    playouts_allocate_nothing::<SiryuRace>();
    playouts_allocate_nothing::<SiryuWar>();
    playouts_allocate_nothing::<SigElOuedCapture>();
    // The described games: their playouts list actions in a stack buffer or in the
    // thread's own (kept from one listing to the next), never in an ActionList that could
    // spill.
    playouts_allocate_nothing::<SigMzab>();
    playouts_allocate_nothing::<SigTozeur>();
    playouts_allocate_nothing::<Kioz>();
    playouts_allocate_nothing::<Tab>();
    playouts_allocate_nothing::<SijatElTaba>();
    playouts_allocate_nothing::<EsSig>();
    playouts_allocate_nothing::<SigWesternSahara>();
}
