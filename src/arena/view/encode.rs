//! Packing a game's data into the page: JSON deflated in the zlib format
//! (which the browser's `DecompressionStream("deflate")` inflates) and
//! written as base64, a line of text per game.

use flate2::Compression;
use flate2::write::ZlibEncoder;
use std::io::Write;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `values` of `from` bits each, read as one stream of bits, cut into
/// values of `to` bits; a last value of fewer bits is filled with zeros
/// when `pad_last`, and dropped otherwise.
fn regroup(values: &[u8], from: u32, to: u32, pad_last: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() * from as usize / to as usize + 1);
    let (mut bits, mut held) = (0u32, 0u32);
    for &value in values {
        bits = bits << from | u32::from(value);
        held += from;
        while held >= to {
            held -= to;
            out.push((bits >> held) as u8 & ((1 << to) - 1) as u8);
        }
        bits &= (1 << held) - 1;
    }
    if pad_last && held > 0 {
        out.push((bits << (to - held)) as u8 & ((1 << to) - 1) as u8);
    }
    out
}

/// `bytes` in standard base64, padded with `=`.
pub fn base64(bytes: &[u8]) -> String {
    let mut out: String = regroup(bytes, 8, 6, true)
        .into_iter()
        .map(|digit| char::from(ALPHABET[usize::from(digit)]))
        .collect();
    while !out.len().is_multiple_of(4) {
        out.push('=');
    }
    out
}

/// The bytes of standard base64 `text` (padded or not).
///
/// # Errors
/// A character outside the alphabet, or a length no base64 text has.
pub fn from_base64(text: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<u8> = text
        .trim_end_matches('=')
        .bytes()
        .map(|byte| {
            ALPHABET
                .iter()
                .position(|&letter| letter == byte)
                .map(|value| value as u8)
                .ok_or_else(|| format!("{:?} is not a base64 digit", char::from(byte)))
        })
        .collect::<Result<_, _>>()?;
    if digits.len() % 4 == 1 {
        return Err("the base64 text is cut short".into());
    }
    Ok(regroup(&digits, 6, 8, false))
}

/// `text` deflated (zlib format), as base64.
pub fn pack(text: &str) -> String {
    let mut encoder = ZlibEncoder::new(Vec::new(), Compression::default());
    // Writing to a vector cannot fail.
    encoder
        .write_all(text.as_bytes())
        .expect("writes to memory");
    base64(&encoder.finish().expect("writes to memory"))
}

/// The text a [`pack`] holds.
///
/// # Errors
/// If `packed` is not base64 of deflated UTF-8 text.
pub fn unpack(packed: &str) -> Result<String, String> {
    use std::io::Read;
    let bytes = from_base64(packed)?;
    let mut text = String::new();
    flate2::read::ZlibDecoder::new(bytes.as_slice())
        .read_to_string(&mut text)
        .map_err(|error| format!("not deflated text: {error}"))?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_standard_examples() {
        // RFC 4648, section 10.
        for (bytes, text) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(bytes.as_bytes()), text);
            assert_eq!(from_base64(text).unwrap(), bytes.as_bytes());
        }
        let all: Vec<u8> = (0..=255).collect();
        assert_eq!(from_base64(&base64(&all)).unwrap(), all);
        assert!(from_base64("Zm9v!").is_err());
        assert!(from_base64("Z").is_err());
    }

    #[test]
    fn packed_text_unpacks_to_itself() {
        let text = "{\"t\":[\"a position\"]}".repeat(50);
        let packed = pack(&text);
        assert!(packed.len() < text.len() / 4, "{}", packed.len());
        assert_eq!(unpack(&packed).unwrap(), text);
        assert!(unpack("Zm9v").is_err());
    }
}
