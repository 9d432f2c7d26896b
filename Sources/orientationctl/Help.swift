/// The help texts: one overview and one page per command.
enum Help {
    static let overview = """
        Usage: orientationctl [--system | --session | --address ADDRESS] [--json] COMMAND [ARGS]

        Talks to orientationd (org.orientationd.Orientation1).

        Global options (before the command):
          --system             use the system bus (default)
          --session            use the session bus
          --address ADDRESS    use the bus at ADDRESS
          --json               print JSON for scripts (see 'orientationctl help status')
          --help, -h           show this help

        Commands:
          status               show every manager property, values as names
          get PROPERTY         show one manager property
          monitor              hold a device-orientation claim and print each change until interrupted
          lock                 lock rotation (RotationLocked = true)
          unlock               unlock rotation (RotationLocked = false)
          set-device ORIENTATION
                               force the device orientation (SetDeviceOrientation)
          inject X Y Z         feed one accelerometer sample in m/s² (simulated sensor only)
          app-mask MASK        set the application's supported orientations (ApplicationMask)
          attempt              AttemptRotationToDeviceOrientation
          window [OPTIONS]     register a window with a root controller and keep it until interrupted
          follow sway [OPTIONS] | follow exec -- COMMAND [ARGS...]
                               \(FollowCommand.summary)
          help [COMMAND]       show this help, or a command's

        'orientationctl COMMAND --help' explains a command.
        Exit status: 0 on success, 1 when the daemon or the bus reports an error
        (its message and error name go to stderr), 2 for a wrong command line.
        """

    static let orientations = "portrait, portrait-upside-down, landscape-left, landscape-right, face-up, face-down or 1-6"
    static let masks = """
        MASK is a number (a non-empty subset of 30: portrait 2, portrait-upside-down 4,
        landscape-right 8, landscape-left 16) or names joined by ',' or '|' among
        portrait, portrait-upside-down, landscape-right, landscape-left, landscape, all,
        all-but-upside-down.
        """

    static let jsonScheme = """
        JSON (--json): one object. Every property appears under its own name with the
        value as shown in text: orientations as name strings, masks as arrays of names,
        booleans as true/false, RotationDuration as a number, KeyWindow as a path,
        ScreenBounds as "WxH". Values that are numbers on the wire also appear raw
        under NAME + "Value": orientations and masks as numbers, ScreenBounds as
        [width, height]. Example:
          {"InterfaceOrientation": "portrait", "InterfaceOrientationValue": 1,
           "SupportedMask": ["portrait", "landscape-right", "landscape-left"],
           "SupportedMaskValue": 26, "RotationLocked": false, ...}
        """

    static let commands: [String: String] = [
        "status": """
            Usage: orientationctl [--json] status

            Prints every property of the manager (org.orientationd.Orientation1 on
            /org/orientationd/Orientation1), one 'Name: value' line each: orientations
            by name, masks as lists of names, booleans as yes/no, ScreenBounds as WxH,
            FocusedProcess as a process id or 'none'.

            \(jsonScheme)
            """,
        "get": """
            Usage: orientationctl [--json] get PROPERTY

            Prints one manager PROPERTY as 'status' shows it, e.g.
            'orientationctl get InterfaceOrientation' prints 'portrait'.
            PROPERTY is one of (case does not matter):
              \(PropertyFormat.managerProperties.joined(separator: ", "))
            With --json: an object with the property, as in 'orientationctl help status'.
            """,
        "monitor": """
            Usage: orientationctl [--json] monitor

            Calls BeginGeneratingDeviceOrientationNotifications (so the sensor runs), then
            prints one line per event with the time of day, until SIGINT or SIGTERM, when it
            ends its claim and exits 0:
              12:03:04.512 device landscape-left
              12:03:04.513 will-change portrait -> landscape-right
              12:03:04.513 changed InterfaceOrientation: landscape-right
              12:03:04.514 did-change portrait -> landscape-right
            ('device' is DeviceOrientationDidChange, 'changed' a manager PropertiesChanged.)
            With --json: one object per line, with "time", "event" (device, will-change,
            did-change or changed) and the values by name and raw, e.g.
              {"time": "12:03:04.512", "event": "device", "orientation": "landscape-left", "orientationValue": 3}
              {"time": "...", "event": "will-change", "from": "portrait", "fromValue": 1, "to": "landscape-right", "toValue": 3}
              {"time": "...", "event": "changed", "properties": {"InterfaceOrientation": "landscape-right", ...}, "invalidated": []}
            Exits 1 with a message when orientationd leaves the bus.
            """,
        "lock": """
            Usage: orientationctl lock

            Locks rotation: sets RotationLocked to true (privileged). The interface stays
            in its orientation until 'orientationctl unlock'.
            """,
        "unlock": """
            Usage: orientationctl unlock

            Unlocks rotation: sets RotationLocked to false (privileged); the interface
            catches up with the device.
            """,
        "set-device": """
            Usage: orientationctl set-device ORIENTATION

            Forces the device orientation (SetDeviceOrientation, privileged): the device is
            taken to be in ORIENTATION until the sensor classifies a different one.
            ORIENTATION: \(orientations).
            Numbers are passed to the daemon as they are, so it judges them.
            """,
        "inject": """
            Usage: orientationctl inject X Y Z

            Feeds one accelerometer sample X Y Z, in m/s², into the daemon's classifier
            (InjectAcceleration, privileged; only with the simulated sensor).
            X, Y and Z are decimal numbers, e.g. 'inject -- 9.81 0 0' or 'inject 0 -9.81 0'.
            """,
        "app-mask": """
            Usage: orientationctl app-mask MASK

            Sets the application's supported orientations (ApplicationMask, privileged).
            \(masks)
            """,
        "attempt": """
            Usage: orientationctl attempt

            Calls AttemptRotationToDeviceOrientation: the interface turns to the device's
            orientation when the rules in force allow it.
            """,
        "window": """
            Usage: orientationctl [--json] window [--delegate-mask MASK] [--root KIND]
                                  [--mask MASK] [--preferred ORIENTATION] [--no-autorotate]

            Registers a window, creates a root controller, makes the window key, prints
            'window PATH' and 'controller PATH' (with --json: {"window": PATH,
            "controller": PATH}), then stays connected until SIGINT or SIGTERM and exits 0;
            the daemon removes both objects when the tool leaves the bus.
              --delegate-mask MASK       the window's DelegateMask (default: not set)
              --root KIND                the root controller's kind: view (default), navigation, tab
              --mask MASK                the controller's SupportedMask (default: the idiom's)
              --preferred ORIENTATION    the controller's PreferredOrientation: portrait,
                                         portrait-upside-down, landscape-right, landscape-left or 1-4
              --no-autorotate            ShouldAutorotate = false
            \(masks)
            """,
        FollowCommand.name: FollowCommand.help,
        "help": """
            Usage: orientationctl help [COMMAND]

            Shows the overview, or COMMAND's help.
            """,
    ]
}
