/*
 * hami-workload: stands in for the CUDA processes of one container under HAMi-core. It creates or updates a
 * shared-region file the way HAMi-core's libvgpu.so does (create, map MAP_SHARED, fill, initialized_flag
 * last; join process slots; account memory by kind under the slot's seqlock; record SM use and the last
 * kernel time), so the node monitor can be tested without GPUs. --dump prints a region's fields.
 * Usage: see usage() and hardware-mocks/README.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hami_shared_region.h"

#define MIB (1024ULL * 1024ULL)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define LOAD(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)

typedef struct {
    char uuid[SHARED_REGION_UUID_SIZE];
    uint64_t limit_mib;
    uint64_t sm_limit;
} device_arg;

typedef struct {
    const char *region;
    int version;
    device_arg devices[CUDA_DEVICE_MAX_COUNT];
    int device_count;
    int priority;
    int processes;
    uint64_t used_mib;
    uint64_t sm_util;
    const char *profile;
    double duration_s;
    long period_ms;
    int once;
    int dump;
} options;

/* The fields both layouts share, as pointers into the mapped region. */
typedef struct {
    int version;
    int32_t *initialized_flag;
    int32_t *sm_init_flag;
    sem_t *sem;
    uint64_t *device_num;
    char (*uuids)[SHARED_REGION_UUID_SIZE];
    uint64_t *limit;
    uint64_t *sm_limit;
    int32_t *proc_num;
    int32_t *utilization_switch;
    int32_t *recent_kernel;
    int32_t *priority;
    uint64_t *last_kernel_time; /* NULL for version 0 */
    size_t size;
    void *base;
    int fd;
} region_view;

/* One slot's fields, for either layout. */
typedef struct {
    int32_t *pid;
    int32_t *hostpid;
    int32_t *status;
    uint64_t *seqlock; /* NULL for version 0 */
    uint64_t *context[CUDA_DEVICE_MAX_COUNT], *module[CUDA_DEVICE_MAX_COUNT], *data[CUDA_DEVICE_MAX_COUNT];
    uint64_t *offset[CUDA_DEVICE_MAX_COUNT], *total[CUDA_DEVICE_MAX_COUNT], *sm_util[CUDA_DEVICE_MAX_COUNT];
} slot_view;

static volatile sig_atomic_t stopping;

static void on_signal(int sig) {
    (void)sig;
    stopping = 1;
}

__attribute__((noreturn, format(printf, 1, 2))) static void usage_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("hami-workload: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs(" (usage: hami-workload --region FILE --format-version 0|1 --device UUID:LIMIT_MIB:SM_LIMIT"
          " [--device ...] --priority 0|1 [--processes N] [--used-mib M] [--sm-util U]"
          " [--profile steady|ramp|burst --duration-s S --period-ms P] [--once];"
          " or hami-workload --dump --region FILE)\n",
          stderr);
    va_end(ap);
    exit(2);
}

__attribute__((noreturn, format(printf, 1, 2))) static void fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("hami-workload: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static uint64_t number(const char *flag, const char *text, uint64_t max) {
    char *end;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || text[0] == '-' || value > max) {
        usage_error("%s needs a whole number from 0 to %llu, got '%s'", flag, (unsigned long long)max, text);
    }
    return value;
}

static void parse_device(options *o, const char *text) {
    if (o->device_count == CUDA_DEVICE_MAX_COUNT) {
        usage_error("at most %d --device", CUDA_DEVICE_MAX_COUNT);
    }
    const char *first = strchr(text, ':');
    const char *second = first ? strchr(first + 1, ':') : NULL;
    if (first == NULL || second == NULL || first == text || (size_t)(first - text) >= SHARED_REGION_UUID_SIZE) {
        usage_error("--device needs UUID:LIMIT_MIB:SM_LIMIT, got '%s'", text);
    }
    device_arg *d = &o->devices[o->device_count++];
    memcpy(d->uuid, text, (size_t)(first - text));
    char limit[32];
    size_t n = (size_t)(second - first - 1);
    if (n == 0 || n >= sizeof limit) {
        usage_error("--device needs UUID:LIMIT_MIB:SM_LIMIT, got '%s'", text);
    }
    memcpy(limit, first + 1, n);
    limit[n] = '\0';
    d->limit_mib = number("--device LIMIT_MIB", limit, UINT64_MAX / MIB);
    d->sm_limit = number("--device SM_LIMIT", second + 1, 100);
}

