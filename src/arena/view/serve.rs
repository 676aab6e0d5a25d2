//! `norn view --watch`: the page served on the loopback interface and
//! written again whenever the run's game log grows; the page polls the
//! server's version and reloads itself when it changes.
//!
//! The page is written on a thread of its own, so that the last page is
//! served while the next one (which for a large log takes a while) is
//! written; each client is answered on a thread of its own, within a time
//! limit, so that a slow or silent client holds up no one else. Only
//! requests that name this server as their host are answered: a page of
//! another site whose name was made to point at 127.0.0.1 (DNS rebinding)
//! names its own host, and reads nothing.

use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

/// How often the game log is looked at.
const CHECK_EVERY: Duration = Duration::from_millis(500);

/// How long the server sleeps between looks for a new client or a stop.
const IDLE: Duration = Duration::from_millis(50);

/// The most bytes of a request read: its request line and headers.
const MAX_REQUEST: usize = 16 * 1024;

/// The longest a client may take to send its request.
const REQUEST_TIME: Duration = Duration::from_secs(5);

/// The longest a client may take to read its answer: a page of a million
/// games is tens of megabytes, which a browser on the same machine reads
/// in well under a second.
const ANSWER_TIME: Duration = Duration::from_secs(60);

/// The most clients answered at once; a client beyond them is turned away
/// at once rather than given a thread.
const MAX_CLIENTS: usize = 64;

/// The bytes of an answer written at a time, so that its time limit is
/// checked between them.
const WRITE_CHUNK: usize = 64 * 1024;

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

/// The page being served and its version.
struct Served {
    page: String,
    version: u64,
}

/// Serves on `listener` until `stop` is raised: `GET /` answers the page,
/// `GET /version` its version. `make(version)` writes the page; it is
/// called again with the next version whenever the file `log` changes,
/// on a thread of its own while the last page is served, and `tell` hears
/// of each new version or of a page that could not be written (the last
/// one good is then served on). A request whose `Host` is not this
/// server's address (`127.0.0.1:PORT`, `localhost:PORT` or `[::1]:PORT`)
/// is answered `421 Misdirected Request`.
///
/// # Errors
/// If the listener is not on a loopback address or fails, or the first
/// page cannot be written.
pub fn serve_page(
    listener: &TcpListener,
    log: &Path,
    make: &(dyn Fn(u64) -> Result<String, String> + Sync),
    stop: &AtomicBool,
    tell: &(dyn Fn(&str) + Sync),
) -> Result<(), String> {
    let address = listener.local_addr().map_err(|error| error.to_string())?;
    check_loopback(address.ip())?;
    listener
        .set_nonblocking(true)
        .map_err(|error| error.to_string())?;
    let hosts = own_hosts(address);
    let seen = log_signature(log);
    let served = Mutex::new(Arc::new(Served {
        page: make(1)?,
        version: 1,
    }));
    let clients = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        scope.spawn(|| rewrite_on_change(log, seen, make, &served, stop, tell));
        let accepted = loop {
            if stop.load(Ordering::SeqCst) {
                break Ok(());
            }
            match listener.accept() {
                Ok((stream, _)) => {
                    if clients.fetch_add(1, Ordering::SeqCst) >= MAX_CLIENTS {
                        clients.fetch_sub(1, Ordering::SeqCst);
                        continue;
                    }
                    let current = Arc::clone(&served.lock().expect("no thread panicked"));
                    let (hosts, clients) = (&hosts, &clients);
                    scope.spawn(move || {
                        // A client that misbehaves costs its own answer only.
                        let _ = answer(stream, &current, hosts);
                        clients.fetch_sub(1, Ordering::SeqCst);
                    });
                }
                Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {
                    std::thread::sleep(IDLE);
                }
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                Err(error) => break Err(format!("{address}: {error}")),
            }
        };
        // The page's thread ends at the stop; so does the server on an error.
        stop.store(true, Ordering::SeqCst);
        accepted
    })
}

