//! NumPy's `.npz` files, written and read without NumPy: a zip archive of
//! `.npy` arrays, which `numpy.load` reads as a dictionary of arrays.
//!
//! Written archives store their arrays uncompressed (zip method 0), each
//! `.npy` in format version 1.0 with its header padded to 64 bytes, in
//! little-endian order. The reader takes what NumPy writes too: stored or
//! deflated entries (`numpy.savez` and `numpy.savez_compressed`), and the
//! element types norn's files use. Anything else is refused with a
//! one-line reason: zip64 archives, other element types, Fortran order,
//! sizes that do not add up, a checksum that does not match.

use flate2::read::DeflateDecoder;
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::Path;

/// The values of an array, in C order.
#[derive(Clone, Debug, PartialEq)]
pub enum ArrayData {
    /// 32-bit floats (`<f4`).
    F32(Vec<f32>),
    /// Booleans, one byte each, 0 or 1 (`|b1`).
    Bool(Vec<u8>),
    /// 64-bit signed integers (`<i8`).
    I64(Vec<i64>),
}

impl ArrayData {
    fn len(&self) -> usize {
        match self {
            ArrayData::F32(values) => values.len(),
            ArrayData::Bool(values) => values.len(),
            ArrayData::I64(values) => values.len(),
        }
    }

    fn descr(&self) -> &'static str {
        match self {
            ArrayData::F32(_) => "<f4",
            ArrayData::Bool(_) => "|b1",
            ArrayData::I64(_) => "<i8",
        }
    }

    fn bytes(&self) -> Vec<u8> {
        match self {
            ArrayData::F32(values) => values.iter().flat_map(|v| v.to_le_bytes()).collect(),
            ArrayData::Bool(values) => values.clone(),
            ArrayData::I64(values) => values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        }
    }
}

/// An array: its shape and its values.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    /// The length of each axis.
    pub shape: Vec<usize>,
    /// The values, as many as the shape's product.
    pub data: ArrayData,
}

impl Array {
    /// An array of `shape` holding `data`.
    ///
    /// # Panics
    /// If the shape's product is not the number of values.
    pub fn new(shape: Vec<usize>, data: ArrayData) -> Array {
        assert_eq!(
            shape.iter().product::<usize>(),
            data.len(),
            "an array holds as many values as its shape says"
        );
        Array { shape, data }
    }

    /// The array as the bytes of a `.npy` file.
    fn to_npy(&self) -> Vec<u8> {
        let mut shape = String::from("(");
        for length in &self.shape {
            let _ = write!(shape, "{length}, ");
        }
        if self.shape.len() == 1 {
            shape.truncate(shape.len() - 1);
        } else if !self.shape.is_empty() {
            shape.truncate(shape.len() - 2);
        }
        shape.push(')');
        let mut header = format!(
            "{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}",
            self.data.descr()
        );
        // Magic (6), version (2), header length (2), header ending in a
        // newline: a multiple of 64 bytes in all.
        let unpadded = 10 + header.len() + 1;
        header.push_str(&" ".repeat((64 - unpadded % 64) % 64));
        header.push('\n');
        let mut bytes = Vec::with_capacity(10 + header.len() + self.data.len() * 8);
        bytes.extend_from_slice(b"\x93NUMPY\x01\x00");
        bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
        bytes.extend_from_slice(header.as_bytes());
        bytes.extend_from_slice(&self.data.bytes());
        bytes
    }
}

/// The most bytes one array may take in an archive written here: zip
/// without its 64-bit extension counts sizes in 32 bits.
const MOST_ENTRY_BYTES: usize = u32::MAX as usize;

