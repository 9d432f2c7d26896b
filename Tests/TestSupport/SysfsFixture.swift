@preconcurrency import Glibc

/// Python functions for the umockdev drivers of the tests, put before a driver script, that make the
/// fake sysfs behave as the kernel's does for a reader that keeps its descriptors open and reads with
/// `pread`, as the daemon does:
/// - `write_in_place(testbed, device, name, value)` rewrites a polled attribute where it is. umockdev's
///   `set_attribute` replaces the file by rename, which an open descriptor never sees. One write at offset
///   0 of a fixed 16-byte record, blank-padded, so the file never shrinks and a reader never finds it
///   empty. `Benchmarks/sidebyside.py` imports the same file.
/// - `remove_in_place(testbed, device)` removes the device, and then its attributes read nothing through
///   descriptors opened before, as a removed device's sysfs attributes fail to read.
public let pythonWriteInPlace = fixtureText("Fixtures/sysfs_in_place.py")

/// The text of a file the tests keep beside their code, by its path under `Tests/` (a driver script
/// run with `/usr/bin/python3`, for instance), so it can be read and checked as what it is.
public func fixtureText(_ relative: String) -> String {
    let path = packageRoot + "/Tests/" + relative
    guard access(path, R_OK) == 0 else { fatalError("the test fixture \(path) is missing") }
    return readText(path)
}
