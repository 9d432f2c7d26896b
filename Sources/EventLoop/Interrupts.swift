@preconcurrency import Glibc

/// Runs `call` again while it fails with EINTR (a signal arrived before it did anything), as
/// swift-system's `retryOnInterrupt` does, and returns its first other result; `errno` is left as
/// that call set it. For `read`, `write`, `recv` and their like, which answer -1 and set errno.
@inlinable
public func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}
