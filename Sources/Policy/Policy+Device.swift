// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import Orientation

extension Policy {
    /// `BeginGeneratingDeviceOrientationNotifications`: one more claim for `client` (P16).
    public func beginGenerating(client: ClientID) {
        claims[client, default: 0] += 1
        totalClaims += 1
        if totalClaims == 1 {
            changes.events.append(.sensorNeeded(true))
            awaitingFreshPose = latestReport == .unknown
            publish(latestReport)
        }
    }

    /// `EndGeneratingDeviceOrientationNotifications`: one claim fewer; the last one stops the sensor (P16).
    public func endGenerating(client: ClientID) throws(PolicyError) {
        guard let count = claims[client], count > 0 else {
            throw PolicyError(.notGenerating, "\(client) ends generating device orientation notifications it never began")
        }
        claims[client] = count == 1 ? nil : count - 1
        totalClaims -= 1
        if totalClaims == 0 { stopGenerating() }
    }

    /// Drops to no claims: the sensor stops and the device reads unknown. A real source's pose is
    /// forgotten, so the next claim never shows where the device was minutes ago (P16).
    func stopGenerating() {
        changes.events.append(.sensorNeeded(false))
        if !sensorKeepsPoseWhileStopped && !latestReportIsForced { latestReport = .unknown }
        publish(.unknown)
    }

    /// A pose classified by the sensor (P8, P11, P16). While locked it is only kept, except the
    /// first one after a claim started or the device went while locked: that one is the pose the
    /// claim starts with, which a real source has to classify afresh.
    public func sensorReported(_ orientation: DeviceOrientation) {
        latestReport = orientation
        latestReportIsForced = false
        guard totalClaims > 0 else { return }
        if rotationLocked {
            guard awaitingFreshPose, orientation != .unknown else { return considerSuggestion(orientation) }
        }
        awaitingFreshPose = false
        publish(orientation)
    }

    /// The accelerometer went away: the device reads unknown at once, locked or not, since the
    /// pose it held describes a sensor that is no longer there.
    public func sensorVanished() {
        latestReport = .unknown
        latestReportIsForced = false
        guard totalClaims > 0 else { return }
        awaitingFreshPose = true
        publish(.unknown)
    }

    /// `SetDeviceOrientation`: the forced pose is a device report (P12); 1–6 only.
    public func setDeviceOrientation(_ raw: UInt32) throws(PolicyError) {
        guard let orientation = DeviceOrientation(rawValue: raw), orientation != .unknown else {
            throw PolicyError(.invalidArgs, "\(raw) is not a device orientation to set; accepted: 1–6 (portrait, "
                + "portrait-upside-down, landscape-left, landscape-right, face-up, face-down)")
        }
        if deviceOrientation == orientation {
            latestReport = orientation
            decide(.device)
        } else {
            sensorReported(orientation)
        }
        latestReportIsForced = true
        // P20: a forced rotation is not held; P8 acts on it as if the hold had begun with it.
        if heldDeviceOrientation != nil && heldDeviceOrientation != deviceOrientation {
            heldDeviceOrientation = deviceOrientation
            decide(.device)
        }
    }

    /// `AttemptRotationToDeviceOrientation` (P10).
    public func attemptRotation() {
        decide(.device)
    }

    /// The user's rotation lock (P11): locking never rotates; unlocking catches up with the device.
    public func setRotationLocked(_ locked: Bool) {
        guard locked != rotationLocked else { return }
        rotationLocked = locked
        changes.manager.insert(.rotationLocked)
        // What DeviceOrientation reads when locking is what it keeps, even unknown.
        awaitingFreshPose = false
        guard !locked else { return }
        withdrawSuggestion()
        if totalClaims > 0 { publish(latestReport) }
        decide(.device)
    }

    /// Info.plist's mask (P1) set over the bus, refused when a window's hierarchy would share nothing
    /// with it (P5). It overrides the config's until `resetApplicationMask()`.
    public func setApplicationMask(_ raw: UInt32) throws(PolicyError) {
        let mask = try validMask(raw, for: "the application mask",
                                 zero: "ResetApplicationMask puts the config's mask back")
        try requireCommonOrientation(with: mask)
        // Saved even when the mask in force stays the same: it now outlives a config edit.
        applicationMaskOverride = mask
        apply(applicationMask: mask)
    }

    /// Forgets the mask set over the bus: the config's (or the idiom's default) is in force again,
    /// refused like any other mask when a window's hierarchy would share nothing with it (P5).
    public func resetApplicationMask() throws(PolicyError) {
        let mask = configuration.configuredApplicationMask
        try requireCommonOrientation(with: mask)
        applicationMaskOverride = nil
        apply(applicationMask: mask)
    }

    /// P5 for a new application mask: every window that uses it keeps a common orientation.
    private func requireCommonOrientation(with mask: OrientationMask) throws(PolicyError) {
        for window in windows.values where window.delegateMask.isEmpty {
            if let root = window.rootController, let conflict = firstConflict(in: root, with: mask) {
                throw noCommonOrientation(conflict, window.id, mask)
            }
        }
    }

    /// Puts a validated application mask in force and re-decides (P9).
    private func apply(applicationMask mask: OrientationMask) {
        guard mask != applicationMask else { return }
        applicationMask = mask
        changes.manager.insert(.applicationMask)
        managerUnsettled = true
        for window in windows.values where window.delegateMask.isEmpty { touch(window.id) }
        decide(.hierarchy)
    }

    /// Makes `orientation` what `DeviceOrientation` reads, announcing it and following it (P8).
    func publish(_ orientation: DeviceOrientation) {
        guard orientation != deviceOrientation else { return }
        changes.events.append(.deviceOrientationChanged(from: deviceOrientation, to: orientation))
        deviceOrientation = orientation
        // P20: during a touch hold P8 sees the pose it last acted on, which this does not change.
        guard heldDeviceOrientation == nil else { return }
        decide(.device)
    }

    /// A mask that must be a non-empty subset of all four orientations. `zero` says, for a 0, what
    /// the caller may have meant instead: 0 means something only where a default stands behind it
    /// (a controller's mask, a window's delegate mask), never here.
    func validMask(_ raw: UInt32, for what: String, zero: String? = nil) throws(PolicyError) -> OrientationMask {
        let mask = OrientationMask(rawValue: raw)
        guard mask.isValid else {
            throw PolicyError(.invalidArgs, "\(raw) is not a valid mask for \(what); a mask is a non-empty "
                + "subset of 30: portrait 2, portrait-upside-down 4, landscape-right 8, landscape-left 16"
                + (raw == 0 ? "; 0 supports no orientation" + (zero.map { " (\($0))" } ?? "") : ""))
        }
        return mask
    }

    /// The refusal of P5, naming the controller, the window and both masks.
    func noCommonOrientation(_ controller: ControllerID, _ window: WindowID, _ mask: OrientationMask) -> PolicyError {
        let controllerMask = controllers[controller]?.supportedMask ?? []
        return PolicyError(.noCommonOrientation, "\(controller) supports \(controllerMask), which has no common "
            + "orientation with \(window)'s mask \(mask)")
    }
}
