package io.hami.lab.fault;

import java.time.Duration;

/**
 * A pod a fault made that must never receive a device: one that wrote itself a grant, or one its kubelet rejected
 * while it held the node lock.
 *
 * @param fault    which fault made it ({@code self-grant}, {@code kubelet-rejects})
 * @param pod      namespace/name
 * @param uid      its UID, as the kubelets' allocation log records pods
 * @param node     its node
 * @param takeover for a rejected lock holder: how long until another pod held the node's lock; null when that never
 *                 happened within the wait, or for a self-granted pod
 */
public record UntrustedPod(String fault, String pod, String uid, String node, Duration takeover) {}
