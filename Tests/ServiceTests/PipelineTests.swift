// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

@preconcurrency import Glibc
import XCTest
import DBus
import OrientationAPI
import TestSupport

/// No call of a client within its limits is lost, however it sends them (Docs/security.md, "Calls in turns"):
/// what waits for its turn is bounded by bytes per client, per user and in all, and what is refused for
/// cost gets an error when it wanted a reply, and one log line per client either way
/// (Docs/security.md, "Calls in turns"). The clients are Python GIO processes
/// (`Fixtures/pipeline.py`) that send their calls back to back without waiting.
final class PipelineTests: DaemonTestCase {
    private func occurrences(_ text: String, in log: String) -> Int { log.components(separatedBy: text).count - 1 }

    /// Four clients at once, each pipelining its whole allowance of controllers (4,096, no reply wanted):
    /// every one takes effect; the per-client allowance is then full, which the next call is told.
    func testFourClientsPipeliningTheirWholeAllowanceLoseNothing() throws {
        let clients = try (0..<4).map { try pipeliner(4096, name: "client\($0)") }
        defer { for client in clients { client.process.stop() } }
        for client in clients { client.go() }
        for client in clients { finish(client) }
        XCTAssertEqual(try controllerCount(), 4 * 4096)
        for client in clients {
            let error = try XCTUnwrap(client.lines("error").first, "the 4,097th controller was created: \(client.process.log)")
            XCTAssertTrue(error.hasPrefix(std("LimitsExceeded")), error)
            XCTAssertTrue(error.contains("4096"), "refused for its allowance, not for cost: \(error)")
        }
        XCTAssertEqual(occurrences("for cost", in: daemon!.log), 0, daemon!.log)

        // The object manager lists them all in one reply, up to its bound of 16,384 objects; one more and
        // it says to follow its signals instead.
        let managed = try call(nil, Orientation1.managerPath, StandardInterface.objectManager, "GetManagedObjects")
        guard case .dict(_, _, let entries)? = managed.first else { return XCTFail("GetManagedObjects answered \(managed)") }
        XCTAssertEqual(entries.count, 4 * 4096)
        _ = try registerWindow(try newClient())
        let message = assertError(std("LimitsExceeded")) {
            try self.call(nil, Orientation1.managerPath, StandardInterface.objectManager, "GetManagedObjects")
        }
        XCTAssertTrue(message.contains("InterfacesAdded"), message)
    }

    /// `Peer.Ping` is served in turn with the caller's other calls, not answered ahead of them: once
    /// each of four clients has its Ping answered, everything each sent before it has taken effect.
    func testAPingIsAnsweredAfterEveryCallSentBeforeIt() throws {
        let clients = try (0..<4).map { try pipeliner(4096, final: "ping", name: "pinger\($0)") }
        defer { for client in clients { client.process.stop() } }
        for client in clients { client.go() }
        for client in clients { finish(client) }
        XCTAssertEqual(try controllerCount(), 4 * 4096, "a Ping came back before the calls sent ahead of it were served")
        for client in clients { XCTAssertEqual(client.lines("reply"), [""], client.process.log) }
    }

    /// 4,095 creations sent without waiting, then one awaited: the awaited one is the 4,096th, within
    /// the client's allowance, and is answered with its controller.
    func testAnAwaitedCallAfter4095PipelinedOnesIsServed() throws {
        let client = try pipeliner(4095, name: "client")
        defer { client.process.stop() }
        client.go()
        finish(client)
        let reply = try XCTUnwrap(client.lines("reply").first, client.process.log)
        XCTAssertTrue(reply.hasPrefix(Orientation1.controllerPathPrefix), reply)
        XCTAssertEqual(try controllerCount(), 4096)
    }
}

/// The same bounds made small (`[Limits] QueuedBytes=4096`, about 22 calls): a client past its bound
/// has its calls refused, with LimitsExceeded for those that want a reply, and is logged once; nothing
/// refused is silent to a caller that asked, and nothing answered is lost.
final class QueueBoundTests: DaemonTestCase {
    override var configText: String? { "[Limits]\nQueuedBytes=4096\nQueuedBytesPerUser=1048576\n" }