/// Writes `arrays` to `path` as an `.npz` archive (each `name` becomes
/// `name.npy`), through a temporary file renamed into place, so that a
/// reader never sees half an archive.
///
/// # Errors
/// An array too large for a zip entry, or the file system's refusal.
pub fn write_npz(path: &Path, arrays: &[(&str, &Array)]) -> Result<(), String> {
    let mut archive = Vec::new();
    let mut central = Vec::new();
    for &(name, array) in arrays {
        let data = array.to_npy();
        if data.len() > MOST_ENTRY_BYTES {
            return Err(format!(
                "the array `{name}` takes {} bytes, more than a zip entry holds",
                data.len()
            ));
        }
        let file_name = format!("{name}.npy");
        let checksum = crc32fast::hash(&data);
        let offset = archive.len() as u32;
        // Version 2.0, no flags, stored, 1980-01-01 00:00.
        let fields = |record: &mut Vec<u8>| {
            record.extend_from_slice(&20u16.to_le_bytes());
            record.extend_from_slice(&0u16.to_le_bytes());
            record.extend_from_slice(&0u16.to_le_bytes());
            record.extend_from_slice(&0u16.to_le_bytes());
            record.extend_from_slice(&0x21u16.to_le_bytes());
            record.extend_from_slice(&checksum.to_le_bytes());
            record.extend_from_slice(&(data.len() as u32).to_le_bytes());
            record.extend_from_slice(&(data.len() as u32).to_le_bytes());
            record.extend_from_slice(&(file_name.len() as u16).to_le_bytes());
            record.extend_from_slice(&0u16.to_le_bytes());
        };
        archive.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        fields(&mut archive);
        archive.extend_from_slice(file_name.as_bytes());
        archive.extend_from_slice(&data);
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&20u16.to_le_bytes());
        fields(&mut central);
        // Comment length, disk, internal and external attributes.
        central.extend_from_slice(&[0; 10]);
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(file_name.as_bytes());
        if archive.len() > MOST_ENTRY_BYTES {
            return Err("the arrays take more bytes than a zip archive holds".into());
        }
    }
    let central_offset = archive.len() as u32;
    let count = arrays.len() as u16;
    archive.extend_from_slice(&central);
    archive.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    archive.extend_from_slice(&[0; 4]);
    archive.extend_from_slice(&count.to_le_bytes());
    archive.extend_from_slice(&count.to_le_bytes());
    archive.extend_from_slice(&(central.len() as u32).to_le_bytes());
    archive.extend_from_slice(&central_offset.to_le_bytes());
    archive.extend_from_slice(&0u16.to_le_bytes());
    let temporary = path.with_extension("npz.partial");
    let written = std::fs::File::create(&temporary)
        .and_then(|mut file| {
            file.write_all(&archive)?;
            file.sync_all()
        })
        .and_then(|()| std::fs::rename(&temporary, path));
    written.map_err(|error| format!("cannot write {}: {error}", path.display()))
}

/// Reads a little-endian number of `N` bytes at `at`.
fn number<const N: usize>(bytes: &[u8], at: usize) -> Result<u64, String> {
    let slice = at
        .checked_add(N)
        .and_then(|end| bytes.get(at..end))
        .ok_or("the archive ends inside a record")?;
    let mut value = 0u64;
    for (index, &byte) in slice.iter().enumerate() {
        value |= u64::from(byte) << (8 * index);
    }
    Ok(value)
}

/// Reads every array of the `.npz` archive at `path`, in the archive's
/// order, each named without its `.npy`.
///
/// # Errors
/// A file that cannot be read, or is not an archive of arrays of the
/// kinds written here (see the module docs), saying what is wrong.
pub fn read_npz(path: &Path) -> Result<Vec<(String, Array)>, String> {
    let bytes =
        std::fs::read(path).map_err(|error| format!("cannot read {}: {error}", path.display()))?;
    read_npz_bytes(&bytes).map_err(|problem| format!("{}: {problem}", path.display()))
}

