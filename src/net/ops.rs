//! The arithmetic of the layers: matrix products (by `matrixmultiply`),
//! 3x3 convolutions as a product over unfolded inputs (im2col), and the
//! elementwise steps.
//!
//! Every sum a layer computes for one sample runs in an order fixed by the
//! layer's shape alone: `matrixmultiply` sums its inner dimension in
//! blocks of a fixed size, each block in order, whatever the sizes of the
//! other two dimensions and wherever the element sits in the matrix; the
//! other steps here work element by element or sample by sample. That is
//! what makes a sample's outputs the same in any batch.

/// A matrix over a slice: element `(i, j)` at `data[i * row_stride + j *
/// col_stride]`.
#[derive(Clone, Copy)]
pub(super) struct Matrix<'a> {
    data: &'a [f32],
    rows: usize,
    cols: usize,
    row_stride: usize,
    col_stride: usize,
}

impl<'a> Matrix<'a> {
    /// The `rows x cols` matrix stored row after row in `data`.
    pub(super) fn rows(data: &'a [f32], rows: usize, cols: usize) -> Matrix<'a> {
        Matrix::strided(data, rows, cols, cols, 1)
    }

    /// The transpose of the `cols x rows` matrix stored row after row in
    /// `data`: a `rows x cols` matrix.
    pub(super) fn transposed(data: &'a [f32], rows: usize, cols: usize) -> Matrix<'a> {
        Matrix::strided(data, rows, cols, 1, rows)
    }

    fn strided(
        data: &'a [f32],
        rows: usize,
        cols: usize,
        row_stride: usize,
        col_stride: usize,
    ) -> Matrix<'a> {
        if rows > 0 && cols > 0 {
            let last = (rows - 1) * row_stride + (cols - 1) * col_stride;
            assert!(last < data.len(), "a matrix within its slice");
        }
        Matrix {
            data,
            rows,
            cols,
            row_stride,
            col_stride,
        }
    }
}

/// `out = a * b` (`accumulate` false) or `out += a * b` (`accumulate`
/// true), `out` stored row after row.
pub(super) fn matmul(a: Matrix<'_>, b: Matrix<'_>, out: &mut [f32], accumulate: bool) {
    let (m, k, n) = (a.rows, a.cols, b.cols);
    assert_eq!(b.rows, k, "inner dimensions agree");
    assert_eq!(out.len(), m * n, "the product's size");
    if m == 0 || n == 0 {
        return;
    }
    let stride = |value: usize| isize::try_from(value).expect("a stride within isize");
    // SAFETY: `Matrix` checked that every element of `a` and `b` lies in
    // its slice, `out` holds exactly `m * n` elements row after row (so no
    // two elements alias), and the borrows keep the slices alive and `out`
    // unaliased for the call.
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.data.as_ptr(),
            stride(a.row_stride),
            stride(a.col_stride),
            b.data.as_ptr(),
            stride(b.row_stride),
            stride(b.col_stride),
            if accumulate { 1.0 } else { 0.0 },
            out.as_mut_ptr(),
            stride(n),
            1,
        );
    }
}

/// The spatial size of the inputs of a convolution: `height x width`
/// squares, `samples` samples side by side.
#[derive(Clone, Copy, Debug)]
pub(super) struct Grid {
    pub height: usize,
    pub width: usize,
    pub samples: usize,
}

impl Grid {
    /// Squares of one sample.
    pub fn squares(self) -> usize {
        self.height * self.width
    }

    /// Columns of an activation: every square of every sample.
    pub fn columns(self) -> usize {
        self.squares() * self.samples
    }
}

/// The 3x3 neighbourhoods of `input` (`channels` rows of
/// [`Grid::columns`], sample after sample in each row) as the rows of
/// `unfolded` (`channels * 9` rows, one per channel and kernel tap, of the
/// same columns): zero where a neighbour falls off the board.
pub(super) fn unfold(input: &[f32], channels: usize, grid: Grid, unfolded: &mut [f32]) {
    let columns = grid.columns();
    let (height, width, squares) = (grid.height, grid.width, grid.squares());
    for (row, out) in unfolded.chunks_exact_mut(columns).enumerate() {
        let (channel, tap) = (row / 9, row % 9);
        debug_assert!(channel < channels);
        let (dy, dx) = (tap / 3, tap % 3);
        let plane = &input[channel * columns..(channel + 1) * columns];
        for (sample, out) in out.chunks_exact_mut(squares).enumerate() {
            let source = &plane[sample * squares..(sample + 1) * squares];
            for y in 0..height {
                let out = &mut out[y * width..(y + 1) * width];
                match (y + dy).checked_sub(1).filter(|&from| from < height) {
                    None => out.fill(0.0),
                    Some(from) => {
                        let line = &source[from * width..(from + 1) * width];
                        shifted_line(line, dx, out);
                    }
                }
            }
        }
    }
}

