// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

import DBus
import DesktopSession
import Orientation

/// `app set|reset|list|show`: the user's per-application orientations, and what an application
/// declares (applications.md).
enum AppCommand {
    static let name = "app"
    static let synopsis = "app set ID MASK | reset ID | list | show ID"
    static let summary = "per-application orientations: set or reset an override, list them, show a declaration"
    static let help = """
        Usage: orientationctl app set ID MASK
               orientationctl app reset ID
               orientationctl app list
               orientationctl app show ID

        ID is an application id: its desktop file's name without .desktop
        (org.gnome.Maps), the same as its Wayland app id.

          set ID MASK  the user's orientations for ID (SetApplicationOrientations,
                       privileged: configure-applications), kept across restarts and
                       first in force for ID, before the config's [Applications] and
                       the desktop file's X-Orientationd-SupportedOrientations.
                       E.g. 'app set org.gnome.Maps portrait' keeps Maps upright.
          reset ID     forgets it (ResetApplicationOrientations); when ID has none, a
                       note on stderr says nothing changed (exit status 0)
          list         every override, then the application in front with the mask in
                       force for it and where that mask comes from
          show ID      what would be in force for ID without focusing it
                       (ApplicationDeclaration): its mask and source (override, config,
                       desktop-file or none); for none, why its desktop file declares
                       nothing, as the daemon says (ExplainApplicationDeclaration): no
                       file in the directories it reads, a file passed over, no key, or
                       a value that is not valid and what is wrong with it
        ID ending in .desktop, or with characters an application id cannot have, is
        refused (exit status 2) naming the id it should be.
        \(Help.masks)
        With --json, list prints {"ApplicationOrientations": {ID: [names], ...},
        "FocusedApplication": ID, "FocusedApplicationMask": [names],
        "FocusedApplicationMaskValue": N, "FocusedApplicationSource": SOURCE}, and show
        {"Application": ID, "Mask": [names], "MaskValue": N, "Source": SOURCE}.
        """

    static func run(_ invocation: Invocation) throws(Failure) {
        guard let verb = invocation.operands.first else { throw .usage("app needs set, reset, list or show") }
        let rest = Invocation(bus: invocation.bus, json: invocation.json, command: "app \(verb)",
                              arguments: Array(invocation.arguments.drop { $0 != verb }.dropFirst()))
        switch verb {
        case "set":
            let operands = try rest.expectOperands(["ID", "MASK"])
            try checkID(operands[0], "app set")
            let mask = try ChangeCommands.parseMask(operands[1], "app set",
                                                    zero: "'orientationctl app reset \(operands[0])' forgets its orientations")
            try Manager(invocation).call("SetApplicationOrientations", [.string(operands[0]), .uint32(mask.rawValue)])
        case "reset":
            let id = try rest.expectOperands(["ID"])[0]
            try checkID(id, "app reset")
            let manager = try Manager(invocation)
            let overrides = (try manager.property("ApplicationOrientations")).dictEntries ?? []
            try manager.call("ResetApplicationOrientations", [.string(id)])
            if !overrides.contains(where: { $0.0.stringValue == id }) {
                complain("note: \(id) had no orientations of its own; nothing changed")
            }
        case "list":
            _ = try rest.expectOperands([])
            try list(invocation)
        case "show":
            let id = try rest.expectOperands(["ID"])[0]
            try checkID(id, "app show")
            try show(invocation, id)
        default:
            throw .usage("app: unknown action '\(verb)'; use set, reset, list or show")
        }
    }

    /// Refuses an id no application can have, saying which: one that is not an application id, or a
    /// desktop file's whole name (`org.gnome.Maps.desktop`, whose id is `org.gnome.Maps`).
    static func checkID(_ id: String, _ command: String) throws(Failure) {
        if id.hasSuffix(".desktop"), id.count > ".desktop".count {
            throw .usage("\(command): '\(id)' is a desktop file's name; the application id is '\(id.dropLast(".desktop".count))'")
        }
        do { _ = try ApplicationID(parsing: id) } catch { throw .usage("\(command): \(error.message)") }
    }

    /// A mask as names, `none` for 0.
    static func names(_ raw: UInt32) -> String {
        PropertyFormat.text("SupportedMask", .uint32(raw))
    }

    static func list(_ invocation: Invocation) throws(Failure) {
        // One GetAll: the overrides and the focus as they stood together.
        let properties = Dictionary(try Manager(invocation).allProperties(), uniquingKeysWith: { _, last in last })
        func value(_ name: String) -> Value? { properties[name].map { $0.variantValue ?? $0 } }
        let overrides = (value("ApplicationOrientations")?.dictEntries ?? [])
            .compactMap { entry in entry.0.stringValue.flatMap { id in entry.1.uint32Value.map { (id, $0) } } }
        let focused = value("FocusedApplication")?.stringValue ?? ""
        let mask = value("FocusedApplicationMask")?.uint32Value ?? 0
        let source = value("FocusedApplicationSource")?.stringValue ?? "none"
        if invocation.json {
            let table = PropertyFormat.overridesJSON(overrides.map { (.string($0.0), .uint32($0.1)) })
            emit(JSON.object([("ApplicationOrientations", table), ("FocusedApplication", .string(focused))]
                + PropertyFormat.json("FocusedApplicationMask", .uint32(mask))
                + [("FocusedApplicationSource", .string(source))]).rendered)
            return
        }
        if overrides.isEmpty { emit("no application has orientations of its own") }
        for (id, raw) in overrides { emit("\(id): \(names(raw))") }
        if focused.isEmpty {
            emit("in front: no application reported")
        } else {
            emit("in front: \(focused): \(source == "none" ? "declares nothing, the application mask applies" : "\(names(mask)) (\(source))")")
        }
    }

    static func show(_ invocation: Invocation, _ id: String) throws(Failure) {
        let reply = try Manager(invocation).call("ApplicationDeclaration", [.string(id)])
        guard reply.count == 2, let mask = reply[0].uint32Value, let source = reply[1].stringValue else {
            throw .runtime("ApplicationDeclaration answered with an unexpected reply: \(reply)")
        }
        if invocation.json {
            let names = PropertyFormat.maskNames(mask).map { JSON.array($0.map(JSON.string)) } ?? .null
            emit(JSON.object([("Application", .string(id)), ("Mask", names), ("MaskValue", .int(Int64(mask))),
                              ("Source", .string(source))]).rendered)
        } else if source == "none" {
            let why = try Manager(invocation).call("ExplainApplicationDeclaration", [.string(id)]).first?.stringValue ?? "the daemon did not say why"
            emit("\(id): declares nothing; the application mask applies (\(why))")
        } else {
            emit("\(id): \(names(mask)) (\(source))")
        }
    }
}

extension Command {
    static let app = Command(
        name: AppCommand.name, synopsis: AppCommand.synopsis, summary: AppCommand.summary, help: AppCommand.help,
        operands: .following { typed, context in
            switch (typed.count, typed.first) {
            case (0, _): ["set", "reset", "list", "show"]
            case (1, "set"?), (1, "reset"?), (1, "show"?): context.applicationIDs()
            case (2, "set"?): Commands.maskWords
            default: []
            }
        }, run: AppCommand.run)
}