/// [`read_npz`] of an archive's bytes.
///
/// # Errors
/// As [`read_npz`].
pub fn read_npz_bytes(bytes: &[u8]) -> Result<Vec<(String, Array)>, String> {
    // The end record is the last 22 bytes, before a comment of at most
    // 65535 bytes.
    let earliest = bytes.len().saturating_sub(22 + 65_535);
    let end = (earliest..=bytes.len().saturating_sub(22))
        .rev()
        .find(|&at| bytes[at..].starts_with(&0x0605_4b50u32.to_le_bytes()))
        .ok_or("not a zip archive (no end record)")?;
    let entries = number::<2>(bytes, end + 10)? as usize;
    let mut at = number::<4>(bytes, end + 16)? as usize;
    let mut arrays = Vec::with_capacity(entries);
    for _ in 0..entries {
        if number::<4>(bytes, at)? != 0x0201_4b50 {
            return Err("a central directory record is damaged".into());
        }
        let method = number::<2>(bytes, at + 10)?;
        let checksum = number::<4>(bytes, at + 16)? as u32;
        let packed = number::<4>(bytes, at + 20)?;
        let size = number::<4>(bytes, at + 24)?;
        let name_length = number::<2>(bytes, at + 28)? as usize;
        let skipped = number::<2>(bytes, at + 30)? + number::<2>(bytes, at + 32)?;
        let local = number::<4>(bytes, at + 42)? as usize;
        if packed == 0xFFFF_FFFF || size == 0xFFFF_FFFF {
            return Err("zip64 archives are not read".into());
        }
        let name = bytes
            .get(at + 46..at + 46 + name_length)
            .ok_or("the archive ends inside a name")?;
        let name = String::from_utf8_lossy(name).into_owned();
        at += 46 + name_length + skipped as usize;
        if number::<4>(bytes, local)? != 0x0403_4b50 {
            return Err(format!("the entry `{name}` is damaged"));
        }
        let start = local
            + 30
            + number::<2>(bytes, local + 26)? as usize
            + number::<2>(bytes, local + 28)? as usize;
        let stored = bytes
            .get(start..start.saturating_add(packed as usize))
            .ok_or_else(|| format!("the entry `{name}` runs past the end of the archive"))?;
        let data = match method {
            0 => stored.to_vec(),
            8 => {
                // The declared size bounds what is inflated: a forged size
                // cannot make the reader take more memory than it says.
                let mut data = Vec::with_capacity((size as usize).min(stored.len() * 1032));
                DeflateDecoder::new(stored)
                    .take(size + 1)
                    .read_to_end(&mut data)
                    .map_err(|error| format!("the entry `{name}` does not inflate: {error}"))?;
                data
            }
            other => {
                return Err(format!(
                    "the entry `{name}` uses compression method {other}"
                ));
            }
        };
        if data.len() as u64 != size {
            return Err(format!("the entry `{name}` is not the size it declares"));
        }
        if crc32fast::hash(&data) != checksum {
            return Err(format!("the entry `{name}` fails its checksum"));
        }
        let array = parse_npy(&data).map_err(|problem| format!("`{name}`: {problem}"))?;
        arrays.push((name.trim_end_matches(".npy").to_string(), array));
    }
    Ok(arrays)
}

