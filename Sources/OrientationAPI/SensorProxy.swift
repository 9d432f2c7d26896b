// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

/// iio-sensor-proxy's names (Docs/shells.md): the daemon serves them with
/// `--sensor-proxy-compat` and reads an upstream proxy by them with `--sensor sensor-proxy`.
public enum SensorProxy {
    public static let busName = "net.hadess.SensorProxy"
    public static let path = "/net/hadess/SensorProxy"
    public static let interface = "net.hadess.SensorProxy"
    /// The compass, a second object (geoclue reads it).
    public static let compassPath = "/net/hadess/SensorProxy/Compass"
    public static let compassInterface = "net.hadess.SensorProxy.Compass"
}
