package io.hami.monitor.pods;

/** The namespace and name of a pod known by its UID: the labels of its containers' series. */
public record PodName(String namespace, String name) {}
