package io.hami.cli.version;

import picocli.CommandLine;

/** The distribution's version, from the jar manifest; {@code hami --version} and the components' metrics. */
public final class DistributionVersion implements CommandLine.IVersionProvider {
    public static String get() {
        String v = DistributionVersion.class.getPackage().getImplementationVersion();
        return v == null ? "development" : v;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"hami-java " + get()};
    }
}
