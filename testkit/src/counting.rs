//! A global allocator that counts this thread's allocations, for the tests that check that
//! hot paths allocate nothing. A test binary installs it with
//! `#[global_allocator] static GLOBAL: Counting = Counting;` and reads [`allocations`]
//! before and after the code under test.
#![allow(unsafe_code)] // a counting global allocator needs it; nothing else does

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting each allocation and reallocation on the calling thread.
#[derive(Debug)]
pub struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to the system allocator.
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

/// Allocations made so far on this thread (while [`Counting`] is the global allocator).
pub fn allocations() -> u64 {
    ALLOCATIONS.with(|c| c.get())
}
