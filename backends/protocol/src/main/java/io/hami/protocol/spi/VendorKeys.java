package io.hami.protocol.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * The annotation keys one vendor owns (DECISIONS D1). No module other than the vendor's backend may
 * spell these strings.
 *
 * @param registerKey    node annotation carrying the inventory; empty for capacity-discovered vendors
 * @param registerFormat how {@code registerKey} is encoded
 * @param handshakeKey   node annotation of the D3 handshake; empty for vendors without one
 * @param toAllocateKey  pod annotation of the entries still to be consumed by the device plugin
 * @param allocatedKey   pod annotation of the full decision, counted by the usage index
 */
public record VendorKeys(Optional<String> registerKey, RegisterFormat registerFormat,
                         Optional<String> handshakeKey, String toAllocateKey, String allocatedKey) {
    public VendorKeys {
        Objects.requireNonNull(registerKey);
        Objects.requireNonNull(registerFormat);
        Objects.requireNonNull(handshakeKey);
        Objects.requireNonNull(toAllocateKey);
        Objects.requireNonNull(allocatedKey);
        if (registerKey.isPresent() == (registerFormat == RegisterFormat.NONE)) {
            throw new IllegalArgumentException("a register key needs a format, and only a register key has one");
        }
    }

    /** Encoding of a node register annotation. */
    public enum RegisterFormat {
        /** NVIDIA: JSON array with Go's key order and omitempty. */
        JSON,
        /** Legacy colon form, 9 fields written, 7 or 9 read. */
        LEGACY,
        /** No register annotation: devices come from node Capacity. */
        NONE
    }
}
