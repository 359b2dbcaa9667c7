package io.hami.protocol.annotation;

import io.hami.protocol.codec.AnnotationCodec;
import io.hami.protocol.codec.RegisterCodec;
import io.hami.protocol.spi.DeviceBackend;

/** What a protocol annotation key carries, and so which codec reads it. */
public sealed interface AnnotationKind {

    /** A node's device inventory of one vendor. */
    record NodeRegister(DeviceBackend backend, RegisterCodec codec) implements AnnotationKind {}

    /** A pod's devices of one vendor: still to be allocated ({@code pending}) or the full decision. */
    record PodDevicesKey(DeviceBackend backend, boolean pending) implements AnnotationKind {}

    /** A node's handshake for one vendor. */
    record HandshakeKey(DeviceBackend backend) implements AnnotationKind {}

    /** The node lock. */
    record NodeLockKey() implements AnnotationKind {}

    /** {@code hami.io/bind-time} or {@code hami.io/vgpu-time}. */
    record UnixTimeKey() implements AnnotationKind {}

    /** A further node annotation one vendor reads (NVIDIA's pair scores), with its own codec. */
    record VendorNodeKey(DeviceBackend backend, AnnotationCodec codec) implements AnnotationKind {}

    /** A JSON pod annotation of the decision with its own codec ({@code hami.io/vgpu-mig-allocations}). */
    record PodJsonKey(AnnotationCodec codec) implements AnnotationKind {}
}
