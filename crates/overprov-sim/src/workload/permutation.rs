//! Keyed pseudo-random permutations of `0..n`, with no memory per element: each LBA is visited
//! once per pass ("random map", like fio's default random map or `random_generator=lfsr`).
//!
//! The bijection is Kensler's hash-based permutation with cycle walking (A. Kensler,
//! "Correlated Multi-Jittered Sampling", Pixar Technical Memo 13-01, 2013): a chain of
//! operations each bijective on k-bit integers, repeated while the result falls outside `0..n`.

use crate::rng::mix64;

#[derive(Debug, Clone, Copy)]
pub struct Permutation {
    n: u32,
    mask: u32,
    key: u32,
}

impl Permutation {
    /// A permutation of `0..n` (1 ≤ n ≤ 2³²−1) chosen by `key`.
    pub fn new(n: u32, key: u64) -> Self {
        assert!(n >= 1);
        let bits = 32 - (n.max(2) - 1).leading_zeros();
        let mask = if bits >= 32 {
            u32::MAX
        } else {
            (1u32 << bits) - 1
        };
        Permutation {
            n,
            mask,
            key: mix64(key) as u32,
        }
    }

    pub fn len(&self) -> u32 {
        self.n
    }

    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The image of `i` (< n).
    #[inline]
    pub fn apply(&self, i: u32) -> u32 {
        let (w, p) = (self.mask, self.key);
        let mut i = i;
        loop {
            i ^= p;
            i = i.wrapping_mul(0xe170_893d);
            i ^= p >> 16;
            i ^= (i & w) >> 4;
            i ^= p >> 8;
            i = i.wrapping_mul(0x0929_eb3f);
            i ^= p >> 23;
            i ^= (i & w) >> 1;
            i = i.wrapping_mul(1 | p >> 27);
            i = i.wrapping_mul(0x6935_fa69);
            i ^= (i & w) >> 11;
            i = i.wrapping_mul(0x74dc_b303);
            i ^= (i & w) >> 2;
            i = i.wrapping_mul(0x9e50_1cc3);
            i ^= (i & w) >> 2;
            i = i.wrapping_mul(0xc860_a3df);
            i &= w;
            i ^= i >> 5;
            if i < self.n {
                return i;
            }
        }
    }
}

/// Walks a fresh permutation of `0..n` each pass.
#[derive(Debug, Clone)]
pub struct RandomMap {
    perm: Permutation,
    index: u32,
    seed: u64,
    pass: u64,
}

impl RandomMap {
    pub fn new(n: u32, seed: u64) -> Self {
        RandomMap {
            perm: Permutation::new(n, seed),
            index: 0,
            seed,
            pass: 0,
        }
    }
    #[inline]
    pub fn next_index(&mut self) -> u32 {
        if self.index == self.perm.len() {
            self.pass += 1;
            self.index = 0;
            self.perm = Permutation::new(self.perm.len(), self.seed ^ mix64(self.pass));
        }
        let v = self.perm.apply(self.index);
        self.index += 1;
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_a_permutation_for_awkward_sizes() {
        for n in [1u32, 2, 3, 5, 64, 1000, 4097, 65_535] {
            for key in [0u64, 1, 99] {
                let p = Permutation::new(n, key);
                let mut seen = vec![false; n as usize];
                for i in 0..n {
                    let v = p.apply(i);
                    assert!(v < n);
                    assert!(!seen[v as usize], "n={n} key={key}: {v} twice");
                    seen[v as usize] = true;
                }
            }
        }
    }

    #[test]
    fn passes_differ_and_each_covers_everything() {
        let mut m = RandomMap::new(1000, 5);
        let a: Vec<u32> = (0..1000).map(|_| m.next_index()).collect();
        let b: Vec<u32> = (0..1000).map(|_| m.next_index()).collect();
        assert_ne!(a, b);
        let mut sa = a.clone();
        sa.sort_unstable();
        assert_eq!(sa, (0..1000).collect::<Vec<_>>());
        // not the identity or a near-identity
        assert!(
            a.iter()
                .enumerate()
                .filter(|(i, &v)| *i as u32 == v)
                .count()
                < 20
        );
    }
}