    func testAClientPastItsByteBoundIsRefusedWithAnErrorAndLoggedOnce() throws {
        var refusedInAll = 0
        for round in 0..<2 {
            // 120 calls wanting replies, sent at once (the bus lets 128 wait for replies).
            let client = try pipeliner(-120, name: "client\(round)")
            defer { client.process.stop() }
            client.go()
            finish(client, answers: 120)
            let refused = client.lines("error")
            for error in refused {
                XCTAssertTrue(error.hasPrefix(std("LimitsExceeded")), error)
                XCTAssertTrue(error.contains("bytes of calls waiting"), error)
            }
            XCTAssertGreaterThan(refused.count, 0, "120 calls at once never passed a 4 KiB bound: \(client.process.log)")
            // Every call answered with a controller made one: nothing accepted was lost.
            XCTAssertEqual(try controllerCount(), client.lines("reply").count)
            let name = try XCTUnwrap(client.uniqueName)
            XCTAssertEqual(daemon!.log.components(separatedBy: "refusing calls from \(name)").count - 1, 1,
                           "one log line per client: \(daemon!.log)")
            refusedInAll += refused.count
            client.process.stop()
            // The client's objects go with it; the next round starts from none.
            XCTAssertTrue(waitUntil { (try? self.controllerCount()) == 0 })
        }
        print("120 calls at once with a 4 KiB per-client bound: \(refusedInAll) of 240 refused in two rounds")
        // The daemon still serves, and the bound has no memory of departed clients.
        XCTAssertNoThrow(try createController(try newClient()))
    }
}

/// The per-user bound: clients of one uid together past it are refused, each logged once, however
/// far below their own bound each is.
final class QueueUserBoundTests: DaemonTestCase {
    override var configText: String? { "[Limits]\nQueuedBytes=1048576\nQueuedBytesPerUser=2048\n" }

    func testTheClientsOfOneUserTogetherPastTheirBoundAreRefused() throws {
        try assertThreeClientsAtOnceAreRefused(for: "the clients of uid \(getuid())")
    }
}

/// The bound in all: clients of any users together past it are refused, each logged once, however far
/// below their own and their user's bounds each is.
final class QueueTotalBoundTests: DaemonTestCase {
    override var configText: String? { "[Limits]\nQueuedBytes=1048576\nQueuedBytesPerUser=1048576\nTotalQueuedBytes=2048\n" }

    func testAllClientsTogetherPastTheTotalAreRefused() throws {
        try assertThreeClientsAtOnceAreRefused(for: "from all clients already wait")
    }
}

/// Pipelining clients, for the tests above.
extension DaemonTestCase {
    /// Three clients send 120 calls each, wanting replies, all at once: some are refused with
    /// LimitsExceeded naming `bound`, each client refused is logged once, and every call answered with a
    /// controller made one. Each client's first call, before it is ready, has made the daemon ask the bus
    /// for its uid, and the answer is in before the flood.
    func assertThreeClientsAtOnceAreRefused(for bound: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let clients = try (0..<3).map { try pipeliner(-120, name: "client\($0)") }
        defer { for client in clients { client.process.stop() } }
        waitUntil(0.2) { false }
        for client in clients { client.go() }
        for client in clients { finish(client, answers: 120) }
        let refused = clients.flatMap { $0.lines("error") }
        XCTAssertGreaterThan(refused.count, 0, "360 calls at once never passed a 2 KiB bound", file: file, line: line)
        XCTAssertTrue(refused.contains { $0.contains(bound) }, refused.prefix(3).joined(separator: "\n"), file: file, line: line)
        for error in refused { XCTAssertTrue(error.hasPrefix(std("LimitsExceeded")), error, file: file, line: line) }
        for client in clients where !client.lines("error").isEmpty {
            let name = try XCTUnwrap(client.uniqueName)
            XCTAssertEqual(daemon!.log.components(separatedBy: "refusing calls from \(name) ").count - 1, 1, daemon!.log,
                           file: file, line: line)
        }
        XCTAssertEqual(try controllerCount(), clients.map { $0.lines("reply").count }.reduce(0, +), file: file, line: line)
    }

    /// A pipelining client: started connected and idle; `go()` makes it send.
    final class Pipeliner {
        let process: ChildProcess
        init(_ process: ChildProcess) { self.process = process }

        /// Lines it printed that start with `word`, without the word.
        func lines(_ word: String) -> [String] {
            process.log.split(separator: "\n").filter { $0.hasPrefix(word + " ") }.map { String($0.dropFirst(word.count + 1)) }
        }

        var uniqueName: String? { lines("ready").first }
        func go() { kill(process.pid, SIGUSR1) }
    }

    /// Starts a client that will send `count` CreateController(`kind`) calls wanting no reply and then
    /// `final` ("call": one more, awaited; "get": an awaited Get), or with `count` negative, -`count`
    /// calls all wanting replies. It waits until it is connected.
    func pipeliner(_ count: Int, final: String = "call", kind: String = "view", name: String) throws -> Pipeliner {
        let script = packageRoot + "/Tests/ServiceTests/Fixtures/pipeline.py"
        let process = try world.start(["/usr/bin/python3", script, bus.address, Orientation1.busName, Orientation1.managerPath,
                                       Orientation1.managerInterface, "CreateController", "s", "'\(kind)'", "\(count)", final],
                                      name: name)
        let client = Pipeliner(process)
        guard waitUntil(10, { client.uniqueName != nil || !process.isRunning }), client.uniqueName != nil else {
            throw DBusError.failed("the pipelining client did not connect: \(process.log)")
        }
        return client
    }