static options parse(int argc, char **argv) {
    options o = {.version = -1, .priority = -1, .processes = 1, .profile = NULL, .period_ms = 1000};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--once") == 0) {
            o.once = 1;
            continue;
        }
        if (strcmp(a, "--dump") == 0) {
            o.dump = 1;
            continue;
        }
        if (i + 1 >= argc) {
            usage_error("%s needs a value or is unknown", a);
        }
        const char *v = argv[++i];
        if (strcmp(a, "--region") == 0) {
            o.region = v;
        } else if (strcmp(a, "--format-version") == 0) {
            o.version = (int)number(a, v, 1);
        } else if (strcmp(a, "--device") == 0) {
            parse_device(&o, v);
        } else if (strcmp(a, "--priority") == 0) {
            o.priority = (int)number(a, v, 1);
        } else if (strcmp(a, "--processes") == 0) {
            o.processes = (int)number(a, v, SHARED_REGION_MAX_PROCESS_NUM);
        } else if (strcmp(a, "--used-mib") == 0) {
            o.used_mib = number(a, v, UINT64_MAX / MIB);
        } else if (strcmp(a, "--sm-util") == 0) {
            o.sm_util = number(a, v, 100);
        } else if (strcmp(a, "--profile") == 0) {
            if (strcmp(v, "steady") != 0 && strcmp(v, "ramp") != 0 && strcmp(v, "burst") != 0) {
                usage_error("--profile is steady, ramp or burst, got '%s'", v);
            }
            o.profile = v;
        } else if (strcmp(a, "--duration-s") == 0) {
            o.duration_s = (double)number(a, v, 86400 * 365);
        } else if (strcmp(a, "--period-ms") == 0) {
            o.period_ms = (long)number(a, v, 3600000);
            if (o.period_ms == 0) {
                usage_error("--period-ms must be at least 1");
            }
        } else {
            usage_error("unknown option %s", a);
        }
    }
    if (o.region == NULL) {
        usage_error("--region is required");
    }
    if (o.dump) {
        return o;
    }
    if (o.version < 0) {
        usage_error("--format-version is required");
    }
    if (o.device_count == 0) {
        usage_error("at least one --device is required");
    }
    if (o.priority < 0) {
        usage_error("--priority is required");
    }
    if (o.once && o.profile != NULL) {
        usage_error("--once and --profile exclude each other");
    }
    if (o.profile == NULL) {
        o.profile = "steady";
    }
    return o;
}

/* Both layouts name their fields alike, so one macro fills a view from either struct. */
#define VIEW_FIELDS(r, s)                           \
    do {                                            \
        (r).initialized_flag = &(s)->initialized_flag; \
        (r).sm_init_flag = &(s)->sm_init_flag;      \
        (r).sem = &(s)->sem;                        \
        (r).device_num = &(s)->device_num;          \
        (r).uuids = (s)->uuids;                     \
        (r).limit = (s)->limit;                     \
        (r).sm_limit = (s)->sm_limit;               \
        (r).proc_num = &(s)->proc_num;              \
        (r).utilization_switch = &(s)->utilization_switch; \
        (r).recent_kernel = &(s)->recent_kernel;    \
        (r).priority = &(s)->priority;              \
    } while (0)

#define SLOT_FIELDS(v, p)                                         \
    do {                                                          \
        (v).pid = &(p)->pid;                                      \
        (v).hostpid = &(p)->hostpid;                              \
        (v).status = &(p)->status;                                \
        for (int d = 0; d < CUDA_DEVICE_MAX_COUNT; d++) {         \
            (v).context[d] = &(p)->used[d].context_size;          \
            (v).module[d] = &(p)->used[d].module_size;            \
            (v).data[d] = &(p)->used[d].data_size;                \
            (v).offset[d] = &(p)->used[d].offset;                 \
            (v).total[d] = &(p)->used[d].total;                   \
            (v).sm_util[d] = &(p)->device_util[d].sm_util;        \
        }                                                         \
    } while (0)

