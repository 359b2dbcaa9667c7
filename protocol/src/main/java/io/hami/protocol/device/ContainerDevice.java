package io.hami.protocol.device;

import java.util.Objects;

/**
 * One device granted to one container, as written in pod device strings: {@code uuid,TYPE,mem,cores}.
 *
 * @param uuid      the device ID on its node
 * @param type      the vendor's type keyword ({@code NVIDIA}, {@code MLU}, {@code Mthreads}, {@code HCU}), not the model
 * @param usedmem   memory granted, MiB
 * @param usedcores cores granted, percent of the device (Moore Threads: of 16)
 */
public record ContainerDevice(String uuid, String type, int usedmem, int usedcores) {
    public ContainerDevice {
        Objects.requireNonNull(uuid, "uuid");
        Objects.requireNonNull(type, "type");
    }
}
