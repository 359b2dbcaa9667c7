#define _GNU_SOURCE
#include "mock_common.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_FAILURES 32
#define QUEUE_SIZE 256
#define REFRESH_INTERVAL_MS 2

pthread_mutex_t mock_mutex = PTHREAD_MUTEX_INITIALIZER;
mock_config mock_cfg;

typedef struct {
    char function[64];
    int code;
    long after;   /* calls that still succeed */
    long count;   /* failures before it succeeds again; -1 = for ever */
    long calls;
} failure;

static struct {
    char dir[PATH_MAX];
    char devices_path[PATH_MAX + 32];
    char control_path[PATH_MAX + 32];
    int have_paths;

    int exists;
    struct timespec mtime;
    ino_t ino;
    off_t size;
    uint64_t last_check_ms;
    int generation;

    int init_error;
    failure failures[MAX_FAILURES];
    int nfailures;
    int lost[MOCK_MAX_DEVICES];
    int unhealthy[MOCK_MAX_DEVICES];
    int events_seen;
} ctl;

/* Health as last reported, so that a device turning unhealthy queues exactly one event. */
static int reported_unhealthy[MOCK_MAX_DEVICES];
static mock_event queue[QUEUE_SIZE];
static int queue_head, queue_len;

uint64_t mock_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000u + (uint64_t) ts.tv_nsec / 1000000u;
}

static uint64_t coarse_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts); /* vDSO, cheap enough for every call */
    return (uint64_t) ts.tv_sec * 1000u + (uint64_t) ts.tv_nsec / 1000000u;
}

void mock_sleep_unlocked(unsigned ms) {
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long) (ms % 1000) * 1000000L};
    pthread_mutex_unlock(&mock_mutex);
    nanosleep(&ts, NULL);
    pthread_mutex_lock(&mock_mutex);
}

int mock_copy_string(char *dst, unsigned long len, const char *s) {
    size_t n = strlen(s);
    if (dst == NULL || n + 1 > len) return 1;
    memcpy(dst, s, n + 1);
    return 0;
}

static void dirname_of(const char *path, char *out, size_t len) {
    snprintf(out, len, "%s", path);
    char *slash = strrchr(out, '/');
    if (slash == NULL) snprintf(out, len, ".");
    else if (slash == out) out[1] = '\0';
    else *slash = '\0';
}

/* devices.json: $HAMI_MOCK_DEVICES, else next to this .so as loaded (dladdr), so copies differ. */
static void resolve_paths(void) {
    if (ctl.have_paths) return;
    const char *env = getenv("HAMI_MOCK_DEVICES");
    if (env != NULL && *env) {
        snprintf(ctl.devices_path, sizeof ctl.devices_path, "%s", env);
    } else {
        Dl_info info;
        char so_dir[PATH_MAX] = ".";
        if (dladdr((void *) &resolve_paths, &info) && info.dli_fname != NULL) {
            dirname_of(info.dli_fname, so_dir, sizeof so_dir);
        }
        snprintf(ctl.devices_path, sizeof ctl.devices_path, "%s/devices.json", so_dir);
    }
    dirname_of(ctl.devices_path, ctl.dir, sizeof ctl.dir);
    env = getenv("HAMI_MOCK_CONTROL");
    if (env != NULL && *env) snprintf(ctl.control_path, sizeof ctl.control_path, "%s", env);
    else snprintf(ctl.control_path, sizeof ctl.control_path, "%s/control.json", ctl.dir);
    ctl.have_paths = 1;
}

const char *mock_dir(void) {
    resolve_paths();
    return ctl.dir;
}

static cJSON *read_json(const char *path, int *missing) {
    *missing = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        *missing = errno == ENOENT;
        if (!*missing) fprintf(stderr, "hami mock: cannot open %s: %s\n", path, strerror(errno));
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t) size + 1);
    size_t got = text ? fread(text, 1, (size_t) size, f) : 0;
    fclose(f);
    if (text == NULL) return NULL;
    text[got] = '\0';
    cJSON *json = cJSON_Parse(text);
    if (json == NULL) fprintf(stderr, "hami mock: %s is not valid JSON near: %.40s\n", path, cJSON_GetErrorPtr());
    free(text);
    return json;
}

static double num(const cJSON *obj, const char *key, double fallback) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(item) ? item->valuedouble : fallback;
}

static const char *str(const cJSON *obj, const char *key, const char *fallback) {
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(item) ? item->valuestring : fallback;
}

static void push_event(const mock_event *ev) {
    if (queue_len == QUEUE_SIZE) { /* drop the oldest, as a driver's ring buffer would */
        queue_head = (queue_head + 1) % QUEUE_SIZE;
        queue_len--;
    }
    queue[(queue_head + queue_len) % QUEUE_SIZE] = *ev;
    queue_len++;
}