static region_view view(void *base, int version, size_t size) {
    region_view r = {.version = version, .base = base, .size = size};
    if (version == 1) {
        shared_region_t *s = base;
        VIEW_FIELDS(r, s);
        r.last_kernel_time = &s->last_kernel_time;
    } else {
        shared_region_v0_t *s = base;
        VIEW_FIELDS(r, s);
        r.last_kernel_time = NULL;
    }
    return r;
}

static slot_view slot(const region_view *r, int i) {
    slot_view v = {0};
    if (r->version == 1) {
        shrreg_proc_slot_t *p = &((shared_region_t *)r->base)->procs[i];
        SLOT_FIELDS(v, p);
        v.seqlock = &p->seqlock;
    } else {
        shrreg_proc_slot_v0_t *p = &((shared_region_v0_t *)r->base)->procs[i];
        SLOT_FIELDS(v, p);
        v.seqlock = NULL;
    }
    return v;
}

/* Opens or creates the file as HAMi-core does: size sizeof(region) + 1, mapped MAP_SHARED. */
static region_view open_region(const char *path, int version) {
    size_t size = version == 1 ? sizeof(shared_region_t) : sizeof(shared_region_v0_t);
    umask(0); /* HAMi-core's file is world-writable: every container user and the monitor open it */
    int fd = open(path, O_RDWR | O_CREAT, 0666);
    if (fd < 0) {
        fail("cannot open %s: %s", path, strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        fail("cannot stat %s: %s", path, strerror(errno));
    }
    if (st.st_size > 0 && (size_t)st.st_size != size + 1) {
        fail("%s holds %lld bytes, not a version %d region (%zu bytes)", path, (long long)st.st_size, version,
             size + 1);
    }
    if (lseek(fd, (off_t)size, SEEK_SET) != (off_t)size || write(fd, "", 1) != 1) {
        fail("cannot size %s: %s", path, strerror(errno));
    }
    void *base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
        fail("cannot map %s: %s", path, strerror(errno));
    }
    if (lockf(fd, F_LOCK, (off_t)size) != 0) {
        fail("cannot lock %s: %s", path, strerror(errno));
    }
    region_view r = view(base, version, size);
    r.fd = fd;
    if (LOAD(r.initialized_flag) == SHARED_REGION_MAGIC && version == 1 &&
        ((shared_region_t *)base)->major_version != SHARED_REGION_MAJOR_VERSION) {
        fail("%s holds region version %u, not 1", path, ((shared_region_t *)base)->major_version);
    }
    return r;
}

/* try_create_shrreg: every field first, the magic last, so a reader never sees a half-made region. */
static void initialise(region_view *r, const options *o) {
    if (LOAD(r->initialized_flag) != SHARED_REGION_MAGIC) {
        if (r->version == 1) {
            shared_region_t *s = r->base;
            s->major_version = SHARED_REGION_MAJOR_VERSION;
            s->minor_version = SHARED_REGION_MINOR_VERSION;
        }
        for (int d = 0; d < CUDA_DEVICE_MAX_COUNT; d++) {
            r->limit[d] = d < o->device_count ? o->devices[d].limit_mib * MIB : 0;
            r->sm_limit[d] = d < o->device_count && o->devices[d].sm_limit > 0 ? o->devices[d].sm_limit : 100;
        }
        if (sem_init(r->sem, 1, 1) != 0) {
            fail("cannot initialise the region semaphore: %s", strerror(errno));
        }
        if (r->version == 1 && sem_init(&((shared_region_t *)r->base)->sem_postinit, 1, 1) != 0) {
            fail("cannot initialise the region semaphore: %s", strerror(errno));
        }
        STORE(r->sm_init_flag, 0);
        STORE(r->utilization_switch, 1);
        STORE(r->recent_kernel, 2);
        STORE(r->proc_num, 0);
        *r->priority = o->priority;
        __atomic_thread_fence(__ATOMIC_RELEASE);
        STORE(r->initialized_flag, SHARED_REGION_MAGIC);
    }
    if (r->last_kernel_time != NULL) {
        STORE(r->last_kernel_time, (uint64_t)time(NULL));
    }
    /* init_device_info: the device count and UUIDs come from NVML after the region exists */
    STORE(r->device_num, (uint64_t)o->device_count);
    for (int d = 0; d < o->device_count; d++) {
        memcpy(r->uuids[d], o->devices[d].uuid, SHARED_REGION_UUID_SIZE);
    }
}