/// `out[x] = line[x + dx - 1]`, zero off the line.
fn shifted_line(line: &[f32], dx: usize, out: &mut [f32]) {
    let width = line.len();
    match dx {
        0 => {
            out[0] = 0.0;
            out[1..].copy_from_slice(&line[..width - 1]);
        }
        1 => out.copy_from_slice(line),
        _ => {
            out[..width - 1].copy_from_slice(&line[1..]);
            out[width - 1] = 0.0;
        }
    }
}

/// The reverse of [`unfold`]: adds each row of `unfolded` back onto the
/// squares its values came from, in `grad` (`channels` rows of
/// [`Grid::columns`]), taps in order.
pub(super) fn fold(unfolded: &[f32], channels: usize, grid: Grid, grad: &mut [f32]) {
    let columns = grid.columns();
    let (height, width, squares) = (grid.height, grid.width, grid.squares());
    for channel in 0..channels {
        let plane = &mut grad[channel * columns..(channel + 1) * columns];
        for tap in 0..9 {
            let (dy, dx) = (tap / 3, tap % 3);
            let row = &unfolded[(channel * 9 + tap) * columns..(channel * 9 + tap + 1) * columns];
            for sample in 0..grid.samples {
                let source = &row[sample * squares..(sample + 1) * squares];
                let target = &mut plane[sample * squares..(sample + 1) * squares];
                for y in 0..height {
                    let Some(to) = (y + dy).checked_sub(1).filter(|&to| to < height) else {
                        continue;
                    };
                    let from = &source[y * width..(y + 1) * width];
                    let line = &mut target[to * width..(to + 1) * width];
                    match dx {
                        0 => add(&mut line[..width - 1], &from[1..]),
                        1 => add(line, from),
                        _ => add(&mut line[1..], &from[..width - 1]),
                    }
                }
            }
        }
    }
}

/// `target += source`, element by element.
pub(super) fn add(target: &mut [f32], source: &[f32]) {
    for (target, &source) in target.iter_mut().zip(source) {
        *target += source;
    }
}

/// Fills each of the rows of `out` (`bias.len()` rows) with its bias: the
/// start of a layer's sums.
pub(super) fn fill_rows(out: &mut [f32], bias: &[f32]) {
    let width = out.len() / bias.len();
    for (row, &value) in out.chunks_exact_mut(width).zip(bias) {
        row.fill(value);
    }
}

/// Fills each row of `out` (rows of `bias.len()`) with the bias vector.
pub(super) fn fill_columns(out: &mut [f32], bias: &[f32]) {
    for row in out.chunks_exact_mut(bias.len()) {
        row.copy_from_slice(bias);
    }
}

/// `x = max(x, 0)`.
pub(super) fn relu(values: &mut [f32]) {
    for value in values {
        *value = value.max(0.0);
    }
}

/// Zeroes the gradient where the ReLU's output was zero.
pub(super) fn relu_backward(grad: &mut [f32], output: &[f32]) {
    for (grad, &output) in grad.iter_mut().zip(output) {
        if output <= 0.0 {
            *grad = 0.0;
        }
    }
}

/// Adds each row's sum of `grad` (rows of `width`) to its bias gradient,
/// in order along the row.
pub(super) fn sum_rows(grad: &[f32], width: usize, bias_grad: &mut [f32]) {
    for (row, sum) in grad.chunks_exact(width).zip(bias_grad) {
        *sum += row.iter().sum::<f32>();
    }
}

/// Adds `grad`'s rows (of `bias_grad.len()`), in order, to the bias
/// gradient.
pub(super) fn sum_columns(grad: &[f32], bias_grad: &mut [f32]) {
    for row in grad.chunks_exact(bias_grad.len()) {
        add(bias_grad, row);
    }
}

