// The names of the D-Bus contract (dbus-api.md, "Names"), as the tests write them: spelled out
// rather than taken from the daemon's code, so a renamed constant there fails the tests.

public let busName = "org.orientationd.Orientation1"
public let managerPath = "/org/orientationd/Orientation1"
public let managerIface = "org.orientationd.Orientation1"
public let windowIface = "org.orientationd.Orientation1.Window"
public let controllerIface = "org.orientationd.Orientation1.Controller"
public let propsIface = "org.freedesktop.DBus.Properties"

/// iio-sensor-proxy's name, path and interface (sensors.md, "Desktop shells").
public let proxyName = "net.hadess.SensorProxy"
public let proxyPath = "/net/hadess/SensorProxy"
public let proxyIface = "net.hadess.SensorProxy"
