// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import EventLoop

final class MainLoopTests: XCTestCase {
    func testOneShotTimerFiresOnceAndPeriodicUntilCancelled() {
        var once = 0, periodic = 0
        let t1 = EventLoop.Timer(afterMs: 1) { once += 1 }
        let t2 = EventLoop.Timer(everyMs: 1) { periodic += 1 }
        XCTAssertTrue(MainLoop.iterate(until: { periodic >= 3 && once == 1 }))
        t2.cancel()
        let seen = periodic
        MainLoop.iterate(until: { false }, timeoutMs: 20)
        XCTAssertEqual(periodic, seen)
        XCTAssertEqual(once, 1)
        XCTAssertFalse(t1.isActive)
        t1.cancel() // after firing: must be harmless
    }

    func testIdleRunsOnceAndQuitStopsTheLoop() {
        let loop = MainLoop()
        var ran = 0
        Idle.schedule { ran += 1; loop.quit() }
        loop.run()
        XCTAssertEqual(ran, 1)
    }

    func testUnixSignalIsDeliveredOnTheLoop() {
        var got = false
        let watch = UnixSignal.watch(SIGUSR1) { got = true }
        defer { watch.cancel() }
        raise(SIGUSR1)
        XCTAssertTrue(MainLoop.iterate(until: { got }))
    }
}
