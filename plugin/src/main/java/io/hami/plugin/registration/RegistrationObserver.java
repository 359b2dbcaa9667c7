package io.hami.plugin.registration;

/** What the registration loop reports (the plugin's metrics record it). */
@FunctionalInterface
public interface RegistrationObserver {
    /** Records nothing. */
    RegistrationObserver NONE = (resource, accepted) -> {};

    /** One {@code Register} call for {@code resource}: the kubelet accepted it, or it failed (retried). */
    void registered(String resource, boolean accepted);
}
