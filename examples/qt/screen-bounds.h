// ScreenBounds, the manager's (uu) property (width, height in the interface orientation), as Qt's
// D-Bus type system reads it: named by the interface file's org.qtproject.QtDBus.QtTypeName, and given
// to qdbusxml2cpp with -i screen-bounds.h.
#pragma once
#include <QtDBus/QDBusArgument>
#include <QtDBus/QDBusMetaType>

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
