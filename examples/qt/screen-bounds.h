// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

// ScreenBounds, the manager's (uu) property (width, height in the interface orientation), and
// ApplicationOrientations, its a{su} (application id to mask), as Qt's D-Bus type system reads them:
// named by the interface file's org.qtproject.QtDBus.QtTypeName, and given to qdbusxml2cpp with
// -i screen-bounds.h.
#pragma once
#include <QtCore/QMap>
#include <QtCore/QString>
#include <QtDBus/QDBusArgument>
#include <QtDBus/QDBusMetaType>

typedef QMap<QString, uint> OrientationApplicationMasks;
Q_DECLARE_METATYPE(OrientationApplicationMasks)

struct OrientationScreenBounds {
    uint width = 0;
    uint height = 0;
};
Q_DECLARE_METATYPE(OrientationScreenBounds)

inline QDBusArgument &operator<<(QDBusArgument &argument, const OrientationScreenBounds &bounds) {
    argument.beginStructure();
    argument << bounds.width << bounds.height;
    argument.endStructure();
    return argument;
}

inline const QDBusArgument &operator>>(const QDBusArgument &argument, OrientationScreenBounds &bounds) {
    argument.beginStructure();
    argument >> bounds.width >> bounds.height;
    argument.endStructure();
    return argument;
}