/// Copies `from` into `to`, which holds the same samples in the other
/// layout: `to_channels` true takes `samples` blocks of `channels x
/// squares` (sample-major: the layout of observations and of a head's
/// features) to `channels` rows of `samples x squares` (channel-major: the
/// layout of the trunk's activations); false, the other way.
pub(super) fn regroup(
    from: &[f32],
    to: &mut [f32],
    channels: usize,
    grid: Grid,
    to_channels: bool,
) {
    let squares = grid.squares();
    for sample in 0..grid.samples {
        for channel in 0..channels {
            let sample_side = (sample * channels + channel) * squares;
            let channel_side = (channel * grid.samples + sample) * squares;
            let (source, target) = if to_channels {
                (sample_side, channel_side)
            } else {
                (channel_side, sample_side)
            };
            to[target..target + squares].copy_from_slice(&from[source..source + squares]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The product by the definition, summing in order.
    fn naive(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
        let mut out = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                out[i * n + j] = (0..k).map(|l| a[i * k + l] * b[l * n + j]).sum();
            }
        }
        out
    }

    fn values(len: usize, seed: u32) -> Vec<f32> {
        (0..len)
            .map(|i| ((i as u32).wrapping_mul(2_654_435_761) ^ seed) as f32 / u32::MAX as f32 - 0.5)
            .collect()
    }

    #[test]
    fn products_match_the_definition_in_either_layout() {
        let (m, k, n) = (5, 300, 7);
        let (a, b) = (values(m * k, 1), values(k * n, 2));
        let mut out = vec![0.0; m * n];
        matmul(
            Matrix::rows(&a, m, k),
            Matrix::rows(&b, k, n),
            &mut out,
            false,
        );
        for (got, want) in out.iter().zip(naive(&a, &b, m, k, n)) {
            assert!((got - want).abs() < 1e-4, "{got} {want}");
        }
        // b's transpose stored row after row, read as b.
        let mut bt = vec![0.0; k * n];
        for l in 0..k {
            for j in 0..n {
                bt[j * k + l] = b[l * n + j];
            }
        }
        let mut again = vec![1.0; m * n];
        matmul(
            Matrix::rows(&a, m, k),
            Matrix::transposed(&bt, k, n),
            &mut again,
            true,
        );
        for (got, want) in again.iter().zip(&out) {
            assert!((got - (want + 1.0)).abs() < 1e-4, "{got} {want}");
        }
    }

    /// The claim the batch invariance rests on: a row's products are the
    /// same bits whatever the other rows and columns around it.
    #[test]
    fn a_products_bits_do_not_depend_on_the_other_dimensions() {
        let k = 700;
        let a = values(40 * k, 3);
        let b = values(k * 50, 4);
        let mut whole = vec![0.0; 40 * 50];
        matmul(
            Matrix::rows(&a, 40, k),
            Matrix::rows(&b, k, 50),
            &mut whole,
            false,
        );
        for (rows, first_row) in [(1, 17), (3, 0), (33, 7)] {
            let a_part = &a[first_row * k..(first_row + rows) * k];
            let mut part = vec![0.0; rows * 50];
            matmul(
                Matrix::rows(a_part, rows, k),
                Matrix::rows(&b, k, 50),
                &mut part,
                false,
            );
            for row in 0..rows {
                let want = &whole[(first_row + row) * 50..(first_row + row + 1) * 50];
                assert_eq!(&part[row * 50..(row + 1) * 50], want);
            }
        }
        // One column alone, as a batch of one sample would have it.
        let column: Vec<f32> = (0..k).map(|l| b[l * 50 + 13]).collect();
        let mut single = vec![0.0; 40];
        matmul(
            Matrix::rows(&a, 40, k),
            Matrix::rows(&column, k, 1),
            &mut single,
            false,
        );
        for row in 0..40 {
            assert_eq!(single[row].to_bits(), whole[row * 50 + 13].to_bits());
        }
    }

    #[test]
    fn folding_adds_back_what_unfolding_spread() {
        // <unfold(x), g> = <x, fold(g)> for any x and g: fold is unfold's
        // transpose.
        let grid = Grid {
            height: 3,
            width: 4,
            samples: 2,
        };
        let channels = 2;
        let x = values(channels * grid.columns(), 5);
        let g = values(channels * 9 * grid.columns(), 6);
        let mut unfolded = vec![0.0; g.len()];
        unfold(&x, channels, grid, &mut unfolded);
        let mut folded = vec![0.0; x.len()];
        fold(&g, channels, grid, &mut folded);
        let left: f64 = unfolded.iter().zip(&g).map(|(a, b)| f64::from(a * b)).sum();
        let right: f64 = x.iter().zip(&folded).map(|(a, b)| f64::from(a * b)).sum();
        assert!((left - right).abs() < 1e-4, "{left} {right}");
        // The centre tap is the input itself.
        let centre = &unfolded[4 * grid.columns()..5 * grid.columns()];
        assert_eq!(centre, &x[..grid.columns()]);
    }
}