/* init_proc_slot_withlock: reuse the slot of the same pid (a restart), else append one. */
static int join(region_view *r, int32_t pid) {
    int n = LOAD(r->proc_num);
    int i = 0;
    while (i < n && LOAD(slot(r, i).pid) != pid) {
        i++;
    }
    if (i == SHARED_REGION_MAX_PROCESS_NUM) {
        fail("region is full (%d processes)", SHARED_REGION_MAX_PROCESS_NUM);
    }
    slot_view s = slot(r, i);
    if (s.seqlock != NULL) {
        STORE(s.seqlock, 0);
    }
    STORE(s.pid, pid);
    if (i == n) {
        STORE(s.hostpid, 0);
    }
    STORE(s.status, 1);
    for (int d = 0; d < CUDA_DEVICE_MAX_COUNT; d++) {
        STORE(s.total[d], 0);
        STORE(s.context[d], 0);
        STORE(s.module[d], 0);
        STORE(s.data[d], 0);
        STORE(s.sm_util[d], 0);
    }
    if (i == n) {
        __atomic_fetch_add(r->proc_num, 1, __ATOMIC_RELEASE);
    }
    return i;
}

/* add/rm_gpu_device_memory_usage: total first, then the kind, inside the seqlock (odd while writing). */
static void set_memory(const slot_view *s, int dev, uint64_t *kind, uint64_t value) {
    uint64_t old = LOAD(kind);
    if (s->seqlock != NULL) {
        __atomic_fetch_add(s->seqlock, 1, __ATOMIC_RELEASE);
    }
    if (value >= old) {
        __atomic_fetch_add(s->total[dev], value - old, __ATOMIC_RELEASE);
        __atomic_fetch_add(kind, value - old, __ATOMIC_RELEASE);
    } else {
        __atomic_fetch_sub(s->total[dev], old - value, __ATOMIC_RELEASE);
        __atomic_fetch_sub(kind, old - value, __ATOMIC_RELEASE);
    }
    if (s->seqlock != NULL) {
        __atomic_fetch_add(s->seqlock, 1, __ATOMIC_RELEASE);
    }
}

/*
 * One process's use of every device: `used` bytes split as HAMi-core would meet them, a context first
 * (1/8), loaded modules (1/16), data allocations for the rest; SM utilisation `util` percent.
 */
static void account(region_view *r, int i, int devices, uint64_t used, uint64_t util, int kernel) {
    slot_view s = slot(r, i);
    uint64_t context = used / 8, module = used / 16;
    for (int d = 0; d < devices; d++) {
        set_memory(&s, d, s.context[d], context);
        set_memory(&s, d, s.module[d], module);
        set_memory(&s, d, s.data[d], used - context - module);
        STORE(s.sm_util[d], util);
    }
    if (kernel && r->last_kernel_time != NULL) {
        STORE(r->last_kernel_time, (uint64_t)time(NULL));
    }
}

