package io.hami.nativebind.nvml;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Test-only downcalls into one copy of the NVML mock, by function name, for the functions the production bindings
 * (nvml_h) do not bind: those upstream's NVIDIA plugin calls through go-nvml. Pointer arguments are
 * {@link MemorySegment}s, {@code unsigned int} arguments Java ints; every function returns its nvmlReturn_t.
 */
final class NvmlDowncalls implements AutoCloseable {

    /** Each function's C signature (hami_nvml.h). */
    static final Map<String, FunctionDescriptor> SIGNATURES = Map.ofEntries(
            Map.entry("nvmlInit_v2", FunctionDescriptor.of(JAVA_INT)),
            Map.entry("nvmlShutdown", FunctionDescriptor.of(JAVA_INT)),
            Map.entry("nvmlDeviceGetHandleByIndex_v2", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS)),
            Map.entry("nvmlDeviceGetIndex", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
            Map.entry("nvmlDeviceGetUUID", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT)),
            Map.entry("nvmlDeviceGetName", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT)),
            Map.entry("nvmlSystemGetDriverVersion", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)),
            Map.entry("nvmlDeviceGetHandleByUUID", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
            Map.entry("nvmlDeviceGetHandleByPciBusId_v2", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
            Map.entry("nvmlDeviceGetMigMode", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
            Map.entry("nvmlDeviceGetMaxMigDeviceCount", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
            Map.entry(
                    "nvmlDeviceGetMigDeviceHandleByIndex", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS)),
            Map.entry("nvmlDeviceIsMigDeviceHandle", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
            Map.entry(
                    "nvmlDeviceGetDeviceHandleFromMigDeviceHandle", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
            Map.entry("nvmlDeviceGetGpuInstanceId", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
            Map.entry("nvmlDeviceGetComputeInstanceId", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
            Map.entry(
                    "nvmlDeviceGetGpuInstanceProfileInfo", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS)),
            Map.entry(
                    "nvmlDeviceGetGpuInstancePossiblePlacements_v2",
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)),
            Map.entry(
                    "nvmlDeviceGetGpuInstances", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)));

    private final Arena arena = Arena.ofShared();
    private final SymbolLookup lookup;
    private final Map<String, MethodHandle> handles = new HashMap<>();

    NvmlDowncalls(Path library) {
        lookup = SymbolLookup.libraryLookup(library, arena);
    }

    /** Calls {@code function} with {@code args}; its nvmlReturn_t. */
    int call(String function, Object... args) {
        MethodHandle handle = handles.computeIfAbsent(function, f -> {
            FunctionDescriptor signature = SIGNATURES.get(f);
            if (signature == null) {
                throw new IllegalArgumentException("no signature for " + f + " in NvmlDowncalls.SIGNATURES");
            }
            return Linker.nativeLinker().downcallHandle(lookup.findOrThrow(f), signature);
        });
        try {
            return (int) handle.invokeWithArguments(args);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(function, e);
        }
    }

    @Override
    public void close() {
        arena.close();
    }
}
