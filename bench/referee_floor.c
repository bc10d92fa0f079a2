/* referee_floor.c - the floor under the referee: its system calls on the bots, and nothing else.
 *
 * Replays a capture of what the real referee did with its bots (bench/referee_floor.py makes it from
 * `strace` of the referee row of bench/speed_table.py: 4 trivial C bots, family single rounds,
 * `--sandbox none`): the same bytes written to each seat in the same order (turn lines with their
 * catch-up, game ends, the start messages), and around them the same system calls the referee makes:
 *   P  poll(0) on the bot's stdout (a request's early-answer check, each seat's check between games)
 *   W  write (the bot's stdin is non-blocking, as the referee's is)
 *   R  poll that waits (20 ms, again until ready) and read (64 KiB) until the answer line
 *   C  clock_gettime of the bot's CPU clock (clock_getcpuclockid: what referee/bots/cpuclock.py reads)
 *   X  wait4(pid, WNOHANG) (the referee's `alive` at each seat's start and end of a game)
 * with no work in between: no engine, no turn line built, no JSON read. The bots are started as the
 * referee starts them under `--sandbox none` (pipes to stdin and stdout, their own session), run as
 * they are; the answers read are compared with the ones the referee read (`mismatches` must be 0).
 *
 * Variants, each run on freshly started bots: full (everything above), noclock (without C),
 * noclock-nopoll0 (without C and P), bare (W and a blocking read only: no poll, no clock, no wait4;
 * the raw pipe round trip of bench/pingpong.c, but with the referee's bytes and four bots).
 * Prints per variant: name, wall microseconds per decision over the timed games (the mean, as
 * speed_table's referee row), this process's CPU and the four bots' CPU microseconds per decision
 * (user + system), the decisions timed, and the answers that differed from the referee's.
 *
 * Build: gcc -O2 -std=gnu99 -o referee_floor referee_floor.c
 * Run:   taskset -c 0 ./referee_floor REPLAY BOT [VARIANT ...]   (REPLAY: python bench/referee_floor.py --help)
 *
 * REPLAY format: "LCFLOOR1" then ops, each one byte of op ('P', 'W', 'R', 'C', 'X', 'T' timing starts,
 * 'E' timing ends), one byte of seat, and for W and R a little-endian uint32 length and that many bytes
 * (W: the bytes written; R: the answer line the referee read, without its newline).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define SEATS 4
#define READ_SIZE 65536

enum { USE_POLL0 = 1, USE_CLOCK = 2, USE_WAIT4 = 4, USE_POLL = 8 };

struct variant { const char *name; int use; };
static const struct variant VARIANTS[] = {
    {"full", USE_POLL0 | USE_CLOCK | USE_WAIT4 | USE_POLL},
    {"noclock", USE_POLL0 | USE_WAIT4 | USE_POLL},
    {"noclock-nopoll0", USE_WAIT4 | USE_POLL},
    {"bare", 0},
};

struct op { char kind; int seat; uint32_t len; const char *data; };

struct bot {
    pid_t pid;
    int in, out;            /* the bot's stdin (written) and stdout (read), from the referee's side */
    clockid_t clock;        /* the bot's CPU clock */
    char buf[READ_SIZE * 2]; /* what was read past the last answer line */
    size_t have;
};

static struct bot bots[SEATS];

static void die(const char *what) {
    perror(what);
    exit(2);
}

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static double cpu_us(void) {
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return (r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e6 + r.ru_utime.tv_usec + r.ru_stime.tv_usec;
}

/* The CPU microseconds the bots have used so far (their own clocks, read outside the decisions). */
static double bots_cpu_us(void) {
    double total = 0;
    for (int s = 0; s < SEATS; s++) {
        struct timespec t;
        if (clock_gettime(bots[s].clock, &t)) die("clock_gettime");
        total += t.tv_sec * 1e6 + t.tv_nsec / 1e3;
    }
    return total;
}

/* The whole replay file, split into ops pointing into it. */
static struct op *load(const char *path, size_t *count) {
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) die(path);
    char *data = malloc(st.st_size + 1);
    size_t got = 0;
    while (got < (size_t)st.st_size) {
        ssize_t k = read(fd, data + got, st.st_size - got);
        if (k <= 0) die("read replay");
        got += k;
    }
    close(fd);
    if (got < 8 || memcmp(data, "LCFLOOR1", 8) != 0) { fprintf(stderr, "%s: not a replay\n", path); exit(2); }
    size_t cap = 1024, n = 0, at = 8;
    struct op *ops = malloc(cap * sizeof *ops);
    while (at + 2 <= got) {
        struct op o = {data[at], (unsigned char)data[at + 1], 0, NULL};
        at += 2;
        if (o.kind == 'W' || o.kind == 'R') {
            if (at + 4 > got) break;
            o.len = (uint32_t)(unsigned char)data[at] | (uint32_t)(unsigned char)data[at + 1] << 8
                    | (uint32_t)(unsigned char)data[at + 2] << 16 | (uint32_t)(unsigned char)data[at + 3] << 24;
            o.data = data + at + 4;
            at += 4 + o.len;
        }
        if (o.seat >= SEATS || at > got) { fprintf(stderr, "%s: bad op at %zu\n", path, at); exit(2); }
        if (n == cap) ops = realloc(ops, (cap *= 2) * sizeof *ops);
        ops[n++] = o;
    }
    *count = n;
    return ops;
}

