//! Root parallelism, shared by the searchers that grow several trees: each
//! tree grows from a seed of its own, on a thread of a pool, and the
//! results come back in the trees' order, so that with an iteration budget
//! a search depends only on its seed and the number of trees.

use rayon::ThreadPool;
use rayon::prelude::*;

/// The iterations of tree `index` of `trees` when `total` are split as
/// evenly as they go: the first trees take one more when they do not
/// divide.
pub(crate) fn iteration_share(total: u64, trees: usize, index: usize) -> u64 {
    let trees = trees as u64;
    total / trees + u64::from((index as u64) < total % trees)
}

/// `grow` applied to each of `trees`, side by side on the threads of
/// `pool` if there is one, else one after the other; the results in the
/// trees' order.
pub(crate) fn grow_in_parallel<T, R, I>(
    pool: Option<&ThreadPool>,
    trees: I,
    grow: impl Fn(T) -> R + Sync + Send,
) -> Vec<R>
where
    I: IntoParallelIterator<Item = T> + IntoIterator<Item = T> + Send,
    T: Send,
    R: Send,
{
    match pool {
        Some(pool) => pool.install(|| trees.into_par_iter().map(grow).collect()),
        None => trees.into_iter().map(grow).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::thread_pool;

    #[test]
    fn the_iterations_split_evenly_the_first_trees_taking_the_rest() {
        for (total, trees) in [(10, 3), (9, 3), (2, 5), (0, 2), (10_001, 4)] {
            let shares: Vec<u64> = (0..trees)
                .map(|index| iteration_share(total, trees, index))
                .collect();
            assert_eq!(shares.iter().sum::<u64>(), total, "{shares:?}");
            let (low, high) = (total / trees as u64, total.div_ceil(trees as u64));
            assert!(shares.iter().all(|&share| share == low || share == high));
            assert!(shares.is_sorted_by(|a, b| a >= b), "{shares:?}");
        }
        assert_eq!(
            (0..3)
                .map(|i| iteration_share(10, 3, i))
                .collect::<Vec<_>>(),
            [4, 3, 3]
        );
    }

    #[test]
    fn the_results_come_back_in_the_trees_order_with_or_without_threads() {
        let pool = thread_pool(2).unwrap();
        let square = |index: usize| index * index;
        let alone = grow_in_parallel(None, 0..50, square);
        let threaded = grow_in_parallel(Some(&pool), 0..50, square);
        let expected: Vec<usize> = (0..50).map(|index| index * index).collect();
        assert_eq!((alone, threaded), (expected.clone(), expected));

        let mut trees = vec![0u64; 8];
        let grown = grow_in_parallel(Some(&pool), &mut trees, |tree| {
            *tree += 3;
            *tree
        });
        assert_eq!((grown, trees), (vec![3; 8], vec![3; 8]));
    }
}