/* Memory and utilisation of the profile at `elapsed` seconds; returns whether a kernel ran. */
static int shape(const options *o, double elapsed, long tick, uint64_t *used, uint64_t *util) {
    uint64_t full = o->used_mib * MIB;
    if (strcmp(o->profile, "ramp") == 0) {
        double f = o->duration_s > 0 ? elapsed / o->duration_s : 1.0;
        if (f > 1.0) {
            f = 1.0;
        }
        *used = (uint64_t)((double)full * f);
        *util = (uint64_t)((double)o->sm_util * f);
        return *util > 0;
    }
    if (strcmp(o->profile, "burst") == 0 && tick % 2 == 1) {
        *used = full / 4;
        *util = 0;
        return 0;
    }
    *used = full;
    *util = o->sm_util;
    return 1;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int run(const options *o) {
    region_view r = open_region(o->region, o->version);
    initialise(&r, o);
    int slots[SHARED_REGION_MAX_PROCESS_NUM];
    for (int p = 0; p < o->processes; p++) {
        /* container pids 1..N; set_host_pid later fills the host's pid */
        slots[p] = join(&r, p + 1);
        STORE(slot(&r, slots[p]).hostpid, (int32_t)getpid() + p);
    }
    if (lockf(r.fd, F_ULOCK, (off_t)r.size) != 0) {
        fail("cannot unlock %s: %s", o->region, strerror(errno));
    }
    double start = now_s();
    for (long tick = 0;; tick++) {
        uint64_t used, util;
        int kernel = shape(o, now_s() - start, tick, &used, &util);
        for (int p = 0; p < o->processes; p++) {
            account(&r, slots[p], o->device_count, used, util, kernel);
        }
        if (o->once || stopping || (o->duration_s > 0 && now_s() - start >= o->duration_s)) {
            break;
        }
        struct timespec pause = {o->period_ms / 1000, (o->period_ms % 1000) * 1000000L};
        nanosleep(&pause, NULL);
        if (stopping) {
            break;
        }
    }
    if (o->duration_s > 0 && !o->once && !stopping) {
        /* The profile's end shape whatever the ticks a loaded machine let run: ramp full, burst on a busy tick. */
        uint64_t used, util;
        int kernel = shape(o, o->duration_s, 0, &used, &util);
        for (int p = 0; p < o->processes; p++) {
            account(&r, slots[p], o->device_count, used, util, kernel);
        }
    }
    msync(r.base, r.size, MS_SYNC);
    return 0;
}

static int dump(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        fail("cannot open %s: %s", path, strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fail("%s is not a readable regular file", path);
    }
    size_t size = (size_t)st.st_size;
    int version;
    if (size == sizeof(shared_region_v0_t) + 1) {
        version = 0;
    } else if (size >= sizeof(shared_region_t)) {
        version = 1;
    } else {
        fail("%s: %zu bytes is no region", path, size);
    }
    void *base = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
        fail("cannot map %s: %s", path, strerror(errno));
    }
    region_view r = view(base, version, size);
    if (LOAD(r.initialized_flag) != SHARED_REGION_MAGIC) {
        fail("%s: no region magic", path);
    }
    if (version == 1) {
        shared_region_t *s = base;
        printf("version %u.%u\n", s->major_version, s->minor_version);
    } else {
        printf("version 0.0\n");
    }
    uint64_t devices = LOAD(r.device_num);
    printf("device_num %llu\n", (unsigned long long)devices);
    for (uint64_t d = 0; d < devices && d < CUDA_DEVICE_MAX_COUNT; d++) {
        printf("device %llu %.*s %llu %llu\n", (unsigned long long)d, SHARED_REGION_UUID_SIZE, r.uuids[d],
               (unsigned long long)r.limit[d], (unsigned long long)r.sm_limit[d]);
    }
    int n = LOAD(r.proc_num);
    printf("proc_num %d\n", n);
    for (int i = 0; i < n && i < SHARED_REGION_MAX_PROCESS_NUM; i++) {
        slot_view s = slot(&r, i);
        printf("proc %d %d %d\n", i, LOAD(s.pid), LOAD(s.hostpid));
        for (uint64_t d = 0; d < devices && d < CUDA_DEVICE_MAX_COUNT; d++) {
            printf("memory %d %llu %llu %llu %llu %llu %llu %llu\n", i, (unsigned long long)d,
                   (unsigned long long)LOAD(s.context[d]), (unsigned long long)LOAD(s.module[d]),
                   (unsigned long long)LOAD(s.data[d]), (unsigned long long)LOAD(s.offset[d]),
                   (unsigned long long)LOAD(s.total[d]), (unsigned long long)LOAD(s.sm_util[d]));
        }
    }
    printf("priority %d\n", LOAD(r.priority));
    printf("recent_kernel %d\n", LOAD(r.recent_kernel));
    printf("utilization_switch %d\n", LOAD(r.utilization_switch));
    printf("last_kernel_time %llu\n", r.last_kernel_time ? (unsigned long long)LOAD(r.last_kernel_time) : 0ULL);
    return 0;
}

int main(int argc, char **argv) {
    options o = parse(argc, argv);
    if (o.dump) {
        return dump(o.region);
    }
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    return run(&o);
}
