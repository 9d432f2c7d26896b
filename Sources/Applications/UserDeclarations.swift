// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation
import Log

/// What the user's own desktop files declare (Docs/applications.md, "The application in front"). The
/// daemon reads no home directory: the session's reporter reads `~/.local/share/applications` and the
/// user's Flatpak exports and sends the file's two orientation keys with the focus (`ReportFocus`'s
/// `user-desktop-file`). They are checked here as a desktop file's are: the first key that holds a
/// valid mask declares it; a bad value is ignored with one log line naming the source
/// `user-desktop-file`. Nothing is kept between reports, so one user's file never answers for another
/// user's session; only the lines already logged are remembered, a bounded number.
package final class UserDeclarations {
    /// Log lines already written, so a reporter that sends the same bad value at every focus change
    /// is logged once; forgotten all at once when full.
    private var logged: Set<String> = []
    private let logLimit: Int

    package init(logLimit: Int = 256) {
        self.logLimit = max(1, logLimit)
    }

    /// The mask the keys declare for `id`; nil when they declare nothing valid.
    package func mask(_ keys: [String: String], for id: ApplicationID) -> OrientationMask? {
        let reading = ApplicationDeclaration.read { keys[$0] }
        for problem in reading.problems { logOnce(id, problem.key, problem.value, problem.why) }
        return reading.mask
    }

    private func logOnce(_ id: ApplicationID, _ key: String, _ value: String, _ why: String) {
        let line = "user-desktop-file: \(id.rawValue).desktop: \(key)=\(value): \(why); ignored"
        if logged.count >= logLimit { logged.removeAll() }
        guard logged.insert(line).inserted else { return }
        Log.warning(line)
    }
}
