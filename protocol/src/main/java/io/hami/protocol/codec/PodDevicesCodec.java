package io.hami.protocol.codec;

import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.PodDevices;
import java.util.ArrayList;
import java.util.List;

/**
 * Pod device strings (design D2, docs/design.md#d2): a container is its devices, each ended by {@code :}, and each container
 * is ended by {@code ;}; a device is {@code uuid,TYPE,memMiB,cores}. {@code A:;} is one container, {@code ;}
 * one empty container and {@code ""} no container at all.
 */
public final class PodDevicesCodec {
    private PodDevicesCodec() {}

    public static PodDevices decode(String value) throws AnnotationFormatException {
        var containers = new ArrayList<List<ContainerDevice>>();
        int start = 0;
        while (start < value.length()) {
            int end = value.indexOf(';', start);
            // The final ';' ends the last container; text after it is a container missing its ';'.
            if (end < 0) {
                end = value.length();
            }
            containers.add(decodeContainer(value.substring(start, end), containers.size()));
            start = end + 1;
        }
        return new PodDevices(containers);
    }

    private static List<ContainerDevice> decodeContainer(String text, int c) throws AnnotationFormatException {
        var devices = new ArrayList<ContainerDevice>();
        for (String device : text.split(":", -1)) {
            if (!device.isEmpty()) {
                devices.add(decodeDevice(device, c, devices.size()));
            }
        }
        return devices;
    }

    private static ContainerDevice decodeDevice(String text, int c, int d) throws AnnotationFormatException {
        String where = " in container " + c + " device " + d;
        String[] f = text.split(",", -1);
        if (f.length != 4) {
            throw new AnnotationFormatException("device" + where + " has " + f.length
                    + " fields, want 4 (uuid,type,memory,cores): " + GoStrconv.quote(text));
        }
        if (f[0].isEmpty()) {
            throw new AnnotationFormatException("empty uuid field" + where + ": " + GoStrconv.quote(text));
        }
        if (f[1].isEmpty()) {
            throw new AnnotationFormatException("empty type field" + where + ": " + GoStrconv.quote(text));
        }
        return new ContainerDevice(f[0], f[1], int32(f[2], "memory", where), int32(f[3], "core", where));
    }

    /** A grant is never negative: a negative value would lower the usage the scheduler counts. */
    private static int int32(String text, String field, String where) throws AnnotationFormatException {
        var v = GoStrconv.parseNonNegativeInt32(text);
        if (v.isEmpty()) {
            throw new AnnotationFormatException("invalid " + field + " field" + where + ": " + GoStrconv.quote(text)
                    + ", want " + GoStrconv.NON_NEGATIVE_INT32);
        }
        return (int) v.getAsLong();
    }

    /**
     * One entry per container, each ended by {@code ;}.
     *
     * @throws IllegalArgumentException when a uuid or type is empty or contains {@code , : ;}
     */
    public static String encode(PodDevices devices) {
        var b = new StringBuilder();
        for (List<ContainerDevice> container : devices.containers()) {
            for (ContainerDevice d : container) {
                b.append(representable("uuid", d.uuid()))
                        .append(',')
                        .append(representable("type", d.type()))
                        .append(',')
                        .append(d.usedmem())
                        .append(',')
                        .append(d.usedcores())
                        .append(':');
            }
            b.append(';');
        }
        return b.toString();
    }

    private static String representable(String field, String text) {
        if (text.isEmpty() || text.chars().anyMatch(ch -> ch == ',' || ch == ':' || ch == ';')) {
            throw new IllegalArgumentException(field
                    + " must be non-empty and free of ',' ':' ';' in a pod device string: " + GoStrconv.quote(text));
        }
        return text;
    }
}
