@preconcurrency import Glibc
import Orientation
import Log

/// Where the convertible's posture comes from (posture.md, "Posture"), read only while someone
/// claims orientations: today a tablet-mode switch of an input device (`SW_TABLET_MODE`: intel-vbtn,
/// intel-hid, asus-wmi, surface_aggregator_tabletsw, lenovo-ymc, …), on for `tablet` and off for
/// `laptop`, with no hinge angle. Without a source the posture is `unknown` and everything behaves as
/// on a phone.
public final class PostureSource {
    /// Gets each posture and hinge angle (degrees, −1 when not known).
    public typealias Sink = (Posture, Double) -> Void

    private let sink: Sink
    private var reader: InputSwitch?
    private var running = false
    /// The switch last used, so starting again with the same one is not logged every claim.
    private var lastLogged: String?

    public init(sink: @escaping Sink) {
        self.sink = sink
    }

    /// Watches the posture while `running`; stopping reports `unknown` and closes the device. Each
    /// start looks for the switch anew, so a keyboard cover attached between claims is found.
    public func setRunning(_ running: Bool) {
        guard running != self.running else { return }
        self.running = running
        if running { start() } else { stop() }
    }

    private func start() {
        guard let found = InputSwitch.discover(InputSwitch.tabletMode) else { return }
        do {
            let switchReader = try InputSwitch(node: found.node, code: InputSwitch.tabletMode, changed: { [unowned self] on in
                sink(on ? .tablet : .laptop, -1)
            }, failure: { [unowned self] problem in
                reader = nil
                Log.info("posture: \(problem); the posture is unknown until a tablet-mode switch is there at the next claim")
                sink(.unknown, -1)
            })
            reader = switchReader
            let on = try switchReader.state()
            if lastLogged != found.node {
                lastLogged = found.node
                Log.info("posture from \(found.sysname)'s \(InputSwitch.name(InputSwitch.tabletMode)) (\(found.node))")
            }
            sink(on ? .tablet : .laptop, -1)
        } catch {
            reader?.close()
            reader = nil
            Log.warning("posture: \(error); the posture stays unknown")
        }
    }

    private func stop() {
        reader?.close()
        reader = nil
        sink(.unknown, -1)
    }
}