int mock_pop_event(mock_event *out) {
    if (queue_len == 0) return 0;
    *out = queue[queue_head];
    queue_head = (queue_head + 1) % QUEUE_SIZE;
    queue_len--;
    return 1;
}

int mock_lost(int device) {
    return device >= 0 && device < MOCK_MAX_DEVICES && ctl.lost[device];
}

int mock_healthy(int device) {
    return device >= 0 && device < mock_cfg.count && mock_cfg.dev[device].healthy && !ctl.unhealthy[device];
}

/* A device that turns unhealthy queues one event: XID 48 (double-bit ECC) for NVML, GPU_PRE_RESET for ROCm. */
static void report_health(void) {
    for (int i = 0; i < mock_cfg.count; i++) {
        int unhealthy = !mock_healthy(i);
        if (unhealthy && !reported_unhealthy[i]) {
            mock_event ev = {.device = i, .xid = 48, .type = 3};
            snprintf(ev.message, sizeof ev.message, "device %d unhealthy", i);
            push_event(&ev);
        }
        reported_unhealthy[i] = unhealthy;
    }
}

static void parse_pci(mock_device *d) {
    unsigned domain = 0, bus = 0, device = 0, function = 0;
    if (sscanf(d->pci_bus_id, "%x:%x:%x.%x", &domain, &bus, &device, &function) == 4) {
        d->domain = domain;
        d->bus = bus;
        d->device = device;
        d->function = function;
    }
}

int mock_load_devices(const mock_defaults *defaults) {
    resolve_paths();
    int missing;
    cJSON *root = read_json(ctl.devices_path, &missing);
    if (root == NULL) {
        if (missing) fprintf(stderr, "hami mock: device file %s not found\n", ctl.devices_path);
        return -1;
    }
    memset(&mock_cfg, 0, sizeof mock_cfg);
    snprintf(mock_cfg.driver_version, sizeof mock_cfg.driver_version, "%s", str(root, "driverVersion", "550.54.15"));
    mock_cfg.cuda_driver_version = (int) num(root, "cudaDriverVersion", 12040);
    const cJSON *devices = cJSON_GetObjectItemCaseSensitive(root, "devices");
    const cJSON *item;
    cJSON_ArrayForEach(item, devices) {
        if (mock_cfg.count == MOCK_MAX_DEVICES) break;
        int i = mock_cfg.count++;
        mock_device *d = &mock_cfg.dev[i];
        snprintf(d->uuid, sizeof d->uuid, "%s", str(item, "uuid", ""));
        snprintf(d->name, sizeof d->name, "%s", str(item, "name", "mock device"));
        snprintf(d->pci_bus_id, sizeof d->pci_bus_id, "%s", str(item, "pciBusId", "0000:00:00.0"));
        parse_pci(d);
        d->memory_mib = (uint64_t) num(item, "memoryMiB", 16384);
        d->used_mib = (uint64_t) num(item, "usedMiB", 0);
        d->numa_node = (int) num(item, "numaNode", 0);
        d->minor = (unsigned) num(item, "minor", i);
        const cJSON *healthy = cJSON_GetObjectItemCaseSensitive(item, "healthy");
        d->healthy = !cJSON_IsFalse(healthy);
        d->pci_device_id = (unsigned) num(item, "pciDeviceId", defaults->pci_device_id);
        d->pci_subsystem_id = (unsigned) num(item, "pciSubsystemId", 0);
        d->cc_major = (int) num(item, "computeCapabilityMajor", 8);
        d->cc_minor = (int) num(item, "computeCapabilityMinor", 0);
        d->card_type = (int) num(item, "cardType", defaults->card_type);
        d->compute_units = (int) num(item, "computeUnits", defaults->compute_units);
        d->busy_percent = (unsigned) num(item, "busyPercent", 0);
        d->utilization = (unsigned) num(item, "utilization", 0);
        d->memory_utilization = (unsigned) num(item, "memoryUtilization", 0);
        d->unique_id = (uint64_t) num(item, "uniqueId", (double) (0x1000u + (unsigned) i));
        d->memory_info_unsupported = cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(item, "memoryInfo"));
    }
    if (defaults->read_extra != NULL && defaults->read_extra(root) != 0) {
        cJSON_Delete(root);
        mock_cfg.count = 0;
        return -1;
    }
    cJSON_Delete(root);
    queue_head = queue_len = 0;
    memset(reported_unhealthy, 0, sizeof reported_unhealthy);
    mock_control_refresh(1);
    report_health();
    return 0;
}

