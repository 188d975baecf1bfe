package io.fsindex.core.scope;

import io.fsindex.api.FileStat;

/** The device an entry sits on, as the platform's file key tells it. */
final class Devices {
    private Devices() {
    }

    /** Whether a directory on {@code device} below one on {@code parentDevice} is a mount point (both known). */
    static boolean isMountPoint(Long device, Long parentDevice) {
        return device != null && parentDevice != null && !device.equals(parentDevice);
    }

    /**
     * The device number from a Unix file key ({@code (dev=803,ino=1234)}, the device in hexadecimal), or null where
     * the platform gives no such key.
     */
    static Long of(FileStat stat) {
        return stat == null ? null : of(stat.fileKey());
    }

    /** As {@link #of(FileStat)}, from the file key itself ({@code BasicFileAttributes.fileKey()}). */
    static Long of(Object fileKey) {
        if (fileKey == null) {
            return null;
        }
        String key = fileKey.toString();
        int ino = key.indexOf(",ino=");
        if (!key.startsWith("(dev=") || ino < 6) {
            return null;
        }
        try {
            return Long.parseUnsignedLong(key, 5, ino, 16);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** How a device number is shown in messages: as {@code stat} shows it, major and minor in hexadecimal. */
    static String show(Long device) {
        return device == null ? "an unknown device" : "device " + Long.toHexString(device);
    }
}
