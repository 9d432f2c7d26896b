// SPDX-FileCopyrightText: 2026 orientationd maintainers
//
// SPDX-License-Identifier: MIT

// The objects below an org.freedesktop.DBus.ObjectManager, kept as Qt 5 has no client for it:
// GetManagedObjects once, then InterfacesAdded and InterfacesRemoved.
#pragma once
#include <QtCore/QObject>
#include <QtCore/QSet>
#include <QtDBus/QDBusArgument>
#include <QtDBus/QDBusConnection>
#include <QtDBus/QDBusMessage>
#include <QtDBus/QDBusMetaType>
#include <QtDBus/QDBusObjectPath>
#include <QtDBus/QDBusReply>
#include <functional>

typedef QMap<QString, QVariantMap> OrientationInterfaces;
typedef QMap<QDBusObjectPath, OrientationInterfaces> OrientationManagedObjects;
Q_DECLARE_METATYPE(OrientationInterfaces)
Q_DECLARE_METATYPE(OrientationManagedObjects)

class ObjectWatcher : public QObject {
    Q_OBJECT
public:
    ObjectWatcher(QDBusConnection bus, QString service, QString path, std::function<void(const QString &)> report)
        : bus_(bus), service_(std::move(service)), path_(std::move(path)), report_(std::move(report)) {
        qDBusRegisterMetaType<OrientationInterfaces>();
        qDBusRegisterMetaType<OrientationManagedObjects>();
    }

    // Subscribes to the signals first, then lists what is there, so nothing falls between the two.
    bool start() {
        const QString manager = QStringLiteral("org.freedesktop.DBus.ObjectManager");
        bus_.connect(service_, path_, manager, QStringLiteral("InterfacesAdded"), this, SLOT(added(QDBusMessage)));
        bus_.connect(service_, path_, manager, QStringLiteral("InterfacesRemoved"), this, SLOT(removed(QDBusMessage)));
        QDBusMessage call = QDBusMessage::createMethodCall(service_, path_, manager, QStringLiteral("GetManagedObjects"));
        QDBusReply<OrientationManagedObjects> reply = bus_.call(call);
        if (!reply.isValid()) {
            error_ = reply.error();
            return false;
        }
        for (const QDBusObjectPath &object : reply.value().keys()) objects_.insert(object.path());
        return true;
    }

    bool contains(const QString &path) const { return objects_.contains(path); }
    QDBusError error() const { return error_; }

private slots:
    void added(const QDBusMessage &message) {
        const QString path = message.arguments().value(0).value<QDBusObjectPath>().path();
        objects_.insert(path);
        report_(QStringLiteral("object-added ") + path);
    }
    void removed(const QDBusMessage &message) {
        const QString path = message.arguments().value(0).value<QDBusObjectPath>().path();
        objects_.remove(path);
        report_(QStringLiteral("object-removed ") + path);
    }

private:
    QDBusConnection bus_;
    QString service_, path_;
    std::function<void(const QString &)> report_;
    QSet<QString> objects_;
    QDBusError error_;
};
