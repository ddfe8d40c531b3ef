//! The page maps in transparent huge pages where the kernel offers them.
//!
//! The forward and reverse maps of a large drive span hundreds of megabytes and are accessed at
//! random, so with 4 KiB pages nearly every access also misses the TLB and walks the page
//! tables. Backing them with 2 MiB pages (Linux transparent huge pages, `madvise(2)` with
//! `MADV_HUGEPAGE`; see the kernel's Documentation/admin-guide/mm/transhuge.rst) leaves one TLB
//! entry per 2 MiB. Where the kernel refuses or the platform has no such call, the vector is an
//! ordinary one: only the speed differs.

/// Vectors smaller than this are left alone (a huge page is 2 MiB on x86-64).
const HUGE_PAGE_BYTES: usize = 2 << 20;

/// A vector of `len` copies of `value`, whose memory was advised as huge pages before its first
/// touch.
pub fn filled_vec<T: Copy>(len: usize, value: T) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(len);
    let bytes = len * std::mem::size_of::<T>();
    if bytes >= 2 * HUGE_PAGE_BYTES {
        advise_huge_pages(v.as_mut_ptr().cast::<u8>(), bytes);
    }
    v.resize(len, value);
    v
}

#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, bytes: usize) {
    const PAGE: usize = 4096;
    let start = (ptr as usize).next_multiple_of(PAGE);
    let end = (ptr as usize + bytes) & !(PAGE - 1);
    if end > start {
        // SAFETY: [start, end) lies inside the allocation `ptr .. ptr + bytes` this process owns;
        // MADV_HUGEPAGE changes only how the kernel backs it, never its contents. A failure
        // (kernel without THP, or THP disabled) leaves ordinary pages, so it is ignored.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_the_value_everywhere() {
        for len in [0usize, 1, 1000, 3 << 20] {
            let v = filled_vec(len, 7u32);
            assert_eq!(v.len(), len);
            assert!(v.iter().all(|&x| x == 7));
        }
    }
}
