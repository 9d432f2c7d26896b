@preconcurrency import Glibc

/// Writes one line to stderr, where the journal or the terminal picks it up.
public func log(_ text: String) {
    fputs("orientationd: \(text)\n", stderr)
}