    /// Waits until `client` printed its answers (`expected` of them).
    func finish(_ client: Pipeliner, answers expected: Int = 1, timeout: Double = 60) {
        XCTAssertTrue(waitUntil(timeout) { client.lines("reply").count + client.lines("error").count >= expected },
                      "no answer from the pipelining client: \(client.process.log)")
    }

    /// How many controllers exist: those the folder lists, and those it says it left out (0 when the
    /// folder is gone with the last of them).
    func controllerCount() throws -> Int {
        let folder = String(Orientation1.controllerPathPrefix.dropLast())
        guard try busHas(folder) else { return 0 }
        let xml = try call(nil, folder, "org.freedesktop.DBus.Introspectable", "Introspect").first?.stringValue ?? ""
        let listed = xml.components(separatedBy: "<node name=\"").count - 1
        let omitted = xml.firstMatch(of: /(\d+) more objects/).flatMap { Int($0.output.1) } ?? 0
        return listed + omitted
    }

    /// Whether the manager's folder lists `path`'s last segment.
    private func busHas(_ path: String) throws -> Bool {
        let parent = String(path[..<path.lastIndex(of: "/")!])
        let xml = try call(nil, parent, "org.freedesktop.DBus.Introspectable", "Introspect").first?.stringValue ?? ""
        return xml.contains("<node name=\"\(path.split(separator: "/").last!)\"")
    }
}

/// A durable setting changed back and forth without waiting: every call is answered, each once what it
/// asked is on the disk or a later call has undone it (a lock, an unlock and a lock sent at once
/// leave the middle caller's change superseded, not pending), and the disk ends with the last.
final class ToggleTests: DaemonTestCase {
    func testTenThousandToggledLocksSentWithoutWaitingAreAllAnswered() throws {
        let script = packageRoot + "/Tests/ServiceTests/Fixtures/toggle.py"
        let client = try world.start(["/usr/bin/python3", script, bus.address, Orientation1.busName, Orientation1.managerPath,
                                      Orientation1.managerInterface, "SetRotationLocked", "10000", "3"], name: "toggle")
        defer { client.stop() }
        XCTAssertTrue(waitUntil(120) { client.log.contains("answered ") }, client.log)
        XCTAssertTrue(client.log.contains("answered 10000 errors 0"), client.log)
        // The last call (the 10,000th) unlocked.
        XCTAssertTrue(waitUntil(5) { readText(self.stateDir + "/state").contains("RotationLocked=false") }, readText(stateDir + "/state"))
        XCTAssertEqual(try call(nil, Orientation1.managerPath, StandardInterface.properties, "Get",
                                [.string(Orientation1.managerInterface), .string("RotationLocked")]).first?.variantValue, .bool(false))
    }
}

/// A client changing thousands of its own controllers, with rotations between, beside a listener that
/// matches every signal and never reads (`Benchmarks/flood/flood.py`): every call of the flooding client
/// and of a bystander is answered, and the daemon lives. The times are the benchmark's to show
/// (`Benchmarks/flood/run.sh`, Docs/security.md); here they are printed.
final class SilentListenerFloodTests: DaemonTestCase {
    func testAFloodOfOwnChangesBesideAListenerThatNeverReadsLeavesNoCallUnanswered() throws {
        let script = packageRoot + "/Benchmarks/flood/flood.py"
        let client = try world.start(["/usr/bin/python3", script, bus.address, "160", "4095"], name: "flood")
        defer { client.stop() }
        XCTAssertTrue(waitUntil(240) { client.log.contains("errors ") }, client.log)
        print("flood beside a listener that never reads: \(client.log.split(separator: "\n").joined(separator: "; "))")
        let lines = client.log.split(separator: "\n")
        XCTAssertTrue(lines.contains("created 4095"), client.log)
        XCTAssertTrue(lines.contains("errors 0"), "a call went unanswered: \(client.log)")
        let gets = try XCTUnwrap(lines.first { $0.hasPrefix("get ") }?.split(separator: " ").last.flatMap { Int($0) }, client.log)
        XCTAssertGreaterThan(gets, 0, "the bystander was never answered")
        XCTAssertTrue(daemon!.isRunning)
    }
}
