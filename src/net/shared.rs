//! Networks loaded once and shared: a tournament builds a fresh agent for
//! every game, and each `az:net=PATH` agent would otherwise read, check
//! and copy its whole file again (tens of megabytes for Thud's default
//! network). [`Network::load_shared`] keeps the networks it loaded and
//! hands out the same one while its file is unchanged.

use super::{NetError, Network};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// The most networks kept: the older go first, so that a long Python
/// session that loads one checkpoint after another holds a few of them,
/// not all.
const KEPT: usize = 4;

/// What tells one version of a file from another without reading it: its
/// length and time of change and, on Unix, its device and inode (a file
/// written anew and renamed over the old one, as [`Network::save`] does,
/// is another inode even when its length and time are the same).
#[derive(Clone, Debug, PartialEq, Eq)]
struct FileIdentity {
    len: u64,
    modified: Option<SystemTime>,
    node: (u64, u64),
}

impl FileIdentity {
    /// The identity of the file at `path`, if it can be read.
    fn of(path: &Path) -> Option<FileIdentity> {
        let metadata = std::fs::metadata(path).ok()?;
        #[cfg(unix)]
        let node = {
            use std::os::unix::fs::MetadataExt;
            (metadata.dev(), metadata.ino())
        };
        #[cfg(not(unix))]
        let node = (0, 0);
        Some(FileIdentity {
            len: metadata.len(),
            modified: metadata.modified().ok(),
            node,
        })
    }
}

/// A network kept, with the file it came from and its thread count.
struct Kept {
    path: PathBuf,
    identity: FileIdentity,
    threads: usize,
    network: Arc<Network>,
}

/// The networks kept, the most recently used last.
static KEPT_NETWORKS: Mutex<Vec<Kept>> = Mutex::new(Vec::new());

impl Network {
    /// The network of the file at `path`, running its batches on
    /// `threads` threads, shared with every earlier caller that asked for
    /// the same file and thread count while the file has not changed
    /// (same length, time of change and inode): the file is read and
    /// checked once however many agents play with it. A file that changed
    /// is read again.
    ///
    /// # Errors
    /// As [`Network::load`], and threads the machine cannot give.
    pub fn load_shared(path: &Path, threads: usize) -> Result<Arc<Network>, NetError> {
        let key = std::fs::canonicalize(path).ok();
        let identity = FileIdentity::of(path);
        // Held while the file loads, so that agents built at once on
        // several threads load it once.
        let mut kept = KEPT_NETWORKS
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let (Some(key), Some(identity)) = (&key, &identity) {
            let found = kept.iter().position(|entry| {
                entry.path == *key && entry.identity == *identity && entry.threads == threads
            });
            if let Some(index) = found {
                let entry = kept.remove(index);
                let network = Arc::clone(&entry.network);
                kept.push(entry);
                return Ok(network);
            }
        }
        let mut network = Network::load(path)?;
        network.set_threads(threads)?;
        let network = Arc::new(network);
        if let (Some(key), Some(identity)) = (key, identity) {
            kept.retain(|entry| entry.path != key || entry.threads != threads);
            if kept.len() >= KEPT {
                kept.remove(0);
            }
            kept.push(Kept {
                path: key,
                identity,
                threads,
                network: Arc::clone(&network),
            });
        }
        Ok(network)
    }
}