/// Writes the page again whenever `log` changes, until `stop` is raised.
fn rewrite_on_change(
    log: &Path,
    mut seen: Option<(u64, Option<SystemTime>)>,
    make: &(dyn Fn(u64) -> Result<String, String> + Sync),
    served: &Mutex<Arc<Served>>,
    stop: &AtomicBool,
    tell: &(dyn Fn(&str) + Sync),
) {
    let mut version = 1;
    let mut checked = Instant::now();
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(IDLE);
        if checked.elapsed() < CHECK_EVERY {
            continue;
        }
        checked = Instant::now();
        let now = log_signature(log);
        if now == seen {
            continue;
        }
        seen = now;
        match make(version + 1) {
            Ok(page) => {
                version += 1;
                *served.lock().expect("no thread panicked") = Arc::new(Served { page, version });
                tell(&format!("the log changed: page version {version}"));
            }
            Err(error) => tell(&format!("the log changed, but: {error}")),
        }
    }
}

/// The `Host` values that name the server at `address`: its address, and
/// `localhost` for a loopback address, each with the port (which a
/// browser leaves out only for port 80).
fn own_hosts(address: SocketAddr) -> Vec<String> {
    let port = address.port();
    let names = [address.ip().to_string(), "localhost".to_string()];
    let mut hosts = Vec::new();
    for name in names {
        let name = match name.contains(':') {
            true => format!("[{name}]"),
            false => name,
        };
        hosts.push(format!("{name}:{port}"));
        if port == 80 {
            hosts.push(name);
        }
    }
    hosts
}

/// The value of the request's one `Host` header, if it has exactly one.
fn host_of(head: &str) -> Option<&str> {
    let mut hosts = head.lines().skip(1).filter_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.trim()
            .eq_ignore_ascii_case("host")
            .then(|| value.trim())
    });
    let host = hosts.next()?;
    hosts.next().is_none().then_some(host)
}

/// Reads a request's line and headers, within [`REQUEST_TIME`].
fn read_request(stream: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let deadline = Instant::now() + REQUEST_TIME;
    let mut request = Vec::new();
    let mut buffer = [0u8; 2048];
    while !request.windows(4).any(|window| window == b"\r\n\r\n") && request.len() < MAX_REQUEST {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        stream.set_read_timeout(Some(left))?;
        let read = stream.read(&mut buffer)?;
        if read == 0 {
            break;
        }
        request.extend_from_slice(&buffer[..read]);
    }
    Ok(request)
}

/// Writes `bytes` by `deadline`.
fn write_by(stream: &mut TcpStream, bytes: &[u8], deadline: Instant) -> std::io::Result<()> {
    for chunk in bytes.chunks(WRITE_CHUNK) {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        stream.set_write_timeout(Some(left))?;
        stream.write_all(chunk)?;
    }
    stream.flush()
}

/// Answers one request with the page `served`, if it names one of `hosts`.
fn answer(mut stream: TcpStream, served: &Served, hosts: &[String]) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    let request = read_request(&mut stream)?;
    let head = String::from_utf8_lossy(&request);
    let mut words = head.lines().next().unwrap_or("").split_whitespace();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let path = target.split(['?', '#']).next().unwrap_or("");
    let version_text = served.version.to_string();
    let ours =
        host_of(&head).is_some_and(|host| hosts.iter().any(|own| own.eq_ignore_ascii_case(host)));
    let (status, kind, body) = match (method, path) {
        _ if !ours => (
            "421 Misdirected Request",
            "text/plain; charset=utf-8",
            "this server answers requests for its own address only\n",
        ),
        ("GET" | "HEAD", "/" | "/index.html") => {
            ("200 OK", "text/html; charset=utf-8", served.page.as_str())
        }
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
    let header = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let deadline = Instant::now() + ANSWER_TIME;
    write_by(&mut stream, header.as_bytes(), deadline)?;
    if method != "HEAD" {
        write_by(&mut stream, body.as_bytes(), deadline)?;
    }
    Ok(())
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