/// Reads the bytes of one `.npy` file.
fn parse_npy(bytes: &[u8]) -> Result<Array, String> {
    if !bytes.starts_with(b"\x93NUMPY") || bytes.len() < 10 {
        return Err("not a .npy array".into());
    }
    let (header_start, header_length) = match bytes[6] {
        1 => (10, number::<2>(bytes, 8)? as usize),
        2 | 3 => (12, number::<4>(bytes, 8)? as usize),
        version => return Err(format!(".npy format version {version} is not read")),
    };
    let header = bytes
        .get(header_start..header_start + header_length)
        .ok_or("the array's header runs past its end")?;
    let header = std::str::from_utf8(header).map_err(|_| "the array's header is not text")?;
    let field = |key: &str| -> Result<&str, String> {
        let quoted = format!("'{key}':");
        let at = header
            .find(&quoted)
            .ok_or_else(|| format!("the array's header has no `{key}`"))?;
        Ok(header[at + quoted.len()..].trim_start())
    };
    if !field("fortran_order")?.starts_with("False") {
        return Err("arrays in Fortran order are not read".into());
    }
    let descr = field("descr")?;
    let descr = descr
        .strip_prefix('\'')
        .and_then(|rest| rest.split('\'').next())
        .ok_or("the array's element type is not a quoted text")?;
    let shape_text = field("shape")?;
    let shape_text = shape_text
        .strip_prefix('(')
        .and_then(|rest| rest.split(')').next())
        .ok_or("the array's shape is not a tuple")?;
    let shape = shape_text
        .split(',')
        .map(str::trim)
        .filter(|length| !length.is_empty())
        .map(|length| {
            length
                .trim_end_matches('L')
                .parse::<usize>()
                .map_err(|_| format!("the array's shape has the length `{length}`"))
        })
        .collect::<Result<Vec<usize>, String>>()?;
    let count = shape
        .iter()
        .try_fold(1usize, |count, &length| count.checked_mul(length))
        .ok_or("the array's shape is too large")?;
    let body = &bytes[header_start + header_length..];
    let item = match descr {
        "<f4" => 4,
        "|b1" | "|u1" | "<u1" => 1,
        "<i8" => 8,
        other => return Err(format!("the element type `{other}` is not read")),
    };
    if count.checked_mul(item) != Some(body.len()) {
        return Err(format!(
            "the array holds {} bytes, not the {count} values of its shape",
            body.len()
        ));
    }
    let data = match item {
        4 => ArrayData::F32(
            body.chunks_exact(4)
                .map(|chunk| f32::from_le_bytes(chunk.try_into().expect("4 bytes")))
                .collect(),
        ),
        8 => ArrayData::I64(
            body.chunks_exact(8)
                .map(|chunk| i64::from_le_bytes(chunk.try_into().expect("8 bytes")))
                .collect(),
        ),
        _ => ArrayData::Bool(body.to_vec()),
    };
    Ok(Array { shape, data })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arrays() -> Vec<(&'static str, Array)> {
        vec![
            (
                "observation",
                Array::new(
                    vec![2, 3],
                    ArrayData::F32(vec![0.0, 0.5, 1.0, -2.0, 1e-7, 3.25]),
                ),
            ),
            (
                "mask",
                Array::new(vec![5], ArrayData::Bool(vec![1, 0, 0, 1, 1])),
            ),
            ("game", Array::new(vec![2], ArrayData::I64(vec![7, -1]))),
            ("empty", Array::new(vec![0, 4], ArrayData::F32(Vec::new()))),
        ]
    }

    #[test]
    fn arrays_read_back_as_written() {
        let dir = std::env::temp_dir().join(format!("norn-npz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("shard.npz");
        let written = arrays();
        let named: Vec<(&str, &Array)> =
            written.iter().map(|(name, array)| (*name, array)).collect();
        write_npz(&path, &named).unwrap();
        let read = read_npz(&path).unwrap();
        let expected: Vec<(String, Array)> = written
            .into_iter()
            .map(|(name, array)| (name.to_string(), array))
            .collect();
        assert_eq!(read, expected);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn damaged_archives_are_refused_with_a_reason() {
        let dir = std::env::temp_dir().join(format!("norn-npz-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("shard.npz");
        let written = arrays();
        let named: Vec<(&str, &Array)> =
            written.iter().map(|(name, array)| (*name, array)).collect();
        write_npz(&path, &named).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        // Every truncation and every flipped byte gives an error or the
        // arrays, never a panic; a flipped byte in an array's data fails
        // the checksum.
        for cut in 0..bytes.len() {
            let _ = read_npz_bytes(&bytes[..cut]);
        }
        for at in 0..bytes.len() {
            let mut forged = bytes.clone();
            forged[at] ^= 0x5a;
            let _ = read_npz_bytes(&forged);
        }
        let data_at = bytes.len() / 4;
        let mut forged = bytes.clone();
        forged[data_at] ^= 1;
        assert!(read_npz_bytes(&forged).is_err());
        assert!(
            read_npz_bytes(b"not a zip")
                .unwrap_err()
                .contains("not a zip")
        );
    }
}