static void parse_indexes(const cJSON *array, int *flags) {
    memset(flags, 0, sizeof(int) * MOCK_MAX_DEVICES);
    const cJSON *item;
    cJSON_ArrayForEach(item, array) {
        if (cJSON_IsNumber(item) && item->valueint >= 0 && item->valueint < MOCK_MAX_DEVICES) flags[item->valueint] = 1;
    }
}

static void load_control(const cJSON *root) {
    ctl.init_error = (int) num(root, "initError", 0);
    parse_indexes(cJSON_GetObjectItemCaseSensitive(root, "lost"), ctl.lost);
    parse_indexes(cJSON_GetObjectItemCaseSensitive(root, "unhealthy"), ctl.unhealthy);

    ctl.nfailures = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(root, "failures")) {
        if (ctl.nfailures == MAX_FAILURES) break;
        failure *f = &ctl.failures[ctl.nfailures++];
        snprintf(f->function, sizeof f->function, "%s", str(item, "function", ""));
        f->code = (int) num(item, "code", 0);
        f->after = (long) num(item, "after", 0);
        f->count = (long) num(item, "count", -1);
        f->calls = 0;
    }

    /* events are append-only: entries past those already queued are new */
    const cJSON *events = cJSON_GetObjectItemCaseSensitive(root, "events");
    int n = cJSON_GetArraySize(events);
    if (n < ctl.events_seen) ctl.events_seen = 0;
    for (int i = ctl.events_seen; i < n; i++) {
        const cJSON *e = cJSON_GetArrayItem(events, i);
        mock_event ev = {.device = (int) num(e, "device", 0), .xid = (int) num(e, "xid", 0),
                         .type = (int) num(e, "event", 1)};
        snprintf(ev.message, sizeof ev.message, "%s", str(e, "message", "injected event"));
        push_event(&ev);
    }
    ctl.events_seen = n;
}

void mock_control_refresh(int force) {
    uint64_t now = coarse_now_ms();
    if (!force && now - ctl.last_check_ms < REFRESH_INTERVAL_MS) return;
    ctl.last_check_ms = now;
    resolve_paths();

    struct stat st;
    int exists = stat(ctl.control_path, &st) == 0;
    if (exists == ctl.exists && (!exists || (st.st_ino == ctl.ino && st.st_size == ctl.size &&
                                             st.st_mtim.tv_sec == ctl.mtime.tv_sec &&
                                             st.st_mtim.tv_nsec == ctl.mtime.tv_nsec))) {
        return;
    }
    ctl.exists = exists;
    if (exists) {
        ctl.ino = st.st_ino;
        ctl.size = st.st_size;
        ctl.mtime = st.st_mtim;
    }
    int missing;
    cJSON *root = exists ? read_json(ctl.control_path, &missing) : NULL;
    cJSON *empty = root == NULL ? cJSON_CreateObject() : NULL;
    load_control(root != NULL ? root : empty);
    cJSON_Delete(root);
    cJSON_Delete(empty);
    ctl.generation++;
    report_health();
}

int mock_init_fault(void) {
    mock_control_refresh(1);
    return ctl.init_error;
}

int mock_call_fault(const char *function) {
    mock_control_refresh(0);
    for (int i = 0; i < ctl.nfailures; i++) {
        failure *f = &ctl.failures[i];
        if (strcmp(f->function, function) != 0) continue;
        f->calls++;
        long failed = f->calls - f->after;
        if (failed > 0 && (f->count < 0 || failed <= f->count)) return f->code;
    }
    return 0;
}

void mock_write_state(const char *name, cJSON *state) {
    resolve_paths();
    char path[PATH_MAX + 64], tmp[PATH_MAX + 96];
    snprintf(path, sizeof path, "%s/%s", ctl.dir, name);
    snprintf(tmp, sizeof tmp, "%s.%d.tmp", path, (int) getpid());
    char *text = cJSON_Print(state);
    cJSON_Delete(state);
    FILE *f = text ? fopen(tmp, "w") : NULL;
    if (f == NULL) {
        fprintf(stderr, "hami mock: cannot write %s: %s\n", tmp, strerror(errno));
        free(text);
        return;
    }
    fputs(text, f);
    fputc('\n', f);
    free(text);
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "hami mock: cannot write %s: %s\n", path, strerror(errno));
    }
}

cJSON *mock_read_state(const char *name) {
    resolve_paths();
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", ctl.dir, name);
    int missing;
    return read_json(path, &missing);
}

/* Mock-only: re-reads the control file now and returns how many times it has been (re)loaded. */
MOCK_EXPORT int hami_mock_sync(void) {
    pthread_mutex_lock(&mock_mutex);
    mock_control_refresh(1);
    int generation = ctl.generation;
    pthread_mutex_unlock(&mock_mutex);
    return generation;
}
