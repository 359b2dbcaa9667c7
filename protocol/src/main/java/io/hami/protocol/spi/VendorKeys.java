package io.hami.protocol.spi;

import io.hami.protocol.codec.RegisterCodec;
import java.util.Objects;
import java.util.Optional;

/**
 * The annotation keys one vendor owns (design D1, docs/design.md#d1). No module other than the vendor's backend may
 * spell these strings.
 *
 * @param registerKey   node annotation carrying the inventory; empty for capacity-discovered vendors
 * @param registerCodec how {@code registerKey} is written and read; present exactly when the key is
 * @param handshakeKey  node annotation of the design D3 (docs/design.md#d3) handshake; empty for vendors without one
 * @param toAllocateKey pod annotation of the entries still to be consumed by the device plugin
 * @param allocatedKey  pod annotation of the full decision, counted by the usage index
 */
public record VendorKeys(
        Optional<String> registerKey,
        Optional<RegisterCodec> registerCodec,
        Optional<String> handshakeKey,
        String toAllocateKey,
        String allocatedKey) {
    public VendorKeys {
        Objects.requireNonNull(registerKey);
        Objects.requireNonNull(registerCodec);
        Objects.requireNonNull(handshakeKey);
        Objects.requireNonNull(toAllocateKey);
        Objects.requireNonNull(allocatedKey);
        if (registerKey.isPresent() != registerCodec.isPresent()) {
            throw new IllegalArgumentException("a register key needs a codec, and only a register key has one");
        }
    }
}
