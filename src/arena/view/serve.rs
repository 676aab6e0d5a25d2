//! `norn view --watch`: the page served on the loopback interface and
//! written again whenever the run's game log grows; the page polls the
//! server's version and reloads itself when it changes.

use std::io::{Read, Write};
use std::net::{IpAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant, SystemTime};

/// How often the game log is looked at.
const CHECK_EVERY: Duration = Duration::from_millis(500);

/// The most bytes of a request read: its request line and headers.
const MAX_REQUEST: usize = 16 * 1024;

/// Refuses an address other than a loopback one: the page shows the
/// games of a run to anyone who can reach the server.
///
/// # Errors
/// If `address` is not a loopback address.
pub fn check_loopback(address: IpAddr) -> Result<(), String> {
    match address.is_loopback() {
        true => Ok(()),
        false => Err(format!(
            "{address} is not a loopback address: the page is served on this machine only (127.0.0.1 or ::1)"
        )),
    }
}

/// What a page's log looks like from outside: its size and the time it
/// last changed (`None` while it does not exist).
fn log_signature(log: &Path) -> Option<(u64, Option<SystemTime>)> {
    std::fs::metadata(log)
        .ok()
        .map(|metadata| (metadata.len(), metadata.modified().ok()))
}

/// Serves on `listener` until `stop` is raised: `GET /` answers the page,
/// `GET /version` its version. `make(version)` writes the page; it is
/// called again with the next version whenever the file `log` changes,
/// and `tell` hears of each new version or of a page that could not be
/// written (the last one good is then served on).
///
/// # Errors
/// If the listener is not on a loopback address or fails, or the first
/// page cannot be written.
pub fn serve_page(
    listener: &TcpListener,
    log: &Path,
    make: &dyn Fn(u64) -> Result<String, String>,
    stop: &AtomicBool,
    tell: &dyn Fn(&str),
) -> Result<(), String> {
    let address = listener.local_addr().map_err(|error| error.to_string())?;
    check_loopback(address.ip())?;
    listener
        .set_nonblocking(true)
        .map_err(|error| error.to_string())?;
    let mut version = 1;
    let mut seen = log_signature(log);
    let mut page = make(version)?;
    let mut checked = Instant::now();
    while !stop.load(Ordering::SeqCst) {
        match listener.accept() {
            // A client that misbehaves costs its own answer only.
            Ok((stream, _)) => {
                let _ = answer(stream, &page, version);
            }
            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(format!("{address}: {error}")),
        }
        if checked.elapsed() >= CHECK_EVERY {
            checked = Instant::now();
            let now = log_signature(log);
            if now != seen {
                seen = now;
                match make(version + 1) {
                    Ok(new_page) => {
                        version += 1;
                        page = new_page;
                        tell(&format!("the log changed: page version {version}"));
                    }
                    Err(error) => tell(&format!("the log changed, but: {error}")),
                }
            }
        }
    }
    Ok(())
}

/// Answers one request.
fn answer(mut stream: TcpStream, page: &str, version: u64) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(2)))?;
    stream.set_write_timeout(Some(Duration::from_secs(10)))?;
    let mut request = Vec::new();
    let mut buffer = [0u8; 2048];
    while !request.windows(4).any(|window| window == b"\r\n\r\n") && request.len() < MAX_REQUEST {
        let read = stream.read(&mut buffer)?;
        if read == 0 {
            break;
        }
        request.extend_from_slice(&buffer[..read]);
    }
    let line = String::from_utf8_lossy(&request);
    let mut words = line.lines().next().unwrap_or("").split_whitespace();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let path = target.split(['?', '#']).next().unwrap_or("");
    let version_text = version.to_string();
    let (status, kind, body) = match (method, path) {
        ("GET" | "HEAD", "/" | "/index.html") => ("200 OK", "text/html; charset=utf-8", page),
        ("GET" | "HEAD", "/version") => {
            ("200 OK", "text/plain; charset=utf-8", version_text.as_str())
        }
        ("GET" | "HEAD", _) => ("404 Not Found", "text/plain; charset=utf-8", "not found\n"),
        _ => (
            "405 Method Not Allowed",
            "text/plain; charset=utf-8",
            "only GET\n",
        ),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    if method != "HEAD" {
        stream.write_all(body.as_bytes())?;
    }
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_addresses_are_served() {
        assert!(check_loopback("127.0.0.1".parse().unwrap()).is_ok());
        assert!(check_loopback("::1".parse().unwrap()).is_ok());
        assert!(check_loopback("0.0.0.0".parse().unwrap()).is_err());
        assert!(check_loopback("192.168.1.2".parse().unwrap()).is_err());
    }
}