/* Start the bots as the referee does without a sandbox: stdin and stdout pipes, a session of their own. */
static void start_bots(const char *exe, int blocking) {
    for (int s = 0; s < SEATS; s++) {
        int down[2], up[2];
        if (pipe2(down, O_CLOEXEC) || pipe2(up, O_CLOEXEC)) die("pipe");
        pid_t pid = fork();
        if (pid < 0) die("fork");
        if (pid == 0) {
            setsid();
            dup2(down[0], 0);
            dup2(up[1], 1);
            execl(exe, exe, (char *)NULL);
            _exit(127);
        }
        close(down[0]);
        close(up[1]);
        bots[s] = (struct bot){.pid = pid, .in = down[1], .out = up[0], .have = 0};
        if (clock_getcpuclockid(pid, &bots[s].clock)) die("clock_getcpuclockid");
        if (!blocking) {
            fcntl(bots[s].in, F_SETFL, fcntl(bots[s].in, F_GETFL) | O_NONBLOCK);
            fcntl(bots[s].out, F_SETFL, fcntl(bots[s].out, F_GETFL) | O_NONBLOCK);
        }
    }
}

static void stop_bots(void) {
    for (int s = 0; s < SEATS; s++) {
        close(bots[s].in);  /* end of input: the trivial bot exits */
        waitpid(bots[s].pid, NULL, 0);
        close(bots[s].out);
    }
}

static void write_all(struct bot *b, const char *data, size_t len) {
    while (len) {
        ssize_t k = write(b->in, data, len);
        if (k > 0) { data += k; len -= k; continue; }
        if (k < 0 && errno == EAGAIN) {  /* a full pipe: wait until the bot reads */
            struct pollfd p = {b->in, POLLOUT, 0};
            poll(&p, 1, 1000);
            continue;
        }
        die("write");
    }
}

/* The next line from the bot (without its newline), waiting as the referee does; whether it is `want`. */
static int read_answer(struct bot *b, int use, const char *want, size_t want_len) {
    char *nl;
    while (!(nl = memchr(b->buf, '\n', b->have))) {
        if (use & USE_POLL) {
            struct pollfd p = {b->out, POLLIN, 0};
            while (poll(&p, 1, 20) == 0) {}
        }
        if (b->have + READ_SIZE > sizeof b->buf) { fprintf(stderr, "answer too long\n"); exit(2); }
        ssize_t k = read(b->out, b->buf + b->have, READ_SIZE);
        if (k < 0 && errno == EAGAIN) continue;
        if (k <= 0) { fprintf(stderr, "bot %d closed its output\n", (int)(b - bots)); exit(2); }
        b->have += k;
    }
    size_t len = nl - b->buf;
    int same = len == want_len && memcmp(b->buf, want, len) == 0;
    b->have -= len + 1;
    memmove(b->buf, nl + 1, b->have);
    return same;
}

static void run(const struct op *ops, size_t count, const struct variant *v, const char *exe) {
    int use = v->use, decisions = 0, mismatches = 0, timing = 0;
    double t0 = 0, c0 = 0, b0 = 0, wall = 0, cpu = 0, bots_cpu = 0;
    start_bots(exe, !(use & USE_POLL));
    for (size_t i = 0; i < count; i++) {
        const struct op *o = &ops[i];
        struct bot *b = &bots[o->seat];
        switch (o->kind) {
        case 'P':
            if (use & USE_POLL0) {
                struct pollfd p = {b->out, POLLIN, 0};
                poll(&p, 1, 0);
            }
            break;
        case 'W':
            write_all(b, o->data, o->len);
            break;
        case 'R':
            mismatches += !read_answer(b, use, o->data, o->len);
            decisions += timing;
            break;
        case 'C':
            if (use & USE_CLOCK) {
                struct timespec t;
                clock_gettime(b->clock, &t);
            }
            break;
        case 'X':
            if (use & USE_WAIT4) {
                int status;
                waitpid(b->pid, &status, WNOHANG);
            }
            break;
        case 'T':
            timing = 1;
            b0 = bots_cpu_us();
            c0 = cpu_us();
            t0 = now_us();
            break;
        case 'E':
            wall = now_us() - t0;
            cpu = cpu_us() - c0;
            bots_cpu = bots_cpu_us() - b0;
            timing = 0;
            break;
        }
    }
    stop_bots();
    if (!decisions) { fprintf(stderr, "no timed decisions in the replay\n"); exit(2); }
    printf("%s %.3f %.3f %.3f %d %d\n", v->name, wall / decisions, cpu / decisions, bots_cpu / decisions, decisions,
           mismatches);
    fflush(stdout);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s REPLAY BOT [full|noclock|noclock-nopoll0|bare ...]\n", argv[0]);
        return 2;
    }
    size_t count;
    struct op *ops = load(argv[1], &count);
    int nv = sizeof VARIANTS / sizeof VARIANTS[0];
    if (argc == 3) {
        for (int v = 0; v < nv; v++) run(ops, count, &VARIANTS[v], argv[2]);
        return 0;
    }
    for (int a = 3; a < argc; a++) {
        int v = 0;
        while (v < nv && strcmp(VARIANTS[v].name, argv[a]) != 0) v++;
        if (v == nv) { fprintf(stderr, "unknown variant %s\n", argv[a]); return 2; }
        run(ops, count, &VARIANTS[v], argv[2]);
    }
    return 0;
}
